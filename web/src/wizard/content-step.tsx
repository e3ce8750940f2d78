import { useIsFetching } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { queryKeys } from '../query-keys.ts';
import { AreaCard, isEmpty } from './area-card.tsx';
import { StepButtons } from './step-buttons.tsx';
import type { AreaDraft } from './wizard-draft.ts';
import type { StepProps } from './wizard-step.ts';

/** Step 4: each area's label and options, with the content checks will compare. */
export function ContentStep({ draft, change, preview, onBack, onNext }: StepProps) {
  const { t } = useTranslation();
  const [tried, setTried] = useState(false);
  const updateArea = (areaId: string, update: (area: AreaDraft) => AreaDraft) =>
    change((current) => ({
      ...current,
      areas: current.areas.map((area) => (area.areaId === areaId ? update(area) : area)),
    }));
  const empty = draft.areas.filter(isEmpty);
  const document = useMemo(
    () =>
      draft.contentKind === 'page'
        ? undefined
        : {
            url: draft.url.trim(),
            user_agent: draft.userAgent,
            ...(draft.cookies.trim() ? { cookies: draft.cookies.trim() } : {}),
            content_kind: draft.contentKind,
          },
    [draft.contentKind, draft.url, draft.userAgent, draft.cookies],
  );
  // The areas are being read from the live page: going on now would save their old content.
  const reading = useIsFetching({ queryKey: queryKeys.previewAreas }) > 0;

  const next = () => {
    setTried(true);
    if (empty.length === 0 && draft.areas.length > 0) onNext();
  };

  return (
    <div className="form wizard-form">
      <p className="lead">{t('wizard.content.lead')}</p>
      {draft.areas.map((area, index) => (
        <AreaCard
          key={area.areaId}
          area={area}
          number={index + 1}
          sessionId={preview?.sessionId ?? null}
          document={document}
          onChange={(update) => updateArea(area.areaId, update)}
        />
      ))}
      {tried && empty.length > 0 && <FormMessage tone="error" message={t('wizard.content.empty')} />}
      <StepButtons onBack={onBack} onNext={next} nextDisabled={reading} />
    </div>
  );
}
