import type { Filing } from './filing.ts';
import { type FollowRecord, followSubjects } from './follow.ts';

/**
 * How far before a follow a filing may have been published and still be told: TDnet and
 * EDINET give minutes only and a list is read some time after it changed, so a filing
 * published in the minutes around the follow counts as new, while the backlog does not.
 */
export const FOLLOW_GRACE_MS = 5 * 60_000;

/**
 * A filing older than this is never told, however it is first seen: a source that lists years
 * (SEC) may show it again after its seen record was swept, and a late find is not news.
 */
export const FRESH_FOR_MS = 7 * 86_400_000;

export interface Notice {
  follow: FollowRecord;
  filing: Filing;
}

/**
 * Who is told of filings seen for the first time (a filing seen before is never told again,
 * so a second poll or a redelivered one sends nothing). A first follow does not flood its
 * user with the backlog: a follower is told only of filings published after they followed,
 * less the grace, and within FRESH_FOR_MS of now.
 */
export function noticesFor(
  newFilings: readonly Filing[],
  follows: readonly FollowRecord[],
  now: Date,
): Notice[] {
  const notices: Notice[] = [];
  for (const filing of newFilings) {
    if (filing.publishedAt.getTime() < now.getTime() - FRESH_FOR_MS) continue;
    for (const follow of follows) {
      const matches = followSubjects(follow).some(
        (subject) => subject.source === filing.source && subject.code === filing.companyCode,
      );
      if (matches && filing.publishedAt.getTime() >= follow.followedAt.getTime() - FOLLOW_GRACE_MS)
        notices.push({ follow, filing });
    }
  }
  return notices;
}

/** The event id of a notice: the same filing told to the same user is one event. */
export function noticeId(notice: Notice): string {
  return `filing:${notice.filing.source}:${notice.filing.key}:${notice.follow.userId}`;
}
