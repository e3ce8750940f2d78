// The account's and a site's updates as Atom (RFC 4287) and RSS 2.0 (docs/api.md#feeds).

export interface FeedEntry {
  /** The update's id: an entry keeps it whatever the feed's URL becomes after a rotation. */
  updateId: string;
  title: string;
  /** The site's history page in the web app. */
  historyUrl: string;
  /** The after picture at its unguessable feed URL; null when the update has none. */
  imageUrl: string | null;
  /** The update's diff, cut short. */
  diff: string;
  detectedAt: Date;
}

export interface Feed {
  /** Stable across token rotations, unlike the URL (a reader keeps its read marks). */
  id: string;
  title: string;
  selfUrl: string;
  /** The web app's page the feed is about (the dashboard or the site's history). */
  pageUrl: string;
  lang: 'ja' | 'en';
  entries: FeedEntry[];
}

const XML_SPECIALS: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Escapes text for an element or attribute, dropping characters XML 1.0 cannot carry at all. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (special) => XML_SPECIALS[special] ?? special);
}

/** What a feed reader shows as the entry's body: the diff and the after picture. */
function entryHtml(entry: FeedEntry): string {
  const picture = entry.imageUrl ? `<p><img src="${xmlText(entry.imageUrl)}" alt=""></p>` : '';
  return `<pre>${xmlText(entry.diff)}</pre>${picture}`;
}

/** The newest entry's time, or the epoch for a feed with none (a reader then sees nothing new). */
function lastUpdate(feed: Feed): Date {
  return feed.entries[0]?.detectedAt ?? new Date(0);
}

export function atomFeed(feed: Feed): string {
  const entries = feed.entries.map(
    (entry) => `  <entry>
    <id>urn:mimamori:update:${xmlText(entry.updateId)}</id>
    <title>${xmlText(entry.title)}</title>
    <updated>${entry.detectedAt.toISOString()}</updated>
    <link rel="alternate" type="text/html" href="${xmlText(entry.historyUrl)}"/>
${entry.imageUrl ? `    <link rel="enclosure" type="image/webp" href="${xmlText(entry.imageUrl)}"/>\n` : ''}    <summary type="text">${xmlText(entry.diff)}</summary>
    <content type="html">${xmlText(entryHtml(entry))}</content>
  </entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${feed.lang}">
  <id>${xmlText(feed.id)}</id>
  <title>${xmlText(feed.title)}</title>
  <updated>${lastUpdate(feed).toISOString()}</updated>
  <author><name>Mimamori</name></author>
  <link rel="self" type="application/atom+xml" href="${xmlText(feed.selfUrl)}"/>
  <link rel="alternate" type="text/html" href="${xmlText(feed.pageUrl)}"/>
${entries.join('')}</feed>
`;
}

export function rssFeed(feed: Feed): string {
  const items = feed.entries.map(
    (entry) => `    <item>
      <title>${xmlText(entry.title)}</title>
      <link>${xmlText(entry.historyUrl)}</link>
      <guid isPermaLink="false">urn:mimamori:update:${xmlText(entry.updateId)}</guid>
      <pubDate>${entry.detectedAt.toUTCString()}</pubDate>
      <description>${xmlText(entryHtml(entry))}</description>
${entry.imageUrl ? `      <enclosure url="${xmlText(entry.imageUrl)}" type="image/webp" length="0"/>\n` : ''}    </item>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${xmlText(feed.title)}</title>
    <link>${xmlText(feed.pageUrl)}</link>
    <description>${xmlText(feed.title)}</description>
    <language>${feed.lang}</language>
    <lastBuildDate>${lastUpdate(feed).toUTCString()}</lastBuildDate>
    <atom:link rel="self" type="application/rss+xml" href="${xmlText(feed.selfUrl)}"/>
${items.join('')}  </channel>
</rss>
`;
}
