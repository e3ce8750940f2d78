import type { TargetRow } from '../api/targets.ts';

/** The columns the wide table sorts by; the narrow list offers `no` (registration) and `updated`. */
export type SortKey = 'no' | 'label' | 'url' | 'updated' | 'checked';
export type TargetSort = { key: SortKey; descending: boolean };

/** The two orders (docs/product.md#target-list): by registration, and by update (newest first). */
export const REGISTRATION_ORDER: TargetSort = { key: 'no', descending: false };
export const UPDATE_ORDER: TargetSort = { key: 'updated', descending: true };

export type TargetFilter = { search: string; showPaused: boolean };

/** The rows the list shows: paused ones only when asked for, matching the search in label or URL. */
export function visibleTargets(
  sites: readonly TargetRow[],
  filter: TargetFilter,
  sort: TargetSort,
): TargetRow[] {
  const words = filter.search.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const shown = sites.filter((site) => {
    if (!filter.showPaused && !site.valid) return false;
    const haystack = `${site.label}\n${site.url}`.toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  return shown.sort((left, right) => compareTargets(left, right, sort));
}

function compareTargets(left: TargetRow, right: TargetRow, sort: TargetSort): number {
  const a = left[sort.key];
  const b = right[sort.key];
  // A site never updated or checked sorts after every dated one, whichever way the column runs.
  if (a === null || b === null) {
    if (a === b) return left.no - right.no;
    return a === null ? 1 : -1;
  }
  const order =
    typeof a === 'number' && typeof b === 'number'
      ? a - b
      : String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
  const directed = sort.descending ? -order : order;
  return directed === 0 ? left.no - right.no : directed;
}

/** A click on a column header: the same column flips its direction, another starts at its usual one. */
export function sortByColumn(current: TargetSort, key: SortKey): TargetSort {
  if (current.key === key) return { key, descending: !current.descending };
  // Dates read newest first; names and numbers read from the top.
  return { key, descending: key === 'updated' || key === 'checked' };
}
