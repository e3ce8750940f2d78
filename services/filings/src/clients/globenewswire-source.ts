import type { Element } from 'domhandler';
import { findAll, getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { type Filing, type FilingSource, SourceError } from '../domain/filing.ts';
import { decodeBody, getFromSource, type SourceHttp } from './source-http.ts';

interface Release {
  guid: string;
  link: string;
  title: string;
  publishedAt: Date;
  organisation: string;
  isins: string[];
}

/**
 * GlobeNewswire has no feed by ISIN: the keyword feed for the ISIN (`/RssFeed/keyword/{isin}`)
 * is read and only releases whose ISIN category is the followed ISIN are kept, so a release
 * that merely mentions it does not count.
 */
export function globeNewswireSource(
  http: SourceHttp,
  baseUrl: string,
): FilingSource & {
  /** The issuer's name as its releases give it, or undefined when no release carries the ISIN. */
  findIssuer(isin: string): Promise<string | undefined>;
} {
  const releasesOf = async (isin: string) => {
    const url = new URL(`${baseUrl.replace(/\/$/, '')}/RssFeed/keyword/${encodeURIComponent(isin)}`);
    const response = await getFromSource(http, url);
    return parseFeed(decodeBody(response.body, response.headers['content-type'])).filter((release) =>
      release.isins.includes(isin),
    );
  };
  return {
    name: 'globenewswire',
    async list(companyCodes) {
      const filings: Filing[] = [];
      for (const isin of companyCodes) {
        for (const release of await releasesOf(isin)) {
          filings.push({
            source: 'globenewswire',
            key: release.guid,
            companyCode: isin,
            companyName: release.organisation,
            title: release.title,
            documentUrl: release.link,
            publishedAt: release.publishedAt,
          });
        }
      }
      return filings;
    },
    async findIssuer(isin) {
      return (await releasesOf(isin)).find((release) => release.organisation)?.organisation;
    },
  };
}

/** Elements are matched by local name: some feeds bind `dc` to an odd namespace. */
function localName(element: Element): string {
  return element.name.replace(/^.*:/, '').toLowerCase();
}

export function parseFeed(xml: string): Release[] {
  const document = parseDocument(xml, { xmlMode: true });
  const channel = findAll((element) => localName(element) === 'channel', document.children);
  if (channel.length === 0) throw new SourceError('globenewswire', 'bad_answer', 'the feed has no channel');
  const releases: Release[] = [];
  for (const item of findAll((element) => localName(element) === 'item', document.children)) {
    const children = item.children.filter((child): child is Element => child.type === 'tag');
    const text = (name: string) =>
      textContent(children.find((child) => localName(child) === name) ?? []).trim();
    const isins = children
      .filter(
        (child) =>
          localName(child) === 'category' && /\/rss\/isin$/i.test(getAttributeValue(child, 'domain') ?? ''),
      )
      .map((child) => textContent(child).trim().toUpperCase());
    const publishedAt = new Date(text('pubdate'));
    const guid = text('guid') || text('link');
    if (!guid || Number.isNaN(publishedAt.getTime())) continue;
    releases.push({
      guid,
      link: text('link'),
      title: text('title'),
      publishedAt,
      organisation: text('contributor') || text('publisher'),
      isins,
    });
  }
  return releases;
}
