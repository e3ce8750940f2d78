import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FrameRef } from '../api/preview.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useRenderPreview } from '../hooks/use-preview.ts';
import { LoadProgress } from './load-progress.tsx';
import { callProblemMessage, problemMessage } from './preview-problem.ts';
import { StepButtons } from './step-buttons.tsx';
import type { StepProps } from './wizard-step.ts';

const TOP = '';

/** Step 2: confirm the page looks right; areas inside an iframe are chosen after switching to it. */
export function DisplayStep({ preview, setRender, onBack, onNext, onPreviewExpired }: StepProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const render = useRenderPreview();
  const [problem, setProblem] = useState<string>();
  if (!preview) return null;
  const shown = preview.render.frame?.selector ?? TOP;
  // Inside a frame the map lists that frame's own frames; the ones seen from the top stay offered.
  const frames = preview.topFrames;

  const switchTo = (selector: string) => {
    const frame: FrameRef | null = selector === TOP ? null : { selector, selector_type: 'css' };
    setProblem(undefined);
    render.mutate(
      { sessionId: preview.sessionId, frame },
      {
        onSuccess: (rendered) => {
          if ('problem' in rendered) {
            // A frame that is gone is named as such; anything else failed to make the new picture.
            const message = problemMessage(rendered.problem);
            setProblem(
              t(`wizard.problems.${message === 'elementNotFound' ? message : 'screenshotUpdateFailed'}`),
            );
          } else setRender(rendered.render);
        },
        onError: (error) => {
          const message = callProblemMessage(error);
          if (message === 'previewExpired') onPreviewExpired();
          setProblem(message ? t(`wizard.problems.${message}`) : errorText(error));
        },
      },
    );
  };

  return (
    <div className="form wizard-form" data-tour="before-areas">
      <p className="lead">{t('wizard.display.lead')}</p>
      <p className="current-value">
        <span className="field-label">{t('wizard.display.shownUrl')}</span> {preview.render.url}
      </p>
      {(frames.length > 0 || shown !== TOP) && (
        <div className="field">
          <label htmlFor="wizard-frame" className="field-label">
            {t('wizard.display.frame')}
          </label>
          <select
            id="wizard-frame"
            className="input"
            value={shown}
            disabled={render.isPending}
            onChange={(event) => switchTo(event.target.value)}
          >
            <option value={TOP}>{t('wizard.display.topDocument')}</option>
            {shown !== TOP && !frames.some((frame) => frame.css === shown) && (
              <option value={shown}>{shown}</option>
            )}
            {frames.map((frame) => (
              <option key={frame.css} value={frame.css}>
                {frame.name || frame.src || frame.css}
              </option>
            ))}
          </select>
          <p className="field-hint">{t('wizard.display.frameHint')}</p>
        </div>
      )}
      {render.isPending && <LoadProgress label={t('wizard.progress.label')} />}
      {problem && <FormMessage tone="error" message={problem} />}
      <StepButtons onBack={onBack} onNext={onNext} nextDisabled={render.isPending} />
    </div>
  );
}
