import { useTranslation } from 'react-i18next';
import type { QuietHoursJson } from '../api/quiet-hours.ts';
import { QuietHoursFields } from '../quiet-hours/quiet-hours-fields.tsx';
import type { SiteQuietMode } from './wizard-draft.ts';

const MODES: SiteQuietMode[] = ['account', 'none', 'own'];

/**
 * A site's quiet hours (docs/product.md#quiet-hours): the account's, none for this site, or its
 * own, shown only when chosen.
 */
export function SiteQuietHoursField({
  mode,
  hours,
  onMode,
  onHours,
}: {
  mode: SiteQuietMode;
  hours: QuietHoursJson;
  onMode: (mode: SiteQuietMode) => void;
  onHours: (hours: QuietHoursJson) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor="wizard-quiet-mode" className="field-label">
        {t('quietHours.site')}
      </label>
      <select
        id="wizard-quiet-mode"
        className="input"
        value={mode}
        aria-describedby="wizard-quiet-mode-hint"
        onChange={(event) => onMode(event.target.value as SiteQuietMode)}
      >
        {MODES.map((choice) => (
          <option key={choice} value={choice}>
            {t(`quietHours.modes.${choice}`)}
          </option>
        ))}
      </select>
      <p className="field-hint" id="wizard-quiet-mode-hint">
        {t('quietHours.siteHint')}
      </p>
      {mode === 'own' && <QuietHoursFields idPrefix="wizard-quiet" value={hours} onChange={onHours} />}
    </div>
  );
}
