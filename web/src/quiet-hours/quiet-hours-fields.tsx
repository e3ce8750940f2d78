import { useTranslation } from 'react-i18next';
import type { QuietHoursJson } from '../api/quiet-hours.ts';

/** Monday first, as a Japanese calendar week reads; the values stay 0 Sunday … 6 Saturday. */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

/**
 * The fields of quiet hours (docs/product.md#quiet-hours), for the account and for one site: a
 * daily window, weekdays quiet all day, Japanese public holidays, and whether alerts break through.
 */
export function QuietHoursFields({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: QuietHoursJson;
  onChange: (value: QuietHoursJson) => void;
}) {
  const { t } = useTranslation();
  const change = (part: Partial<QuietHoursJson>) => onChange({ ...value, ...part });
  return (
    <div className="quiet-hours-fields">
      <fieldset>
        <legend className="field-label">{t('quietHours.window')}</legend>
        <p className="field-hint" id={`${idPrefix}-window-hint`}>
          {t('quietHours.windowHint')}
        </p>
        <div className="button-row">
          <div className="field">
            <label htmlFor={`${idPrefix}-from`} className="field-label">
              {t('quietHours.from')}
            </label>
            <input
              id={`${idPrefix}-from`}
              className="input"
              type="time"
              value={value.from}
              aria-describedby={`${idPrefix}-window-hint`}
              onChange={(event) => change({ from: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${idPrefix}-until`} className="field-label">
              {t('quietHours.until')}
            </label>
            <input
              id={`${idPrefix}-until`}
              className="input"
              type="time"
              value={value.until}
              aria-describedby={`${idPrefix}-window-hint`}
              onChange={(event) => change({ until: event.target.value })}
            />
          </div>
        </div>
        <button type="button" className="button" onClick={() => change({ from: '', until: '' })}>
          {t('quietHours.clearWindow')}
        </button>
      </fieldset>
      <fieldset>
        <legend className="field-label">{t('quietHours.allDay')}</legend>
        <div className="option-grid">
          {WEEK.map((day) => (
            <label key={day} className="checkbox">
              <input
                type="checkbox"
                checked={value.all_day.includes(day)}
                onChange={(event) =>
                  change({
                    all_day: event.target.checked
                      ? [...value.all_day, day]
                      : value.all_day.filter((other) => other !== day),
                  })
                }
              />
              {t(`quietHours.weekdays.d${day}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={value.holidays}
          onChange={(event) => change({ holidays: event.target.checked })}
        />
        {t('quietHours.holidays')}
      </label>
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={value.alerts_break_through}
            aria-describedby={`${idPrefix}-alerts-hint`}
            onChange={(event) => change({ alerts_break_through: event.target.checked })}
          />
          {t('quietHours.alertsBreakThrough')}
        </label>
        <p className="field-hint" id={`${idPrefix}-alerts-hint`}>
          {t('quietHours.alertsHint')}
        </p>
      </div>
    </div>
  );
}
