import { RULE_OPERATORS } from '@mimamori/watch-engine/notification-rules';
import { useTranslation } from 'react-i18next';
import type { CheckError, HistoryEntry, MatchedCondition, TargetUpdate } from '../api/history.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { AreaDiff } from './area-diff.tsx';
import type { DiffLayout } from './history-view.ts';
import { UpdateScreenshots } from './update-screenshots.tsx';

/** One check: when, what came of it, and for an update its diff, matched rules and pictures. */
export function HistoryEntryItem({
  entry,
  timeZone,
  layout,
}: {
  entry: HistoryEntry;
  timeZone: string;
  layout: DiffLayout;
}) {
  const { t, i18n } = useTranslation();
  const at = entry.checked_at ?? entry.due_at;
  const time = at ? formatDateTime(at, i18n.language, timeZone) : '';
  const headingId = `check-${entry.check_id}`;
  return (
    <li
      className={`history-entry outcome-${entry.outcome}`}
      aria-labelledby={headingId}
      data-testid="history-entry"
    >
      <h3 id={headingId} className="entry-heading">
        <span className={`badge outcome-badge outcome-badge-${entry.outcome}`}>
          {t(`siteDetail.outcome_${entry.outcome}`)}
        </span>
        {at ? <time dateTime={at}>{time}</time> : null}
      </h3>
      {entry.error && <CheckErrorMessage error={entry.error} />}
      {entry.update && <UpdateDetail update={entry.update} time={time} layout={layout} />}
    </li>
  );
}

function CheckErrorMessage({ error }: { error: CheckError }) {
  const { t, i18n } = useTranslation();
  // The gateway names a known code's key; the catalogue may still lack a newer one.
  const key = i18n.exists(error.message_key) ? error.message_key : 'errors.check_failed';
  const status = error.http_status ?? (error.detail || error.code);
  return (
    <div className="entry-error">
      <p className="entry-error-message">{String(t(key as 'errors.http_status', { status }))}</p>
      {error.detail && (
        <p className="muted entry-error-detail">{t('siteDetail.errorDetail', { detail: error.detail })}</p>
      )}
    </div>
  );
}

function UpdateDetail({ update, time, layout }: { update: TargetUpdate; time: string; layout: DiffLayout }) {
  const { t, i18n } = useTranslation();
  const labels = new Map(update.areas.map((area) => [area.area_id, area.label]));
  return (
    <div className="update-detail">
      <p className="update-summary" data-testid="update-summary">
        {i18n.language === 'en' ? update.summary.en : update.summary.ja}
      </p>
      <p className="muted">{update.notify ? t('siteDetail.notified') : t('siteDetail.notNotified')}</p>
      {update.matched.length > 0 && (
        <div className="matched">
          <h4 className="subsection-title">{t('siteDetail.matched')}</h4>
          <ul>
            {update.matched.map((condition) => (
              <li key={`${condition.group_index}-${condition.condition_index}`}>
                <MatchedText
                  condition={condition}
                  area={labels.get(condition.area_id) ?? condition.area_id}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
      {update.areas.map((area) => (
        <AreaDiff key={area.area_id} area={area} layout={layout} />
      ))}
      <UpdateScreenshots screenshots={update.screenshots} time={time} />
    </div>
  );
}

/** An operator the gateway sends that this SPA does not know yet is shown as it came. */
const OPERATORS: ReadonlySet<string> = new Set(RULE_OPERATORS);

function MatchedText({ condition, area }: { condition: MatchedCondition; area: string }) {
  const { t } = useTranslation();
  const operator = OPERATORS.has(condition.operator)
    ? t(`siteDetail.operator_${condition.operator as 'keyword'}`, { value: condition.value })
    : `${condition.operator} ${condition.value}`;
  return (
    <>
      {t('siteDetail.matchedCondition', {
        group: condition.group_index + 1,
        condition: condition.condition_index + 1,
        area,
        operand: t(`siteDetail.operand_${condition.operand}`),
        operator,
      })}
    </>
  );
}
