import type { Filing, FilingSource, SourceName } from '../domain/filing.ts';
import { DEMO_COMPANIES, type DemoCompany } from './demo-data.ts';

/** Every demo source; the demo stands in for all four at once. */
const DEMO_SOURCE_NAMES: readonly SourceName[] = ['tdnet', 'edinet', 'sec', 'globenewswire'];

/** The code a source knows a demo company by (what a follow of it matches on). */
export function demoCompanyCode(company: DemoCompany, source: SourceName): string {
  if (source === 'tdnet') return company.tdnetCode;
  if (source === 'edinet') return company.edinetCode;
  return source === 'sec' ? company.cik : company.isin;
}

/**
 * Where a demo filing's link goes: the source's own public listing of the company, so the link
 * opens a real page and never a made-up document address.
 */
function listingUrl(company: DemoCompany, source: SourceName): string {
  if (source === 'tdnet') return 'https://www.release.tdnet.info/inbs/I_main_00.html';
  if (source === 'edinet') return 'https://disclosure2.edinet-fsa.go.jp/';
  if (source === 'sec')
    return `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${company.cik.padStart(10, '0')}`;
  return `https://www.globenewswire.com/search/keyword/${company.isin}`;
}

/** 2026-12-06 17:42:06 in the zone the source writes its times in. */
function stamp(at: Date, offsetHours: number): string {
  return new Date(at.getTime() + offsetHours * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The demo filing a company publishes in period `slot` (periods of `everyMs` since the epoch), or
 * undefined when its turn in that period is on another source. Titles carry the mark and the
 * period's time, in the source's language, so every mail, Discord message and webhook says it is
 * a demo and each period's filing reads as a new one.
 */
export function demoFiling(company: DemoCompany, slot: number, everyMs: number): Filing | undefined {
  const template = company.filings[slot % company.filings.length];
  if (!template) return undefined;
  const publishedAt = new Date(slot * everyMs);
  const japanese = template.source === 'tdnet' || template.source === 'edinet';
  const companyCode = demoCompanyCode(company, template.source);
  return {
    source: template.source,
    key: `demo-${companyCode}-${slot}`,
    companyCode,
    companyName: japanese ? company.name : company.nameEn,
    title: japanese
      ? `[デモ] ${template.title}（デモ配信 ${stamp(publishedAt, 9)}）`
      : `[Demo] ${template.title} (demo, ${stamp(publishedAt, 0)} UTC)`,
    documentUrl: listingUrl(company, template.source),
    publishedAt,
  };
}

/**
 * The bundled demo source behind the same port as the real ones, one adapter per source name:
 * every `everyMs` each demo company publishes its next recorded filing on one of its sources.
 * A list answers the current period's filings of the followed companies; the poller and the
 * notice rule treat them as they treat real ones (seen once, told to followers after the follow).
 */
export function demoSources(everyMs: number): FilingSource[] {
  return DEMO_SOURCE_NAMES.map((name) => ({
    name,
    async list(companyCodes, now) {
      const wanted = new Set(companyCodes);
      const slot = Math.floor(now.getTime() / everyMs);
      return DEMO_COMPANIES.map((company) => demoFiling(company, slot, everyMs)).filter(
        (filing): filing is Filing =>
          filing !== undefined && filing.source === name && wanted.has(filing.companyCode),
      );
    },
  }));
}

/** The demo's answer to an ISIN search: the company GlobeNewswire would name, if it is in the set. */
export async function findDemoIssuer(isin: string): Promise<string | undefined> {
  return DEMO_COMPANIES.find((company) => company.isin === isin)?.nameEn;
}
