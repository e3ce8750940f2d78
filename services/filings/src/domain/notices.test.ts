import { describe, expect, it } from 'vitest';
import type { Filing } from './filing.ts';
import type { FollowRecord } from './follow.ts';
import { FOLLOW_GRACE_MS, FRESH_FOR_MS, noticeId, noticesFor } from './notices.ts';

const followedAt = new Date('2026-06-10T01:00:00Z');
const now = new Date('2026-06-10T02:00:00Z');

function follow(overrides: Partial<FollowRecord>): FollowRecord {
  return {
    id: 'f1',
    userId: 'u1',
    kind: 'tdedinet',
    label: 'トヨタ自動車株式会社',
    edinetCode: 'E02144',
    tdnetCode: '7203',
    cik: '',
    ticker: '',
    isin: '',
    followedAt,
    ...overrides,
  };
}

function filing(overrides: Partial<Filing>): Filing {
  return {
    source: 'tdnet',
    key: '140120260610000001',
    companyCode: '7203',
    companyName: 'トヨタ',
    title: '決算短信',
    documentUrl: 'https://example.test/doc.pdf',
    publishedAt: new Date(followedAt.getTime() + 60_000),
    ...overrides,
  };
}

describe('noticesFor', () => {
  it('tells each follower of the company once, through either of its sources', () => {
    const follows = [
      follow({}),
      follow({ id: 'f2', userId: 'u2' }),
      follow({ id: 'f3', userId: 'u3', edinetCode: 'E1', tdnetCode: '6758' }),
    ];
    const notices = noticesFor(
      [filing({}), filing({ source: 'edinet', key: 'S100AAAA', companyCode: 'E02144' })],
      follows,
      now,
    );
    expect(notices.map((notice) => noticeId(notice))).toEqual([
      'filing:tdnet:140120260610000001:u1',
      'filing:tdnet:140120260610000001:u2',
      'filing:edinet:S100AAAA:u1',
      'filing:edinet:S100AAAA:u2',
    ]);
  });

  it('does not tell a first follow of the backlog, but does of what came out around the follow', () => {
    const backlog = filing({ key: 'old', publishedAt: new Date(followedAt.getTime() - FOLLOW_GRACE_MS - 1) });
    const justBefore = filing({ key: 'edge', publishedAt: new Date(followedAt.getTime() - FOLLOW_GRACE_MS) });
    expect(noticesFor([backlog, justBefore], [follow({})], now).map((notice) => notice.filing.key)).toEqual([
      'edge',
    ]);
  });

  it('never tells a filing older than the freshness window, even to an old follow', () => {
    const oldFollow = follow({ followedAt: new Date('2020-01-01T00:00:00Z') });
    const stale = filing({ key: 'stale', publishedAt: new Date(now.getTime() - FRESH_FOR_MS - 1) });
    const fresh = filing({ key: 'fresh', publishedAt: new Date(now.getTime() - FRESH_FOR_MS) });
    expect(noticesFor([stale, fresh], [oldFollow], now).map((notice) => notice.filing.key)).toEqual([
      'fresh',
    ]);
  });

  it('matches SEC filings by CIK and GlobeNewswire releases by ISIN only', () => {
    const follows = [
      follow({ kind: 'cik', cik: '320193', edinetCode: '', tdnetCode: '' }),
      follow({ id: 'f2', kind: 'isin', isin: 'US0378331005', edinetCode: '', tdnetCode: '' }),
    ];
    const notices = noticesFor(
      [
        filing({ source: 'sec', key: '0000320193-26-000001', companyCode: '320193' }),
        filing({ source: 'globenewswire', key: 'g1', companyCode: 'US0378331005' }),
        filing({ source: 'sec', key: 'x', companyCode: '789019' }),
      ],
      follows,
      now,
    );
    expect(notices.map((notice) => [notice.follow.id, notice.filing.key])).toEqual([
      ['f1', '0000320193-26-000001'],
      ['f2', 'g1'],
    ]);
  });
});
