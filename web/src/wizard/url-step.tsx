import { URL_MAX_LENGTH } from '@mimamori/http-api';
import { CONTENT_KINDS } from '@mimamori/watch-engine/document-areas';
import { USER_AGENT_KINDS } from '@mimamori/watch-engine/user-agent-kinds';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentReading, UserAgentKind } from '../api/preview.ts';
import { contactLinks } from '../contact-links.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { closePreviewQuietly, useDetectDocument, useOpenPreview } from '../hooks/use-preview.ts';
import { LoadProgress } from './load-progress.tsx';
import {
  callProblemMessage,
  MAX_OPEN_ATTEMPTS,
  type ProblemMessage,
  problemMessage,
  shouldRetryOpen,
} from './preview-problem.ts';
import { StepButtons } from './step-buttons.tsx';
import { viewportOf, viewportProblem, type WizardDraft } from './wizard-draft.ts';
import type { PreviewSession, StepProps } from './wizard-step.ts';

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A document the URL serves, read as `reading.content_kind` (docs/product.md#documents-and-data). */
export type OpenedDocument = Extract<DocumentReading, { lines: string[] }>;

/**
 * Step 1: the URL, the user agent and what the URL serves. Next asks what it serves (unless the
 * user said it is a web page): a PDF, JSON or XML document goes on to its areas, a page opens in the
 * crawler's browser.
 */
export function UrlStep({
  draft,
  change,
  preview,
  expired,
  onOpened,
  onDocument,
}: Pick<StepProps, 'draft' | 'change' | 'preview'> & {
  /** The page opened before expired; it has to be opened again. */
  expired: boolean;
  onOpened: (session: PreviewSession) => void;
  onDocument: (document: OpenedDocument) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const openPage = useOpenPreview();
  const detect = useDetectDocument();
  const open = { isPending: openPage.isPending || detect.isPending };
  const [urlError, setUrlError] = useState<string>();
  const [problem, setProblem] = useState<{ message: ProblemMessage } | { text: string }>();
  const [attempt, setAttempt] = useState(1);
  // Open from the start when there is something in it; afterwards the user opens and closes it.
  const [advancedOpen] = useState(
    draft.cookies !== '' || draft.hasCookies || viewportOf(draft) !== undefined,
  );
  const [viewportError, setViewportError] = useState<string>();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();

  const viewport = viewportOf(draft);
  const tryOpen = (url: string, number: number) => {
    setAttempt(number);
    const failed = (message: ProblemMessage) => {
      if (shouldRetryOpen(message, number)) tryOpen(url, number + 1);
      else {
        setProblem({ message });
        focusResult();
      }
    };
    openPage.mutate(
      {
        url,
        user_agent: draft.userAgent,
        ...(draft.cookies.trim() ? { cookies: draft.cookies.trim() } : {}),
        ...(viewport ? { viewport } : {}),
      },
      {
        onSuccess: (opened) => {
          if ('problem' in opened) failed(problemMessage(opened.problem));
          else
            onOpened({
              sessionId: opened.session_id,
              render: opened.render,
              topFrames: opened.render.frames,
            });
        },
        onError: (error) => {
          const message = callProblemMessage(error);
          if (message) failed(message);
          else {
            setProblem({ text: errorText(error) });
            focusResult();
          }
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const tooLong = draft.url.trim().length > URL_MAX_LENGTH;
    const wrongUrl = tooLong || !isWebUrl(draft.url);
    const wrongViewport = viewportProblem(draft);
    setUrlError(
      tooLong
        ? t('wizard.url.tooLong', { max: URL_MAX_LENGTH.toLocaleString('en') })
        : wrongUrl
          ? errorText('url_invalid')
          : undefined,
    );
    setViewportError(wrongViewport ? errorText(wrongViewport) : undefined);
    if (wrongUrl || wrongViewport) {
      focusResult();
      return;
    }
    setProblem(undefined);
    // A new page replaces the one open before; sessions are few per user (3).
    if (preview) void closePreviewQuietly(preview.sessionId);
    const url = draft.url.trim();
    if (draft.kindChoice === 'page') {
      tryOpen(url, 1);
      return;
    }
    detect.mutate(
      {
        url,
        user_agent: draft.userAgent,
        ...(draft.cookies.trim() ? { cookies: draft.cookies.trim() } : {}),
        ...(draft.kindChoice !== 'auto' ? { content_kind: draft.kindChoice } : {}),
      },
      {
        onSuccess: (read) => {
          if ('lines' in read && read.content_kind !== 'page') onDocument(read);
          else if ('problem' in read && draft.kindChoice !== 'auto') {
            setProblem({ message: problemMessage(read.problem) });
            focusResult();
          } else tryOpen(url, 1);
        },
        // A page the plain read could not reach may still open in the browser, which says why not.
        onError: () => tryOpen(url, 1),
      },
    );
  };

  return (
    <form
      ref={container}
      className="form wizard-form"
      noValidate
      onSubmit={submit}
      aria-busy={open.isPending}
      data-tour="site-url"
    >
      <p className="lead">{t('wizard.url.lead')}</p>
      {expired && !problem && !open.isPending && (
        <FormMessage tone="error" message={t('wizard.problems.previewExpired')} />
      )}
      <TextField
        id="wizard-url"
        label={t('wizard.url.url')}
        type="url"
        autoComplete="url"
        value={draft.url}
        onChange={(url) => {
          // What was said about the previous URL no longer holds.
          setUrlError(undefined);
          setProblem(undefined);
          change((current) => ({ ...current, url }));
        }}
        hint={t('wizard.url.urlHint')}
        error={urlError}
        required
        disabled={open.isPending}
      />
      <div className="field">
        <label htmlFor="wizard-user-agent" className="field-label">
          {t('wizard.url.userAgent')}
        </label>
        <select
          id="wizard-user-agent"
          className="input"
          value={draft.userAgent.kind}
          disabled={open.isPending}
          onChange={(event) => {
            const kind = event.target.value as UserAgentKind;
            change((current) => ({ ...current, userAgent: { ...current.userAgent, kind } }));
          }}
        >
          {USER_AGENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`wizard.userAgents.${kind}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="wizard-content-kind" className="field-label">
          {t('wizard.url.contentKind')}
        </label>
        <select
          id="wizard-content-kind"
          className="input"
          value={draft.kindChoice}
          disabled={open.isPending}
          aria-describedby="wizard-content-kind-hint"
          onChange={(event) => {
            const kindChoice = event.target.value as WizardDraft['kindChoice'];
            change((current) => ({ ...current, kindChoice }));
          }}
        >
          {(['auto', ...CONTENT_KINDS] as const).map((kind) => (
            <option key={kind} value={kind}>
              {t(`wizard.contentKinds.${kind}`)}
            </option>
          ))}
        </select>
        <p className="field-hint" id="wizard-content-kind-hint">
          {t('wizard.url.contentKindHint')}
        </p>
      </div>
      {draft.userAgent.kind === 'free' && (
        <TextField
          id="wizard-user-agent-value"
          label={t('wizard.url.userAgentValue')}
          value={draft.userAgent.value}
          onChange={(value) =>
            change((current) => ({ ...current, userAgent: { ...current.userAgent, value } }))
          }
          disabled={open.isPending}
        />
      )}
      <details className="wizard-details" open={advancedOpen}>
        <summary>{t('wizard.url.advanced')}</summary>
        <div className="wizard-details-body">
          <fieldset className="viewport-fields" disabled={open.isPending}>
            <legend className="field-label">{t('wizard.url.viewport')}</legend>
            <div className="viewport-inputs">
              {(['viewportWidth', 'viewportHeight'] as const).map((key) => (
                <div key={key} className="field">
                  <label htmlFor={`wizard-${key}`}>{t(`wizard.url.${key}`)}</label>
                  <input
                    id={`wizard-${key}`}
                    className="input"
                    type="number"
                    inputMode="numeric"
                    min={240}
                    value={draft[key]}
                    aria-invalid={viewportError ? true : undefined}
                    aria-describedby={viewportError ? 'wizard-viewport-error' : 'wizard-viewport-hint'}
                    onChange={(event) => {
                      const value = event.target.value;
                      setViewportError(undefined);
                      change((current) => ({ ...current, [key]: value }));
                    }}
                  />
                </div>
              ))}
            </div>
            <p className="field-hint" id="wizard-viewport-hint">
              {t('wizard.url.viewportHint')}
            </p>
            {viewportError && (
              <p className="field-error" id="wizard-viewport-error">
                {viewportError}
              </p>
            )}
          </fieldset>
          <div className="field">
            <label htmlFor="wizard-cookies" className="field-label">
              {t('wizard.url.cookies')}
            </label>
            <textarea
              id="wizard-cookies"
              className="input"
              rows={2}
              autoComplete="off"
              spellCheck={false}
              value={draft.cookies}
              disabled={open.isPending}
              aria-describedby="wizard-cookies-hint"
              onChange={(event) => {
                const cookies = event.target.value;
                change((current) => ({ ...current, cookies }));
              }}
            />
            <p className="field-hint" id="wizard-cookies-hint">
              {t(draft.hasCookies ? 'wizard.url.cookiesKept' : 'wizard.url.cookiesHint')}
            </p>
          </div>
          {draft.hasCookies && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.clearCookies}
                onChange={(event) => {
                  const clearCookies = event.target.checked;
                  change((current) => ({ ...current, clearCookies }));
                }}
              />
              {t('wizard.url.clearCookies')}
            </label>
          )}
        </div>
      </details>
      {open.isPending && (
        <LoadProgress
          key={attempt}
          label={t('wizard.progress.label')}
          attempt={
            attempt > 1 ? t('wizard.progress.attempt', { attempt, max: MAX_OPEN_ATTEMPTS }) : undefined
          }
        />
      )}
      {problem && (
        <div className="wizard-problem">
          <FormMessage
            tone="error"
            message={'message' in problem ? t(`wizard.problems.${problem.message}`) : problem.text}
          />
          {'message' in problem && problem.message === 'unsupported' && (
            <a className="button small" href={contactLinks.mail}>
              {t('wizard.url.notifyWhenSupported')}
            </a>
          )}
        </div>
      )}
      <StepButtons submit nextDisabled={open.isPending} />
    </form>
  );
}
