import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useRequestProjectPlan } from '../hooks/use-billing.ts';

/** The Project plan (docs/product.md#plans: 1,000 sites or more, yearly) is arranged by quote. */
export const PROJECT_MIN_SITES = 1000;

export function ProjectRequestForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const request = useRequestProjectPlan();
  const [sites, setSites] = useState(String(PROJECT_MIN_SITES));
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const count = Number(sites);
    if (!Number.isInteger(count) || count < PROJECT_MIN_SITES) {
      setProblem(t('billing.project.tooFew', { count: PROJECT_MIN_SITES }));
      return;
    }
    setProblem(null);
    request.mutate({ sites: count, notes: notes.trim() });
  };

  if (request.isSuccess) return <FormMessage tone="success" message={t('billing.project.sent')} />;
  return (
    <form className="form" noValidate onSubmit={submit} data-testid="project-request">
      <p className="field-hint">{t('billing.project.lead')}</p>
      {request.isError && <FormMessage tone="error" message={errorText(request.error)} />}
      <div className="field">
        <label className="field-label" htmlFor="project-sites">
          {t('billing.project.sites')}
        </label>
        <input
          id="project-sites"
          className="input narrow-input"
          type="number"
          min={PROJECT_MIN_SITES}
          inputMode="numeric"
          value={sites}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'project-sites-error' : undefined}
          onChange={(event) => setSites(event.target.value)}
        />
        {problem && (
          <p id="project-sites-error" className="field-error">
            {problem}
          </p>
        )}
      </div>
      <div className="field">
        <label className="field-label" htmlFor="project-notes">
          {t('billing.project.notes')}
        </label>
        <textarea
          id="project-notes"
          className="input"
          rows={3}
          maxLength={2000}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      <p className="button-row">
        <button type="submit" className="button" disabled={request.isPending}>
          {request.isPending ? t('actions.sending') : t('billing.project.send')}
        </button>
      </p>
    </form>
  );
}
