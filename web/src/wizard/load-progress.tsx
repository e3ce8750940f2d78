import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** docs/product.md#checks: about 30 s of loading, then about 30 s of optimised loading. */
const LOAD_SECONDS = 30;
const EXPECTED_SECONDS = 60;

/** Progress of a page load in the crawler's browser, with what is happening as time passes. */
export function LoadProgress({ label, attempt }: { label: string; attempt?: string | undefined }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = window.setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const phase = seconds < LOAD_SECONDS ? 'loading' : seconds < EXPECTED_SECONDS ? 'optimising' : 'retrying';
  return (
    <div className="load-progress">
      <progress
        className="load-progress-bar"
        max={EXPECTED_SECONDS}
        value={Math.min(seconds, EXPECTED_SECONDS)}
        aria-label={label}
      />
      {/* The phase is announced when it changes; the ticking seconds are not. */}
      <p className="load-progress-text" role="status">
        {attempt ? `${attempt} ${t(`wizard.progress.${phase}`)}` : t(`wizard.progress.${phase}`)}
      </p>
      <p className="load-progress-seconds muted" aria-hidden="true">
        {t('wizard.progress.elapsed', { seconds })}
      </p>
    </div>
  );
}
