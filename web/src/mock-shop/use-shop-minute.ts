import { useEffect, useState } from 'react';
import { minuteOf, nextMinuteStart } from './shop-prices.ts';

/** The current minute, moving on at each minute's start so the visitor watches prices change. */
export function useShopMinute(): number {
  const [minute, setMinute] = useState(() => minuteOf(Date.now()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const waitForNextMinute = () => {
      // A little past the boundary, so the new minute has surely begun.
      timer = setTimeout(
        () => {
          setMinute(minuteOf(Date.now()));
          waitForNextMinute();
        },
        nextMinuteStart(Date.now()) - Date.now() + 50,
      );
    };
    waitForNextMinute();
    return () => clearTimeout(timer);
  }, []);
  return minute;
}
