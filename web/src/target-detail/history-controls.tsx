import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryFilter } from '../api/history.ts';
import { type DiffLayout, type HistoryView, type HistoryViewChange, PAGE_SIZES } from './history-view.ts';
import { dayIn } from './time-format.ts';

const FILTERS: { value: HistoryFilter; label: 'filterAll' | 'filterUpdate' | 'filterError' }[] = [
  { value: 'all', label: 'filterAll' },
  { value: 'update', label: 'filterUpdate' },
  { value: 'error', label: 'filterError' },
];

/** Filter (all / update / error), all days or one day, page size, and the diff layout. */
export function HistoryControls({
  view,
  timeZone,
  layout,
  onLayout,
  onChange,
}: {
  view: HistoryView;
  timeZone: string;
  layout: DiffLayout;
  onLayout: (layout: DiffLayout) => void;
  onChange: (change: HistoryViewChange) => void;
}) {
  const { t } = useTranslation();
  // The day the picker holds while all days are shown, so choosing 'one day' returns to it.
  const [picked, setPicked] = useState(() => view.day ?? dayIn(timeZone, new Date()));
  const pickDay = (day: string) => {
    setPicked(day);
    onChange({ type: 'day', day });
  };
  return (
    <div className="history-controls">
      <fieldset className="choice-group">
        <legend>{t('siteDetail.filter')}</legend>
        {FILTERS.map(({ value, label }) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="history-filter"
              value={value}
              checked={view.filter === value}
              onChange={() => onChange({ type: 'filter', filter: value })}
            />
            {t(`siteDetail.${label}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="choice-group">
        <legend>{t('siteDetail.period')}</legend>
        <label className="choice">
          <input
            type="radio"
            name="history-period"
            checked={view.day === null}
            onChange={() => onChange({ type: 'day', day: null })}
          />
          {t('siteDetail.allDays')}
        </label>
        <label className="choice">
          <input
            type="radio"
            name="history-period"
            checked={view.day !== null}
            onChange={() => pickDay(picked)}
          />
          {t('siteDetail.oneDay')}
        </label>
        <label className="choice day-field">
          <span className="visually-hidden">{t('siteDetail.day')}</span>
          <input
            type="date"
            className="input"
            value={picked}
            required
            onChange={(event) => event.target.value && pickDay(event.target.value)}
          />
        </label>
      </fieldset>
      <div className="history-options">
        <label className="choice">
          {t('siteDetail.pageSize')}
          <select
            className="input"
            value={view.size}
            onChange={(event) => onChange({ type: 'size', size: Number(event.target.value) })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="choice-group">
          <legend>{t('siteDetail.diffView')}</legend>
          {(['inline', 'side'] as const).map((value) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name="diff-layout"
                checked={layout === value}
                onChange={() => onLayout(value)}
              />
              {value === 'inline' ? t('siteDetail.inline') : t('siteDetail.sideBySide')}
            </label>
          ))}
        </fieldset>
      </div>
    </div>
  );
}
