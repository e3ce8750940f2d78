import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportFormat } from '../api/targets.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useImportTargets } from '../hooks/use-targets.ts';
import { FormDialog } from '../shell/form-dialog.tsx';

const FORMATS: readonly (ImportFormat | '')[] = ['', 'list', 'csv', 'yaml'];
const formatKey = (format: ImportFormat | '') => format || 'auto';

/**
 * Registers whole-page sites from a pasted URL list, CSV or urlwatch urls.yaml, then says how
 * many were added, how many were saved paused for want of a free slot, and which lines failed.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const importSites = useImportTargets();
  const result = useRef<HTMLDivElement>(null);
  const [text, setText] = useState('');
  const [format, setFormat] = useState<ImportFormat | ''>('');

  const submit = () => {
    importSites.mutate(
      { text, format },
      { onSettled: () => result.current?.querySelector<HTMLElement>('[data-form-message]')?.focus() },
    );
  };

  const outcome = importSites.data;
  const paused = outcome?.imported.filter((site) => !site.valid).length ?? 0;
  return (
    <FormDialog
      name="import"
      title={t('dashboard.import.title')}
      lead={t('dashboard.import.lead')}
      dismissLabel={t('actions.close')}
      submitButton={
        <button
          type="submit"
          className="button primary"
          disabled={importSites.isPending || text.trim() === ''}
        >
          {importSites.isPending ? t('actions.sending') : t('dashboard.import.submit')}
        </button>
      }
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="field">
        <label htmlFor="import-text" className="field-label">
          {t('dashboard.import.text')}
        </label>
        <textarea
          id="import-text"
          className="input import-text"
          rows={8}
          value={text}
          aria-describedby="import-text-hint"
          onChange={(event) => setText(event.target.value)}
        />
        <p id="import-text-hint" className="field-hint">
          {t('dashboard.import.hint')}
        </p>
      </div>
      <div className="field">
        <label htmlFor="import-format" className="field-label">
          {t('dashboard.import.format')}
        </label>
        <select
          id="import-format"
          className="input"
          value={format}
          onChange={(event) => setFormat(FORMATS.find((choice) => choice === event.target.value) ?? '')}
        >
          {FORMATS.map((choice) => (
            <option key={formatKey(choice)} value={choice}>
              {t(`dashboard.import.formats.${formatKey(choice)}`)}
            </option>
          ))}
        </select>
      </div>
      <div ref={result} className="import-result">
        {importSites.isError && <FormMessage tone="error" message={errorText(importSites.error)} />}
        {outcome && (
          <>
            <FormMessage
              tone={outcome.imported.length > 0 ? 'success' : 'error'}
              message={t('dashboard.import.done', { count: outcome.imported.length })}
            />
            {paused > 0 && <p className="field-hint">{t('dashboard.import.paused', { count: paused })}</p>}
            {outcome.problems.length > 0 && (
              <ul className="import-problems" aria-label={t('dashboard.import.problemsLabel')}>
                {outcome.problems.map((problem) => (
                  <li key={`${problem.line}-${problem.code}`}>
                    {t('dashboard.import.problemLine', {
                      line: problem.line,
                      reason: t(`dashboard.import.problems.${problem.code}`),
                    })}
                    {problem.text && <span className="import-problem-text">{problem.text}</span>}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </FormDialog>
  );
}
