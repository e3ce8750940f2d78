import { useTranslation } from 'react-i18next';
import { type CustomAddOns, type CustomInterval, customSites } from './custom-options.ts';
import './billing.css';

const INTERVALS: CustomInterval[] = ['60min', '10min', '1min'];

/** The custom plan's add-ons (docs/product.md#plans): more sites in 5s, a faster interval, extras. */
export function CustomPlanFields({
  value,
  onChange,
}: {
  value: CustomAddOns;
  onChange: (value: CustomAddOns) => void;
}) {
  const { t } = useTranslation();
  const count = (text: string) => Math.max(0, Math.min(999, Math.trunc(Number(text)) || 0));
  return (
    <fieldset className="panel custom-plan" data-testid="custom-plan">
      <legend className="field-label">{t('billing.custom.title')}</legend>
      <p className="field-hint">{t('billing.custom.base')}</p>
      <div className="field">
        <label className="field-label" htmlFor="custom-sites">
          {t('billing.custom.extraSites')}
        </label>
        <input
          id="custom-sites"
          className="input narrow-input"
          type="number"
          min={0}
          max={999}
          inputMode="numeric"
          value={value.extraSiteUnits}
          aria-describedby="custom-sites-hint"
          onChange={(event) => onChange({ ...value, extraSiteUnits: count(event.target.value) })}
        />
        <p id="custom-sites-hint" className="field-hint">
          {t('billing.custom.sitesTotal', { count: customSites(value) })}
        </p>
      </div>
      <fieldset className="choice-list">
        <legend className="field-label">{t('billing.custom.interval')}</legend>
        {INTERVALS.map((interval) => (
          <label key={interval} className="checkbox">
            <input
              type="radio"
              name="custom-interval"
              value={interval}
              checked={value.interval === interval}
              onChange={() => onChange({ ...value, interval })}
            />
            {t(`billing.custom.intervals.${interval}`)}
          </label>
        ))}
      </fieldset>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={value.screenshots}
          onChange={(event) => onChange({ ...value, screenshots: event.target.checked })}
        />
        {t('billing.custom.screenshots')}
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={value.chat}
          onChange={(event) => onChange({ ...value, chat: event.target.checked })}
        />
        {t('billing.custom.chat')}
      </label>
      <div className="field">
        <label className="field-label" htmlFor="custom-mails">
          {t('billing.custom.mails')}
        </label>
        <input
          id="custom-mails"
          className="input narrow-input"
          type="number"
          min={0}
          max={999}
          inputMode="numeric"
          value={value.mails}
          onChange={(event) => onChange({ ...value, mails: count(event.target.value) })}
        />
      </div>
    </fieldset>
  );
}
