import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../api/history.ts';
import {
  changeHistoryView,
  historyViewFromQuery,
  historyViewQuery,
  initialHistoryView,
  STRUCTURE_HINT_ERRORS,
  showsStructureHint,
} from './history-view.ts';

const entry = (outcome: HistoryEntry['outcome']): HistoryEntry => ({
  check_id: Math.random().toString(36),
  due_at: null,
  checked_at: '2026-11-23T10:00:00.000Z',
  outcome,
  error: outcome === 'error' ? { code: 'timeout', message_key: 'errors.timeout', detail: '' } : null,
  update: null,
});

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

describe('structural-change hint', () => {
  const failing = Array.from({ length: STRUCTURE_HINT_ERRORS }, () => entry('error'));

  it('shows after as many failed checks in a row as the notifier counts', () => {
    expect(showsStructureHint(initialHistoryView, [...failing, entry('no_change')], null)).toBe(true);
  });

  it('does not show when a success breaks the streak', () => {
    const broken = [...failing.slice(1), entry('update'), entry('error')];
    expect(showsStructureHint(initialHistoryView, broken, null)).toBe(false);
  });

  it('does not judge from a filtered, one-day or older page', () => {
    expect(showsStructureHint({ ...initialHistoryView, filter: 'error' }, failing, null)).toBe(false);
    expect(showsStructureHint({ ...initialHistoryView, day: '2026-11-23' }, failing, null)).toBe(false);
    expect(showsStructureHint(initialHistoryView, failing, 'newer-cursor')).toBe(false);
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
