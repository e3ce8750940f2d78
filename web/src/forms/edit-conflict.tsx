import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Catalogue } from '../i18n/catalogue.ts';

/** One field saved elsewhere: its value now, and what this screen had for it. */
export type ConflictField = { field: string; saved: unknown; yours: unknown };

/** open: just refused; reloaded: the saved version is in the form; reapplied: the person's input is back. */
export type ConflictStage = 'open' | 'reloaded' | 'reapplied';

type FieldName = keyof Catalogue['editConflict']['fields'];

/**
 * The fields a 409 edit_conflict names that really changed elsewhere: those whose value now differs
 * from the one this screen started from (the answer also names fields this screen changed itself).
 */
export function changedElsewhere(
  changed: readonly { field: string; value: unknown }[],
  started: Readonly<Record<string, unknown>>,
  yours: Readonly<Record<string, unknown>>,
  comparable: (field: string, value: unknown) => unknown = (_field, value) => value,
): ConflictField[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return changed
    .filter(({ field, value }) => !same(comparable(field, value), comparable(field, started[field])))
    .map(({ field, value }) => ({ field, saved: value, yours: yours[field] }));
}

/**
 * What another tab saved while this screen was editing (docs/product.md#edit-conflicts): each
 * field with its value now and the person's own, a button that loads the saved version, and then
 * one that puts the person's input back, so nothing typed is lost either way.
 */
export function EditConflictNotice({
  fields,
  stage,
  onReload,
  onReapply,
  busy,
}: {
  fields: readonly ConflictField[];
  stage: ConflictStage;
  onReload: () => void;
  onReapply: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const heading = useId();
  const shown = (value: unknown): string => {
    if (value === true) return t('editConflict.on');
    if (value === false) return t('editConflict.off');
    if (value === null || value === undefined || value === '') return t('editConflict.empty');
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    if (Array.isArray(value) && value.every((item) => item && typeof item === 'object' && 'label' in item))
      return value.map((item: { label: unknown }) => String(item.label)).join('、');
    return t('editConflict.changed');
  };
  const fieldName = (field: string) =>
    field in (t('editConflict.fields', { returnObjects: true }) as object)
      ? t(`editConflict.fields.${field as FieldName}`)
      : field;
  return (
    <section
      className="edit-conflict"
      role="alert"
      aria-labelledby={heading}
      tabIndex={-1}
      data-form-message=""
    >
      <h3 id={heading}>{t('editConflict.title')}</h3>
      <p>{t('editConflict.lead')}</p>
      {fields.length === 0 ? (
        <p>{t('editConflict.noFields')}</p>
      ) : (
        <table className="edit-conflict-fields">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('editConflict.field')}</span>
              </th>
              <th scope="col">{t('editConflict.savedNow')}</th>
              <th scope="col">{t('editConflict.yours')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map(({ field, saved, yours }) => (
              <tr key={field} data-field={field}>
                <th scope="row">{fieldName(field)}</th>
                <td data-testid="conflict-saved">{shown(saved)}</td>
                <td data-testid="conflict-yours">{shown(yours)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {stage === 'open' && (
        <div className="edit-conflict-actions">
          <button type="button" className="button primary" onClick={onReload} disabled={busy}>
            {t('editConflict.reload')}
          </button>
          <p className="field-hint">{t('editConflict.reloadHint')}</p>
        </div>
      )}
      {stage === 'reloaded' && (
        <div className="edit-conflict-actions">
          <p role="status">{t('editConflict.reloaded')}</p>
          <button type="button" className="button" onClick={onReapply}>
            {t('editConflict.reapply')}
          </button>
        </div>
      )}
      {stage === 'reapplied' && <p role="status">{t('editConflict.reapplied')}</p>}
    </section>
  );
}
