import { INTERVAL_SLOTS, type IntervalSlot, slotRoom, usageTable } from '@mimamori/plans';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../api/user-info.ts';

/**
 * Usage against the plan (docs/product.md#screens). user_info's used_num already has the spill of
 * docs/product.md#quotas applied (sites over the 1-hour quota count as 10-minute ones, then 1-minute);
 * usageTable words an over-quota row as 'limit / limit (actual)'. The slot rows also say how many more
 * sites fit at that interval, spill-over included, so a plan of only 1-minute slots does not read as
 * having no room for hourly sites. While the account's monitoring is stopped (a hold) the room
 * cannot be used, which is said under the table.
 */
export function UsageSection({ info, stopped }: { info: UserInfo; stopped: boolean }) {
  const { t } = useTranslation();
  const rows = usageTable(info.num, info.used_num);
  const room = slotRoom(info.num, info.used_num);
  const isSlot = (key: string): key is IntervalSlot => (INTERVAL_SLOTS as readonly string[]).includes(key);
  // "0 / 0" beside "Room 5" read as a contradiction: a row the plan has none of says so, and the
  // slot rows say where such sites go.
  const empty = (row: (typeof rows)[number]) => row.limit === 0 && row.used === 0;
  const spills = rows.some((row) => isSlot(row.key) && empty(row));
  return (
    <section className="dashboard-section usage" aria-labelledby="usage-title">
      <h2 id="usage-title" className="section-title">
        {t('dashboard.usage.title')}
      </h2>
      <table className="usage-table">
        <caption className="usage-caption">{t('dashboard.usage.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('dashboard.usage.item')}</th>
            <th scope="col" className="usage-figure">
              {t('dashboard.usage.used')}
            </th>
            <th scope="col" className="usage-figure">
              {t('dashboard.usage.room')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.key}
              className={row.over ? 'usage-over' : undefined}
              data-testid={`usage-${row.key}`}
            >
              <th scope="row">{t(`dashboard.usage.rows.${row.key}`)}</th>
              <td className="usage-figure">
                {row.over && <span className="badge usage-over-badge">{t('dashboard.usage.over')}</span>}
                <span className="usage-text">
                  {empty(row)
                    ? t(isSlot(row.key) ? 'dashboard.usage.noSlots' : 'dashboard.usage.notInPlan')
                    : row.text}
                </span>
              </td>
              <td className="usage-figure">{isSlot(row.key) ? room[row.key] : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {spills && (
        <p className="field-hint" data-testid="usage-spill">
          {t('dashboard.usage.spill')}
        </p>
      )}
      {/* The room is the plan's; while monitoring is stopped none of it can be used. */}
      {stopped && (
        <p className="field-hint stopped-hint" data-testid="usage-stopped">
          {t('dashboard.usage.stopped')}
        </p>
      )}
    </section>
  );
}
