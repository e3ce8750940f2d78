import { useTranslation } from 'react-i18next';

/** Back and Next with the same accessible names on every step, so tests and tours can rely on them. */
export function StepButtons({
  onBack,
  onNext,
  nextLabel,
  nextDisabled,
  submit,
}: {
  onBack?: (() => void) | undefined;
  onNext?: () => void;
  nextLabel?: string | undefined;
  nextDisabled?: boolean | undefined;
  /** The Next button submits the step's form instead of calling onNext. */
  submit?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="step-buttons">
      {onBack && (
        <button type="button" className="button" onClick={onBack}>
          {t('wizard.back')}
        </button>
      )}
      <button
        type={submit ? 'submit' : 'button'}
        className="button primary"
        disabled={nextDisabled}
        onClick={submit ? undefined : onNext}
      >
        {nextLabel ?? t('wizard.next')}
      </button>
    </div>
  );
}
