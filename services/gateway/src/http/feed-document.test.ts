import { type AtomFeed, parseAtomFeed, parseRssFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import { atomFeed, type Feed, rssFeed } from './feed-document.ts';

// What a site and its diff may hold (markup, quotes, control characters XML cannot carry) reaches
// a feed reader as the same text.
const awkward = 'Price <b>"¥1,200"</b> & more\u0000\u0008 — 価格\ud83d\ude00';
const feed: Feed = {
  id: 'urn:mimamori:site:s1',
  title: `Mimamori: ${awkward}`,
  selfUrl: 'https://mimamori.example/feeds/t/sites/s1/atom.xml',
  pageUrl: 'https://mimamori.example/target2?id=s1&x=<1>',
  lang: 'en',
  entries: [
    {
      updateId: 'u2',
      title: `${awkward} was updated`,
      historyUrl: 'https://mimamori.example/target2?id=s1&a=b',
      imageUrl: 'https://mimamori.example/feeds/t/sites/s1/updates/u2/after.webp?day=2026-12-06',
      diff: `- old\n+ ${awkward}`,
      detectedAt: new Date('2026-12-06T12:00:00Z'),
    },
    {
      updateId: 'u1',
      title: 'plain',
      historyUrl: 'https://mimamori.example/target2?id=s1',
      imageUrl: null,
      diff: '',
      detectedAt: new Date('2026-12-05T12:00:00Z'),
    },
  ],
};
const clean = awkward.replaceAll('\u0000', '').replaceAll('\u0008', '');

describe('feed documents', () => {
  it('writes Atom a parser reads back as the same texts and links', () => {
    const parsed = parseAtomFeed(atomFeed(feed)) as AtomFeed.Feed<string>;
    expect(parsed.title?.value).toBe(`Mimamori: ${clean}`);
    expect(parsed.updated).toBe('2026-12-06T12:00:00.000Z');
    expect(parsed.links).toContainEqual(expect.objectContaining({ rel: 'alternate', href: feed.pageUrl }));
    const [first, second] = parsed.entries ?? [];
    expect(first?.title?.value).toBe(`${clean} was updated`);
    expect(first?.summary?.value).toBe(`- old\n+ ${clean}`);
    expect(first?.links?.find((link) => link.rel === 'enclosure')?.href).toBe(feed.entries[0]?.imageUrl);
    expect(second?.links?.some((link) => link.rel === 'enclosure')).toBe(false);
  });

  it('writes RSS 2.0 a parser reads back, with an enclosure only where there is a picture', () => {
    const parsed = parseRssFeed(rssFeed(feed));
    expect(parsed.link).toBe(feed.pageUrl);
    expect(parsed.items?.map((item) => item.guid?.value)).toEqual([
      'urn:mimamori:update:u2',
      'urn:mimamori:update:u1',
    ]);
    expect(parsed.items?.[0]?.link).toBe('https://mimamori.example/target2?id=s1&a=b');
    expect(parsed.items?.[0]?.enclosures?.[0]?.url).toBe(feed.entries[0]?.imageUrl);
    expect(parsed.items?.[1]?.enclosures ?? []).toEqual([]);
  });

  it('dates an empty feed at the epoch, so a reader sees nothing new', () => {
    const parsed = parseAtomFeed(atomFeed({ ...feed, entries: [] })) as AtomFeed.Feed<string>;
    expect(parsed.updated).toBe('1970-01-01T00:00:00.000Z');
    expect(parsed.entries ?? []).toEqual([]);
  });
});
