import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { callProblemMessage } from './preview-problem.ts';

export type TrialOutcome = { tone: 'success' | 'error'; message: string };

/**
 * What the login and actions steps share: an action list tried on the live page, whose outcome
 * is shown under it, and whose problems are marked (and focused) only once Next was pressed.
 */
export function useActionTrial(onPreviewExpired: () => void) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [outcome, setOutcome] = useState<TrialOutcome>();
  const [checked, setChecked] = useState(false);
  const { container, focusResult } = useFocusAfterSubmit<HTMLDivElement>();

  // Actions the target service would refuse are marked here rather than at Register.
  const next = (hasProblem: boolean, onNext: () => void) => {
    setChecked(true);
    if (hasProblem) focusResult();
    else onNext();
  };

  /** A trial call that failed: an expired preview sends the user back to open the page again. */
  const failed = (error: unknown) => {
    const message = callProblemMessage(error);
    if (message === 'previewExpired') onPreviewExpired();
    setOutcome({ tone: 'error', message: message ? t(`wizard.problems.${message}`) : errorText(error) });
  };

  return { container, checked, next, outcome, setOutcome, failed };
}
