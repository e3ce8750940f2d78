import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { PreviewRender } from '../api/preview.ts';
import type { SavedTarget, StoredTarget } from '../api/target-settings.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { closePreviewQuietly } from '../hooks/use-preview.ts';
import { useTargetSettings } from '../hooks/use-target-settings.ts';
import { routePaths } from '../route-paths.ts';
import { AlertDialog } from '../shell/alert-dialog.tsx';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { ActionsStep } from './actions-step.tsx';
import { contentLeft } from './area-boxes.ts';
import { AreaPicker } from './area-picker.tsx';
import { AreasStep } from './areas-step.tsx';
import { ContentStep } from './content-step.tsx';
import { DisplayStep } from './display-step.tsx';
import type { DocumentKind } from './document-areas.ts';
import { DocumentAreasStep, DocumentPreview } from './document-step.tsx';
import { LoginStep } from './login-step.tsx';
import { NotifyStep } from './notify-step.tsx';
import { StepList } from './step-list.tsx';
import { type OpenedDocument, UrlStep } from './url-step.tsx';
import { useAreaSelection } from './use-area-selection.ts';
import {
  draftFromStored,
  newDraft,
  STEP_COUNT,
  STEPS,
  type StepId,
  stepNumber,
  type WizardDraft,
} from './wizard-draft.ts';
import type { PreviewSession, StepProps } from './wizard-step.ts';
import './wizard.css';

export type WizardLayout = 'columns' | 'stacked';

/**
 * The site registration wizard of /sr2c (steps beside the preview) and /sr2m (stacked). With
 * `?id=` it edits that site; `&step=notify` opens its notification settings directly.
 */
export function RegistrationWizard({ layout }: { layout: WizardLayout }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const editId = params.get('id');
  const stored = useTargetSettings(editId);
  if (editId === null)
    return <WizardFlow key="new" layout={layout} editId={null} initial={newDraft()} start="url" />;
  if (stored.isPending) return <LoadingIndicator />;
  if (stored.isError || !stored.data.settings) {
    return (
      <div className="notice">
        <FormMessage tone="error" message={errorText(stored.error ?? 'not_found')} />
        <button type="button" className="button" onClick={() => void stored.refetch()}>
          {t('actions.retry')}
        </button>
      </div>
    );
  }
  return (
    <WizardFlow
      key={editId}
      layout={layout}
      editId={editId}
      stored={stored.data}
      initial={draftFromStored(stored.data.settings)}
      start={params.get('step') === 'notify' ? 'notify' : 'url'}
    />
  );
}

const stepIndex = (step: StepId) => STEPS.indexOf(step);

/** The target service's label limit, which its label_too_long message states (200 characters). */
const LABEL_MAX_LENGTH = 200;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** A new site's first name: the page's own title, else its host ("Sample shop", not "127.0.0.1:8092"). */
function labelFromRender(render: PreviewRender): string {
  if (render.title !== '') return render.title.slice(0, LABEL_MAX_LENGTH);
  try {
    return new URL(render.url).host;
  } catch {
    return '';
  }
}

