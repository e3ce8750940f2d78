import { AUDIT_KINDS, type AuditKind } from '@mimamori/http-api';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { AuditEntry, AuditQuery } from '../api/audit.ts';
import { auditCsvUrl } from '../api/audit.ts';
import { dayStart, deviceName } from '../audit-log/audit-time.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useAuditPage } from '../hooks/use-audit.ts';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { useTargetList } from '../hooks/use-targets.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import '../audit-log/audit-log.css';

type Filter = { person: string; kind: string; subject: string; from: string; until: string };
const FILTER_KEYS = ['person', 'kind', 'subject', 'from', 'until'] as const;

/**
 * The workspace's audit log (docs/product.md#audit-log): filters kept in the address, so a
 * filtered view can be reloaded or shared; a table on wide screens, cards on narrow ones.
 */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'ja';
  const errorText = useErrorText();
  const narrow = useNarrowWindow();
  const timeZone = useUserInfo().data?.locale.Timezone ?? '';
  const [params, setParams] = useSearchParams();
  const filter = Object.fromEntries(FILTER_KEYS.map((key) => [key, params.get(key) ?? ''])) as Filter;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const badRange = Boolean(filter.from && filter.until && filter.from > filter.until);
  const query: Omit<AuditQuery, 'page'> = {
    ...(filter.person ? { person: filter.person } : {}),
    ...((AUDIT_KINDS as readonly string[]).includes(filter.kind) ? { kind: filter.kind as AuditKind } : {}),
    ...(filter.subject ? { subject: filter.subject } : {}),
    ...(filter.from ? { from: dayStart(filter.from, timeZone) } : {}),
    // The end day is included: entries before the next day's start.
    ...(filter.until ? { until: dayStart(filter.until, timeZone, 1) } : {}),
  };
  const log = useAuditPage({ ...query, page });
  const sites = useTargetList();

  const change = (key: keyof Filter | 'page', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    // A new filter starts again at the newest entries.
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: key !== 'page' });
  };
  const filtered = FILTER_KEYS.some((key) => filter[key]);
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;

  return (
    <Page title="auditLog">
      <div className="audit-log">
        <p className="lead">{t('auditLog.lead')}</p>
        <form
          className="audit-filters"
          aria-label={t('auditLog.filters')}
          onSubmit={(event) => event.preventDefault()}
        >
          <FilterSelect
            label={t('auditLog.person')}
            value={filter.person}
            onChange={(value) => change('person', value)}
            options={[
              { value: '', label: t('auditLog.everyone') },
              ...(data?.people ?? []).map((person) => ({ value: person.person_id, label: person.label })),
            ]}
          />
          <FilterSelect
            label={t('auditLog.kind')}
            value={filter.kind}
            onChange={(value) => change('kind', value)}
            options={[
              { value: '', label: t('auditLog.allKinds') },
              ...AUDIT_KINDS.map((kind) => ({ value: kind, label: t(`auditLog.kinds.${kind}`) })),
            ]}
          />
          <FilterSelect
            label={t('auditLog.site')}
            value={filter.subject}
            onChange={(value) => change('subject', value)}
            options={[
              { value: '', label: t('auditLog.allSites') },
              ...(sites.data?.targets ?? []).map((site) => ({
                value: site.id,
                label: site.label || site.url,
              })),
            ]}
          />
          <DateField
            label={t('auditLog.from')}
            value={filter.from}
            onChange={(value) => change('from', value)}
          />
          <DateField
            label={t('auditLog.until')}
            value={filter.until}
            onChange={(value) => change('until', value)}
          />
          <div className="audit-filter-actions">
            {filtered && (
              <button type="button" className="button" onClick={() => setParams(new URLSearchParams())}>
                {t('auditLog.clear')}
              </button>
            )}
            <a className="button primary audit-csv" href={auditCsvUrl(query, lang)} download>
              {t('auditLog.csv')}
            </a>
          </div>
        </form>
        {badRange && <FormMessage tone="error" message={t('auditLog.badRange')} />}
        <p className="muted audit-note">
          {t('auditLog.csvNote')}
          {data ? ` ${t('auditLog.retention', { days: data.retention_days })}` : ''}
        </p>
        {log.isPending && <LoadingIndicator />}
        {log.isError && <FormMessage tone="error" message={errorText(log.error)} />}
        {data && (
          <>
            <p className="audit-count" aria-live="polite">
              {data.total === 0
                ? t(filtered ? 'auditLog.none' : 'auditLog.noneYet')
                : t('auditLog.count', {
                    total: data.total.toLocaleString(lang),
                    first: ((data.page - 1) * data.page_size + 1).toLocaleString(lang),
                    last: Math.min(data.page * data.page_size, data.total).toLocaleString(lang),
                  })}
            </p>
            {data.entries.length > 0 &&
              (narrow ? (
                <ul className="audit-cards">
                  {data.entries.map((entry) => (
                    <li key={entry.id} className="audit-card" data-testid="audit-entry">
                      <EntryCard entry={entry} lang={lang} timeZone={timeZone} />
                    </li>
                  ))}
                </ul>
              ) : (
                // Scrolls sideways only when a long address or detail needs it; reachable by keyboard then.
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable)
                <section className="audit-table-wrap" aria-label={t('pages.auditLog')} tabIndex={0}>
                  <table className="audit-table">
                    <thead>
                      <tr>
                        <th scope="col">{t('auditLog.columns.at')}</th>
                        <th scope="col">{t('auditLog.columns.actor')}</th>
                        <th scope="col">{t('auditLog.columns.action')}</th>
                        <th scope="col">{t('auditLog.columns.subject')}</th>
                        <th scope="col">{t('auditLog.columns.from')}</th>
                        <th scope="col">{t('auditLog.columns.details')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.entries.map((entry) => (
                        <tr key={entry.id} data-testid="audit-entry">
                          <td className="audit-at">{formatDateTime(entry.at, lang, timeZone)}</td>
                          <td className="audit-actor-cell">
                            <Actor entry={entry} />
                          </td>
                          <td className="audit-action">{actionText(t, entry.action)}</td>
                          <td className="audit-subject">{entry.subject.label || entry.subject.id}</td>
                          <td className="audit-origin-cell">
                            <Origin entry={entry} />
                          </td>
                          <td className="audit-details-cell">
                            <Details entry={entry} timeZone={timeZone} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              ))}
            {pages > 1 && (
              <nav className="audit-paging" aria-label={t('auditLog.paging')}>
                <button
                  type="button"
                  className="button"
                  disabled={page <= 1}
                  onClick={() => change('page', String(page - 1))}
                >
                  {t('auditLog.previous')}
                </button>
                <span>{t('auditLog.pageOf', { page, pages })}</span>
                <button
                  type="button"
                  className="button"
                  disabled={page >= pages}
                  onClick={() => change('page', String(page + 1))}
                >
                  {t('auditLog.next')}
                </button>
              </nav>
            )}
          </>
        )}
      </div>
    </Page>
  );
}

type Translate = ReturnType<typeof useTranslation>['t'];

function actionText(t: Translate, action: string): string {
  const key = `auditLog.actions.${action}`;
  // An action newer than this screen shows its name rather than nothing.
  return (t as (key: string, options: object) => string)(key, { defaultValue: action });
}

function FilterSelect(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="audit-field">
      <label htmlFor={id} className="field-label">
        {props.label}
      </label>
      <select
        id={id}
        className="input"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function DateField(props: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="audit-field audit-date">
      <label htmlFor={id} className="field-label">
        {props.label}
      </label>
      <input
        id={id}
        className="input"
        type="date"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

function Actor({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const label = entry.actor.label || t('auditLog.unknownActor');
  return (
    <span className="audit-actor">
      <span className="audit-actor-label">{label}</span>
      {entry.actor.token && (
        <span className="audit-token">{t('auditLog.viaToken', { name: entry.actor.token })}</span>
      )}
    </span>
  );
}

function Origin({ entry, card = false }: { entry: AuditEntry; card?: boolean }) {
  const { t } = useTranslation();
  if (!entry.ip && !entry.user_agent) return card ? null : <span className="muted">—</span>;
  return (
    <span className="audit-origin">
      <span className="audit-ip">{entry.ip}</span>
      <span className="audit-device muted" title={entry.user_agent}>
        {deviceName(entry.user_agent) || t('auditLog.unknownDevice')}
      </span>
    </span>
  );
}

function Details({ entry, timeZone, card = false }: { entry: AuditEntry; timeZone: string; card?: boolean }) {
  const { t, i18n } = useTranslation();
  const items = Object.entries(entry.details).filter(([, value]) => value !== '');
  if (items.length === 0) return card ? null : <span className="muted">—</span>;
  const translate = t as (key: string, options: object) => string;
  // Values the screen can say in words: a time, a kind, a provider's notice; the rest as recorded.
  const shown = (key: string, value: string) => {
    if (key === 'expires_at' && !Number.isNaN(Date.parse(value)))
      return formatDateTime(value, i18n.language, timeZone);
    if (key === 'kind') return translate(`auditLog.kinds.${value}`, { defaultValue: value });
    if (key === 'method') return translate(`auditLog.methods.${value}`, { defaultValue: value });
    if (key === 'event')
      return translate(`auditLog.providerEvents.${value.replaceAll('.', '_')}`, { defaultValue: value });
    return value.replaceAll(',', ', ');
  };
  return (
    <dl className="audit-details">
      {items.map(([key, value]) => (
        <div key={key}>
          <dt>
            {(t as (key: string, options: object) => string)(`auditLog.detailKeys.${key}`, {
              defaultValue: key,
            })}
          </dt>
          <dd>{shown(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function EntryCard({ entry, lang, timeZone }: { entry: AuditEntry; lang: 'ja' | 'en'; timeZone: string }) {
  const { t } = useTranslation();
  const subject = entry.subject.label || entry.subject.id;
  return (
    <>
      <div className="audit-card-head">
        <span className="audit-action">{actionText(t, entry.action)}</span>
        <span className="audit-at muted">{formatDateTime(entry.at, lang, timeZone)}</span>
      </div>
      {subject && <p className="audit-subject">{subject}</p>}
      <Actor entry={entry} />
      <Origin entry={entry} card />
      <Details entry={entry} timeZone={timeZone} card />
    </>
  );
}
