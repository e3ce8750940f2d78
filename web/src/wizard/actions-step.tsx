import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useRunActions } from '../hooks/use-preview.ts';
import { ActionListEditor } from './action-list-editor.tsx';
import { LoadProgress } from './load-progress.tsx';
import { problemMessage } from './preview-problem.ts';
import { StepButtons } from './step-buttons.tsx';
import { useActionTrial } from './use-action-trial.ts';
import { actionFromDraft, actionProblem } from './wizard-draft.ts';
import type { StepProps } from './wizard-step.ts';

/** Step 4 (optional): actions run before each check, tried on the live page. */
export function ActionsStep({
  draft,
  change,
  preview,
  setRender,
  onBack,
  onNext,
  onPreviewExpired,
}: StepProps) {
  const { t } = useTranslation();
  const run = useRunActions();
  const { container, checked, next, outcome, setOutcome, failed } = useActionTrial(onPreviewExpired);

  const tryActions = () => {
    if (!preview) return;
    setOutcome(undefined);
    run.mutate(
      { sessionId: preview.sessionId, actions: draft.actions.map(actionFromDraft) },
      {
        onSuccess: (result) => {
          if (result.render) setRender(result.render);
          setOutcome(
            result.ok
              ? { tone: 'success', message: t('wizard.actions.succeeded') }
              : {
                  tone: 'error',
                  message: t(
                    `wizard.problems.${result.problem ? problemMessage(result.problem) : 'elementNotFound'}`,
                  ),
                },
          );
        },
        onError: failed,
      },
    );
  };

  return (
    <div ref={container} className="form wizard-form" data-tour="before-areas">
      <p className="lead">{t('wizard.actions.lead')}</p>
      <ActionListEditor
        idPrefix="wizard-action"
        actions={draft.actions}
        disabled={run.isPending}
        showProblems={checked}
        onChange={(actions) => change((current) => ({ ...current, actions }))}
      />
      {draft.actions.length > 0 && (
        <div className="button-row">
          <button type="button" className="button" disabled={!preview || run.isPending} onClick={tryActions}>
            {t('wizard.actions.run')}
          </button>
        </div>
      )}
      {run.isPending && <LoadProgress label={t('wizard.actions.running')} />}
      {outcome && <FormMessage tone={outcome.tone} message={outcome.message} />}
      <StepButtons
        onBack={onBack}
        onNext={() =>
          next(
            draft.actions.some((action) => actionProblem(action) !== undefined),
            onNext,
          )
        }
        nextDisabled={run.isPending}
      />
    </div>
  );
}
