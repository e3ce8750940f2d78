import { useSyncExternalStore } from 'react';

/** docs/product.md#screens: a window narrower than 768 px gets the mobile layouts. */
const NARROW_QUERY = '(width < 768px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isNarrow(): boolean {
  return window.matchMedia(NARROW_QUERY).matches;
}

/** True while the window is narrower than 768 px; re-renders when a resize crosses the line. */
export function useNarrowWindow(): boolean {
  return useSyncExternalStore(subscribe, isNarrow);
}
