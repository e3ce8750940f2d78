import type { Element } from 'domhandler';
import { findAll, findOne, getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { type Filing, type FilingSource, SourceError } from '../domain/filing.ts';
import { decodeBody, getFromSource, japanDaysToRead, japanTime, type SourceHttp } from './source-http.ts';

/** Past this many pages a day list is not what we understand (busy days have about 17). */
const MAX_PAGES = 40;

/**
 * TDnet's public disclosure list (there is no free API): today's pages in Japan (and
 * yesterday's just after midnight),
 * `I_list_001_YYYYMMDD.html` and the pages its pager names, 100 rows each. Rows are kept for
 * the followed 4-character codes (the list writes 5, `72030`, `130A0`).
 */
export function tdnetSource(http: SourceHttp, baseUrl: string): FilingSource {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  // Each day's rows with page 1's Last-Modified: page 1 asked with If-Modified-Since answers 304
  // while nothing was added, and the day's pages are not read again.
  let cache = new Map<string, { lastModified: string; filings: Filing[] }>();

  const readDay = async (day: string): Promise<Filing[]> => {
    const first = `I_list_001_${day.replaceAll('-', '')}.html`;
    const cached = cache.get(day);
    const response = await getFromSource(
      http,
      new URL(first, base),
      cached ? { 'if-modified-since': cached.lastModified } : {},
    );
    if (response.status === 304 && cached) return cached.filings;
    const parsed = parseDayPage(decodeBody(response.body, response.headers['content-type']), base, day);
    const filings = [...parsed.filings];
    for (const page of parsed.otherPages.filter((name) => name !== first).slice(0, MAX_PAGES)) {
      const more = await getFromSource(http, new URL(page, base));
      filings.push(...parseDayPage(decodeBody(more.body, more.headers['content-type']), base, day).filings);
    }
    const lastModified = response.headers['last-modified'];
    if (lastModified) cache.set(day, { lastModified, filings });
    return filings;
  };

  return {
    name: 'tdnet',
    async list(companyCodes, now) {
      const wanted = new Set(companyCodes);
      const days = japanDaysToRead(now);
      cache = new Map([...cache].filter(([day]) => days.includes(day)));
      const filings: Filing[] = [];
      for (const day of days) {
        for (const filing of await readDay(day)) if (wanted.has(filing.companyCode)) filings.push(filing);
      }
      return filings;
    },
  };
}

/** One day page: its rows, and (from page 1) the other pages of the day. */
export function parseDayPage(
  html: string,
  base: URL,
  day: string,
): { filings: Filing[]; otherPages: string[] } {
  const document = parseDocument(html);
  const table = findOne((element) => element.attribs.id === 'main-list-table', document.children);
  if (!table) {
    // An empty day has no table and no total, but still names its day; anything else
    // (a maintenance page, a changed layout) is not "no filings".
    const named = findOne((element) => element.attribs.id === 'kaiji-date-1', document.children);
    if (named) return { filings: [], otherPages: [] };
    throw new SourceError('tdnet', 'bad_answer', `day page ${day} has neither a list nor its date`);
  }
  const filings: Filing[] = [];
  for (const row of findAll((element) => element.name === 'tr', table.children)) {
    const cell = (name: string) => findOne((element) => hasClass(element, name), row.children);
    const [time, code, company, title] = ['kjTime', 'kjCode', 'kjName', 'kjTitle'].map(cell);
    const link = title && findOne((element) => element.name === 'a', title.children);
    const href = link && getAttributeValue(link, 'href');
    if (!time || !code || !company || !title || !href) continue;
    const documentUrl = new URL(href, base).href;
    filings.push({
      source: 'tdnet',
      // The PDF's stem is unique per disclosure.
      key: href.replace(/^.*\//, '').replace(/\.pdf$/i, ''),
      companyCode: clean(textContent(code)).slice(0, 4),
      companyName: clean(textContent(company)),
      title: clean(textContent(title)),
      documentUrl,
      publishedAt: japanTime(day, clean(textContent(time))),
    });
  }
  const pager = findOne((element) => element.attribs.id === 'pager-box-top', document.children);
  const otherPages = pager
    ? [
        ...new Set(
          [...pagerText(pager).matchAll(/pagerLink\('([^']+)'\)/g)].map((match) => match[1] as string),
        ),
      ]
    : [];
  return { filings, otherPages };
}

function pagerText(pager: Element): string {
  return findAll(() => true, [pager])
    .map((element) => Object.values(element.attribs).join(' '))
    .join(' ');
}

function hasClass(element: Element, name: string): boolean {
  return (element.attribs.class ?? '').split(/\s+/).includes(name);
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
