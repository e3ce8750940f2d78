import { writeEvent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { filingPublished } from '@mimamori/events';
import type { Filing, FilingSource } from '../domain/filing.ts';
import { noticeId, noticesFor } from '../domain/notices.ts';
import type { FilingsStore } from '../store/filings-store.ts';
import { FILINGS_SCHEMA } from '../store/migrations.ts';

export interface PollOutcome {
  listed: number;
  newlySeen: number;
  notices: number;
}

/**
 * One poll of one source: the filings of the followed companies it lists now are recorded as
 * seen and, in the same transaction, a filings.published event is written to the outbox for
 * each follower to tell. A poll that fails before the commit leaves nothing behind, so the
 * next poll finds the same filings new; one that committed finds them seen.
 */
export async function pollSource(
  db: Db,
  store: FilingsStore,
  source: FilingSource,
  now: () => Date,
): Promise<PollOutcome> {
  const codes = await store.followedCodes(source.name);
  if (codes.length === 0) return { listed: 0, newlySeen: 0, notices: 0 };
  const listed = distinct(await source.list(codes, now()));
  return db.transaction(async (tx) => {
    const at = now();
    const fresh = await store.markSeen(tx, listed, at);
    if (fresh.length === 0) return { listed: listed.length, newlySeen: 0, notices: 0 };
    const follows = await store.followsOfCodes(tx, source.name, [
      ...new Set(fresh.map((filing) => filing.companyCode)),
    ]);
    const notices = noticesFor(fresh, follows, at);
    for (const notice of notices) {
      const id = noticeId(notice);
      await writeEvent(tx, FILINGS_SCHEMA, {
        id,
        subject: filingPublished.subject,
        data: filingPublished.encode({
          eventId: id,
          userId: notice.follow.userId,
          followId: notice.follow.id,
          followLabel: notice.follow.label,
          source: notice.filing.source,
          filingKey: notice.filing.key,
          companyName: notice.filing.companyName,
          companyCode: notice.filing.companyCode,
          title: notice.filing.title,
          documentUrl: notice.filing.documentUrl,
          publishedAt: notice.filing.publishedAt,
          seenAt: at,
        }),
      });
    }
    return { listed: listed.length, newlySeen: fresh.length, notices: notices.length };
  });
}

/** A list may show a filing twice (TDnet pages shift while read); a filing without a time is unusable. */
function distinct(filings: readonly Filing[]): Filing[] {
  const byKey = new Map<string, Filing>();
  for (const filing of filings) {
    if (Number.isNaN(filing.publishedAt.getTime())) continue;
    byKey.set(`${filing.source}\u0000${filing.key}`, filing);
  }
  return [...byKey.values()];
}
