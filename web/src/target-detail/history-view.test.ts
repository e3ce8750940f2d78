import { describe, expect, it } from 'vitest';
import {
  changeHistoryView,
  historyViewFromQuery,
  historyViewQuery,
  initialHistoryView,
} from './history-view.ts';

describe('history paging', () => {
  it('pages older and newer from the page shown', () => {
    const older = changeHistoryView(initialHistoryView, { type: 'older', cursor: 'c1' });
    expect(older).toMatchObject({ cursor: 'c1', direction: 'older' });
    const newer = changeHistoryView(older, { type: 'newer', cursor: 'c0' });
    expect(newer).toMatchObject({ cursor: 'c0', direction: 'newer', filter: 'all' });
  });

  it('starts from the newest page when the filter, the day or the page size changes', () => {
    const paged = changeHistoryView(initialHistoryView, { type: 'older', cursor: 'c1' });
    expect(changeHistoryView(paged, { type: 'filter', filter: 'error' })).toEqual({
      ...initialHistoryView,
      filter: 'error',
    });
    expect(changeHistoryView(paged, { type: 'day', day: '2026-11-23' })).toEqual({
      ...initialHistoryView,
      day: '2026-11-23',
    });
    expect(changeHistoryView({ ...paged, direction: 'newer' }, { type: 'size', size: 5 })).toEqual({
      ...initialHistoryView,
      size: 5,
    });
  });
});

describe('the view in the address', () => {
  it('keeps the filter, day and page size beside the site id, leaving defaults out', () => {
    const view = { ...initialHistoryView, filter: 'error' as const, day: '2026-11-24', size: 5 };
    const query = historyViewQuery(new URLSearchParams('id=site-1'), view);
    expect(query.toString()).toBe('id=site-1&filter=error&day=2026-11-24&size=5');
    expect(historyViewFromQuery(query)).toEqual(view);
    expect(historyViewQuery(query, initialHistoryView).toString()).toBe('id=site-1');
  });

  it('reads what it does not understand as the default', () => {
    const query = new URLSearchParams('id=x&filter=everything&day=tomorrow&size=7');
    expect(historyViewFromQuery(query)).toEqual(initialHistoryView);
  });
});
