import { useTranslation } from 'react-i18next';
import { type StepId, stepNumber } from './wizard-draft.ts';

/** Where the user is in the flow; steps they may return to are buttons. */
export function StepList({
  steps,
  current,
  reachable,
  onSelect,
}: {
  steps: readonly StepId[];
  current: StepId;
  reachable: (step: StepId) => boolean;
  onSelect: (step: StepId) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="step-list" aria-label={t('wizard.stepsLabel')}>
      <ol>
        {steps.map((step) => {
          const number = stepNumber(step);
          const name =
            number === null
              ? t('wizard.optionalStep', { name: t(`wizard.steps.${step}`) })
              : `${number}. ${t(`wizard.steps.${step}`)}`;
          const isCurrent = step === current;
          return (
            <li key={step} className={isCurrent ? 'current' : undefined}>
              {!isCurrent && reachable(step) ? (
                <button type="button" className="step-link" onClick={() => onSelect(step)}>
                  {name}
                </button>
              ) : (
                <span aria-current={isCurrent ? 'step' : undefined}>{name}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
