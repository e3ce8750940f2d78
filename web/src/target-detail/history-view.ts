import type { HistoryDirection, HistoryFilter } from '../api/history.ts';

/** What the history shows: the filter, all days or one, the page size, and where paging stands. */
export type HistoryView = {
  filter: HistoryFilter;
  /** YYYY-MM-DD in the user's time zone; null shows all days. */
  day: string | null;
  size: number;
  /** The cursor of the page shown; null is the newest page. */
  cursor: string | null;
  direction: HistoryDirection;
};

/** Changed lines one under the other, or before and after side by side. */
export type DiffLayout = 'inline' | 'side';

export type HistoryViewChange =
  | { type: 'filter'; filter: HistoryFilter }
  | { type: 'day'; day: string | null }
  | { type: 'size'; size: number }
  | { type: 'older'; cursor: string }
  | { type: 'newer'; cursor: string };

export const PAGE_SIZES = [5, 20, 50, 100] as const;

export const initialHistoryView: HistoryView = {
  filter: 'all',
  day: null,
  size: 20,
  cursor: null,
  direction: 'older',
};

/**
 * A new filter, day or page size starts again from the newest page, because the cursor of one
 * selection means nothing in another. Older and newer move from the page shown.
 */
export function changeHistoryView(view: HistoryView, change: HistoryViewChange): HistoryView {
  switch (change.type) {
    case 'filter':
      return { ...view, filter: change.filter, cursor: null, direction: 'older' };
    case 'day':
      return { ...view, day: change.day, cursor: null, direction: 'older' };
    case 'size':
      return { ...view, size: change.size, cursor: null, direction: 'older' };
    case 'older':
      return { ...view, cursor: change.cursor, direction: 'older' };
    case 'newer':
      return { ...view, cursor: change.cursor, direction: 'newer' };
  }
}

const FILTERS: readonly HistoryFilter[] = ['all', 'update', 'error'];

/**
 * The filter, day and page size kept in the address (`filter`, `day`, `size`), so a reload or a
 * return from the settings keeps them; anything not understood there reads as the default.
 * Paging always starts again from the newest page.
 */
export function historyViewFromQuery(query: URLSearchParams): HistoryView {
  const filter = FILTERS.find((value) => value === query.get('filter')) ?? initialHistoryView.filter;
  const day = query.get('day');
  const size = PAGE_SIZES.find((value) => String(value) === query.get('size')) ?? initialHistoryView.size;
  return {
    ...initialHistoryView,
    filter,
    day: day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null,
    size,
  };
}

/** The address query for a view: defaults are left out, other parameters (the site id) kept. */
export function historyViewQuery(query: URLSearchParams, view: HistoryView): URLSearchParams {
  const next = new URLSearchParams(query);
  const set = (name: string, value: string | null) =>
    value === null ? next.delete(name) : next.set(name, value);
  set('filter', view.filter === initialHistoryView.filter ? null : view.filter);
  set('day', view.day);
  set('size', view.size === initialHistoryView.size ? null : String(view.size));
  return next;
}
