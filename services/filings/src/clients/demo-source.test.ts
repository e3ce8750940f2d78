import { describe, expect, it } from 'vitest';
import { DEMO_COMPANIES } from './demo-data.ts';
import { demoFiling, demoSources } from './demo-source.ts';

const EVERY_MS = 180_000;
const toyota = DEMO_COMPANIES.find((company) => company.edinetCode === 'E02144');
if (!toyota) throw new Error('Toyota is in the demo set');

describe('demo source', () => {
  it('publishes each period a new filing per company, marked as demo, rotating through its recorded ones', () => {
    const slot = Math.floor(Date.parse('2026-12-06T08:42:00Z') / EVERY_MS);
    const first = demoFiling(toyota, slot, EVERY_MS);
    const second = demoFiling(toyota, slot + 1, EVERY_MS);
    expect(first?.key).not.toBe(second?.key);
    expect(first?.publishedAt.getTime()).toBe(slot * EVERY_MS);
    expect(second?.publishedAt.getTime()).toBe((slot + 1) * EVERY_MS);
    // Five recorded filings, replayed in turn: the same one comes back five periods later.
    const sources = [0, 1, 2, 3, 4].map((i) => demoFiling(toyota, slot + i, EVERY_MS)?.source);
    expect(new Set(sources)).toEqual(new Set(['tdnet', 'edinet', 'globenewswire']));
    expect(demoFiling(toyota, slot + 5, EVERY_MS)?.source).toBe(sources[0]);
  });

  it('writes titles in the source’s language with the demo mark and the period’s time, so each reads new', () => {
    const at = Date.parse('2026-12-06T08:42:00Z');
    const titles = [0, 1, 2, 3, 4].map((i) => demoFiling(toyota, at / EVERY_MS + i, EVERY_MS));
    const byCode = Object.fromEntries(titles.map((filing) => [filing?.source, filing]));
    expect(byCode.tdnet?.title).toMatch(/^\[デモ\] .+（デモ配信 2026-12-06 17:(4\d|5[0-4]):00）$/);
    expect(byCode.tdnet?.companyCode).toBe('7203');
    expect(byCode.edinet?.companyCode).toBe('E02144');
    expect(byCode.globenewswire?.title).toMatch(/^\[Demo\] .+ \(demo, 2026-12-06 08:(4\d|5[0-4]):00 UTC\)$/);
    expect(byCode.globenewswire?.companyCode).toBe('JP3633400001');
    for (const filing of titles) expect(filing?.documentUrl).toMatch(/^https:\/\//);
  });

  it('lists only the followed companies’ filings of the current period, on their own source', async () => {
    const now = new Date(Date.parse('2026-12-06T08:42:00Z') + 1_000);
    const all = demoSources(EVERY_MS);
    const listed = await Promise.all(
      all.map(async (source) => ({
        source: source.name,
        filings: await source.list(['7203', 'E02144', 'JP3633400001', '320193'], now),
      })),
    );
    const filings = listed.flatMap((entry) => entry.filings);
    for (const entry of listed) for (const filing of entry.filings) expect(filing.source).toBe(entry.source);
    // Toyota and Apple publish one each this period; Sony and Microsoft are not followed.
    expect(filings.map((filing) => filing.companyName).sort()).toEqual(['Apple Inc.', expect.any(String)]);
    expect(filings.every((filing) => filing.publishedAt.getTime() <= now.getTime())).toBe(true);
    const again = await Promise.all(
      all.map((source) => source.list(['7203', 'E02144', 'JP3633400001', '320193'], now)),
    );
    expect(again.flat()).toEqual(filings);
  });
});
