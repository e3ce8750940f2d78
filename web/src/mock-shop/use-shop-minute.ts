import { useEffect, useState } from 'react';
import { minuteOf, nextMinuteStart, REAL_MINUTE_MS } from './shop-prices.ts';

/** The product's minute as the gateway wrote it into the page (`<meta name="mimamori-minute-ms">`). */
function productMinuteMs(): number {
  const written = Number(document.querySelector('meta[name="mimamori-minute-ms"]')?.getAttribute('content'));
  return Number.isInteger(written) && written > 0 ? written : REAL_MINUTE_MS;
}

/**
 * The current minute and when it began, moving on at each minute's start so the visitor watches
 * prices change.
 */
export function useShopMinute(): { minute: number; startedAt: Date } {
  const [minuteMs] = useState(productMinuteMs);
  const [minute, setMinute] = useState(() => minuteOf(Date.now(), minuteMs));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const waitForNextMinute = () => {
      // A little past the boundary, so the new minute has surely begun.
      timer = setTimeout(
        () => {
          setMinute(minuteOf(Date.now(), minuteMs));
          waitForNextMinute();
        },
        nextMinuteStart(Date.now(), minuteMs) - Date.now() + 50,
      );
    };
    waitForNextMinute();
    return () => clearTimeout(timer);
  }, [minuteMs]);
  return { minute, startedAt: new Date(minute * minuteMs) };
}
