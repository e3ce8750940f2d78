import { useEffect, useState } from 'react';
import { nextTurnStart, REAL_MINUTE_MS, turnMs, turnOf } from './shop-prices.ts';

/** The product's minute as the gateway wrote it into the page (`<meta name="mimamori-minute-ms">`). */
function productMinuteMs(): number {
  const written = Number(document.querySelector('meta[name="mimamori-minute-ms"]')?.getAttribute('content'));
  return Number.isInteger(written) && written > 0 ? written : REAL_MINUTE_MS;
}

/**
 * The current turn and when it began, moving on at each turn's start so the visitor watches
 * prices change.
 */
export function useShopTurn(): { turn: number; startedAt: Date } {
  const [minuteMs] = useState(productMinuteMs);
  const [turn, setTurn] = useState(() => turnOf(Date.now(), minuteMs));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const waitForNextTurn = () => {
      // A little past the boundary, so the new turn has surely begun.
      timer = setTimeout(
        () => {
          setTurn(turnOf(Date.now(), minuteMs));
          waitForNextTurn();
        },
        nextTurnStart(Date.now(), minuteMs) - Date.now() + 50,
      );
    };
    waitForNextTurn();
    return () => clearTimeout(timer);
  }, [minuteMs]);
  return { turn, startedAt: new Date(turn * turnMs(minuteMs)) };
}
