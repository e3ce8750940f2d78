import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useTestLogin } from '../hooks/use-preview.ts';
import { ActionListEditor } from './action-list-editor.tsx';
import { LoadProgress } from './load-progress.tsx';
import { problemMessage } from './preview-problem.ts';
import { StepButtons } from './step-buttons.tsx';
import { useActionTrial } from './use-action-trial.ts';
import { actionFromDraft, actionProblem } from './wizard-draft.ts';
import type { StepProps } from './wizard-step.ts';

/**
 * Step 3 (optional): the login actions, and a login test from a signed-out state, verified by a
 * cookie the site sets or by replaying the actions; it can be run again (docs/product.md#login-and-actions).
 */
export function LoginStep({
  draft,
  change,
  preview,
  setRender,
  onBack,
  onNext,
  onPreviewExpired,
}: StepProps) {
  const { t } = useTranslation();
  const login = useTestLogin();
  const { container, checked, next, outcome, setOutcome, failed } = useActionTrial(onPreviewExpired);
  const canTest = preview !== null && draft.loginActions.length > 0;

  const test = () => {
    if (!preview) return;
    setOutcome(undefined);
    login.mutate(
      {
        sessionId: preview.sessionId,
        actions: draft.loginActions.map(actionFromDraft),
        verify: draft.verify,
      },
      {
        onSuccess: (result) => {
          if (result.render) setRender(result.render);
          if (result.ok) setOutcome({ tone: 'success', message: t('wizard.login.succeeded') });
          else {
            const reason = result.problem ? problemMessage(result.problem) : 'loginUnsupported';
            const detail = reason === 'loginUnsupported' ? '' : ` ${t(`wizard.problems.${reason}`)}`;
            setOutcome({ tone: 'error', message: `${t('wizard.problems.loginUnsupported')}${detail}` });
          }
        },
        onError: failed,
      },
    );
  };

  return (
    <div ref={container} className="form wizard-form" data-tour="before-areas">
      <p className="lead">{t('wizard.login.lead')}</p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.loginEnabled}
          onChange={(event) => {
            const loginEnabled = event.target.checked;
            change((current) => ({ ...current, loginEnabled }));
          }}
        />
        {t('wizard.login.enabled')}
      </label>
      {draft.loginEnabled && (
        <>
          <ActionListEditor
            idPrefix="wizard-login-action"
            actions={draft.loginActions}
            disabled={login.isPending}
            showProblems={checked}
            onChange={(loginActions) => change((current) => ({ ...current, loginActions }))}
          />
          <fieldset className="choice-group" disabled={login.isPending}>
            <legend className="field-label">{t('wizard.login.verify')}</legend>
            {(['replay', 'cookie'] as const).map((kind) => (
              <label key={kind} className="checkbox">
                <input
                  type="radio"
                  name="wizard-login-verify"
                  checked={draft.verify.kind === kind}
                  onChange={() => change((current) => ({ ...current, verify: { ...current.verify, kind } }))}
                />
                {t(`wizard.login.verifyKinds.${kind}`)}
              </label>
            ))}
          </fieldset>
          {draft.verify.kind === 'cookie' && (
            <TextField
              id="wizard-login-cookie"
              label={t('wizard.login.cookieName')}
              value={draft.verify.cookie_name}
              onChange={(cookie_name) =>
                change((current) => ({ ...current, verify: { ...current.verify, cookie_name } }))
              }
            />
          )}
          <div className="button-row">
            <button type="button" className="button" disabled={!canTest || login.isPending} onClick={test}>
              {outcome?.tone === 'error' ? t('wizard.login.retest') : t('wizard.login.test')}
            </button>
          </div>
          {login.isPending && <LoadProgress label={t('wizard.login.testing')} />}
          {outcome && <FormMessage tone={outcome.tone} message={outcome.message} />}
        </>
      )}
      <StepButtons
        onBack={onBack}
        onNext={() =>
          next(
            draft.loginEnabled && draft.loginActions.some((action) => actionProblem(action) !== undefined),
            onNext,
          )
        }
        nextDisabled={login.isPending}
      />
    </div>
  );
}