function WizardFlow({
  layout,
  editId,
  stored,
  initial,
  start,
}: {
  layout: WizardLayout;
  editId: string | null;
  /** The edited site as read: its revision goes with the update (docs/product.md#edit-conflicts). */
  stored?: StoredTarget;
  initial: WizardDraft;
  start: StepId;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState(initial);
  // What the edit started from; loading the saved version after a conflict moves it on.
  const [base, setBase] = useState(stored ? { stored, draft: initial } : null);
  const [step, setStep] = useState<StepId>(start);
  const [furthest, setFurthest] = useState(stepIndex(start));
  const [preview, setPreview] = useState<PreviewSession | null>(null);
  // A PDF, JSON or XML target has no page preview: its text, as the URL served it.
  const [document, setDocument] = useState<OpenedDocument | null>(null);
  // docs/product.md#wizard: once the areas are registered, login and actions are behind the user.
  const [areasRegistered, setAreasRegistered] = useState(start === 'notify');
  const [pausedSave, setPausedSave] = useState<SavedTarget>();
  // Fitted into the preview's box a desktop page shrinks past pointing at anything (a price became
  // a 19×7 px target): the page starts at its own size, and zooming out is a choice.
  const [zoomedOut, setZoomedOut] = useState(false);
  const narrow = useNarrowWindow();
  const previewScroll = useRef<HTMLElement>(null);
  const shownRender = preview?.render;
  // At actual size a centred page would open on its empty left margin: start where its text does.
  useEffect(() => {
    const scroller = previewScroll.current;
    if (!scroller || !shownRender || zoomedOut) return;
    const pageWidth = shownRender.image_width / shownRender.scale;
    scroller.scrollLeft = Math.max(0, contentLeft(shownRender.elements, pageWidth) - 16);
  }, [shownRender, zoomedOut]);
  const heading = useRef<HTMLHeadingElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const openSession = useRef<string | null>(null);
  const change: StepProps['change'] = (update) => setDraft(update);
  const [previewExpired, setPreviewExpired] = useState(false);

  useEffect(() => {
    openSession.current = preview?.sessionId ?? null;
  }, [preview]);
  // The crawler keeps few previews per user: leaving the wizard gives this one back.
  useEffect(
    () => () => {
      if (openSession.current) void closePreviewQuietly(openSession.current);
    },
    [],
  );
  // A new step takes focus to its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (focusRequest > 0) heading.current?.focus();
  }, [focusRequest]);

  const go = (next: StepId) => {
    setStep(next);
    setFocusRequest((count) => count + 1);
    setFurthest((current) => Math.max(current, stepIndex(next)));
  };
  // An expired preview cannot be acted on any more: the flow goes back to opening the page.
  const onPreviewExpired = () => {
    setPreview(null);
    setPreviewExpired(true);
    go('url');
  };
  const selection = useAreaSelection({ draft, change, preview, onPreviewExpired });
  const reachable = (target: StepId) => {
    if (stepIndex(target) > furthest) return false;
    if (areasRegistered && (target === 'login' || target === 'actions')) return false;
    return (
      target === 'url' ||
      target === 'areas' ||
      target === 'content' ||
      target === 'notify' ||
      preview !== null
    );
  };
  const setRender = (render: PreviewRender) =>
    setPreview((current) =>
      current ? { ...current, render, topFrames: render.frame ? current.topFrames : render.frames } : current,
    );

  const onOpened = (session: PreviewSession) => {
    setPreview(session);
    setPreviewExpired(false);
    // Areas already chosen (or stored, in edit mode) are found on the new picture by their selector.
    setDraft((current) => ({
      ...current,
      // A label to start from; the user names the site in the notification settings.
      label: current.label || labelFromRender(session.render),
      areas: current.areas.map((area) => {
        const element = session.render.elements.find(
          (entry) => entry.css === area.locator.selector && area.locator.frame_selector === '',
        );
        return { ...area, box: element?.box ?? null };
      }),
    }));
    go('display');
  };

  // docs/product.md#documents-and-data: a document goes from its URL straight to its areas.
  const onDocument = (opened: OpenedDocument) => {
    const kind = opened.content_kind as DocumentKind;
    setPreview(null);
    setDocument(opened);
    setDraft((current) => ({
      ...current,
      // Areas written for another kind cannot be read from this one.
      areas: current.contentKind === kind ? current.areas : [],
      contentKind: kind,
      label: current.label || hostOf(opened.final_url),
    }));
    go('areas');
  };

  const onSaved = (saved: SavedTarget) => {
    if (preview) void closePreviewQuietly(preview.sessionId);
    openSession.current = null;
    if (saved.paused_for_quota) setPausedSave(saved);
    else void navigate(`${routePaths.targetDetail}?id=${encodeURIComponent(saved.target_v2_id)}`);
  };

  const stepHeading = () => {
    const number = stepNumber(step);
    const name = t(`wizard.steps.${step}`);
    return number === null
      ? t('wizard.optionalStep', { name })
      : t('wizard.stepHeading', { number, total: STEP_COUNT, name });
  };

  const shared = { draft, change, preview, setRender, onPreviewExpired };
  const stepView = () => {
    switch (step) {
      case 'url':
        return (
          <UrlStep
            draft={draft}
            change={change}
            preview={preview}
            expired={previewExpired}
            onOpened={(session) => {
              setDocument(null);
              // A page opened in the browser: the target watches a page, whatever it was before.
              if (draft.contentKind !== 'page')
                setDraft((current) => ({ ...current, contentKind: 'page', areas: [] }));
              onOpened(session);
            }}
            onDocument={onDocument}
          />
        );
      case 'display':
        return (
          <DisplayStep
            {...shared}
            onBack={() => go('url')}
            onNext={() => go(areasRegistered ? 'areas' : 'login')}
          />
        );
      case 'login':
        return <LoginStep {...shared} onBack={() => go('display')} onNext={() => go('actions')} />;
      case 'actions':
        return <ActionsStep {...shared} onBack={() => go('login')} onNext={() => go('areas')} />;
      case 'areas':
        if (draft.contentKind !== 'page')
          return (
            <DocumentAreasStep
              draft={draft}
              change={change}
              document={document}
              onBack={areasRegistered ? undefined : () => go('url')}
              onNext={() => {
                setAreasRegistered(true);
                go('content');
              }}
            />
          );
        return (
          <AreasStep
            {...shared}
            selection={selection}
            onBack={areasRegistered ? (preview ? () => go('display') : undefined) : () => go('actions')}
            onNext={() => {
              setAreasRegistered(true);
              go('content');
            }}
            onReopen={() => go('url')}
          />
        );
      case 'content':
        return <ContentStep {...shared} onBack={() => go('areas')} onNext={() => go('notify')} />;
      case 'notify':
        return (
          <NotifyStep
            {...shared}
            onBack={() => go('content')}
            editId={editId}
            onSaved={onSaved}
            base={base}
            rebase={(next) =>
              setBase({ stored: next, draft: next.settings ? draftFromStored(next.settings) : initial })
            }
          />
        );
    }
  };

  // On a phone the picture would come after the whole step (its lists and buttons): at the area
  // step, where the picture is what one works on, it comes right under the step's heading.
  const pictureFirst = (layout === 'stacked' || narrow) && step === 'areas' && draft.contentKind === 'page';
  const previewSection = (
    <section className="wizard-preview" aria-labelledby="wizard-preview-title">
      <div className="preview-head">
        <h2 id="wizard-preview-title" className="preview-title">
          {t('wizard.preview.title')}
        </h2>
        {preview && (
          <label className="checkbox preview-zoom">
            <input
              type="checkbox"
              checked={zoomedOut}
              onChange={(event) => setZoomedOut(event.target.checked)}
            />
            {t('wizard.preview.zoomOut')}
          </label>
        )}
      </div>
      {draft.contentKind !== 'page' && document ? (
        <DocumentPreview document={document} kind={draft.contentKind as DocumentKind} />
      ) : preview ? (
        <AreaPicker
          render={preview.render}
          areas={draft.areas}
          picking={step === 'areas' && !selection.pending}
          zoomedOut={zoomedOut}
          excluding={step === 'areas' ? selection.excludingArea : undefined}
          onChoose={selection.choose}
          onEscape={() => selection.setExcluding(undefined)}
          scrollRef={previewScroll}
        />
      ) : (
        <p className="muted preview-empty">
          {t(editId ? 'wizard.preview.emptyEditing' : 'wizard.preview.empty')}
        </p>
      )}
    </section>
  );

  return (
    <div className={`wizard wizard-${layout}`}>
      <div className="wizard-panel">
        {editId && (
          <p className="wizard-editing">{t('wizard.editing', { label: initial.label || initial.url })}</p>
        )}
        <StepList steps={STEPS} current={step} reachable={reachable} onSelect={go} />
        <h2 ref={heading} tabIndex={-1} className="step-title">
          {stepHeading()}
        </h2>
        {pictureFirst && previewSection}
        {stepView()}
      </div>
      {!pictureFirst && previewSection}
      {pausedSave && (
        <AlertDialog
          message={t('wizard.pausedForQuota')}
          onClose={() =>
            void navigate(`${routePaths.targetDetail}?id=${encodeURIComponent(pausedSave.target_v2_id)}`)
          }
          actions={
            <button
              type="button"
              className="button primary"
              onClick={() =>
                void navigate(`${routePaths.targetDetail}?id=${encodeURIComponent(pausedSave.target_v2_id)}`)
              }
            >
              {t('wizard.ok')}
            </button>
          }
        />
      )}
    </div>
  );
}
