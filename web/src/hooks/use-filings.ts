import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CikIsinItem,
  type CikOption,
  followIsin,
  followJapaneseCompany,
  followSecCompany,
  type IsinOption,
  searchIsin,
  searchJapaneseCompanies,
  searchSecCompanies,
  type TdnetEdinetItem,
  unfollowCikIsin,
  unfollowJapaneseCompany,
} from '../api/filings.ts';
import { queryKeys } from '../query-keys.ts';

export type FilingsSearchKind = 'tdedi' | 'cik' | 'isin';

/** One search answer, whichever source: the Japanese directory, or the SEC and GlobeNewswire. */
export type FilingsOption =
  | { kind: 'tdedi'; option: TdnetEdinetItem }
  | { kind: 'cik'; option: CikOption }
  | { kind: 'isin'; option: IsinOption };

/** A followed company as user_info lists it. */
export type FollowedItem = { kind: 'tdedi'; item: TdnetEdinetItem } | { kind: 'cikisin'; item: CikIsinItem };

async function search(kind: FilingsSearchKind, query: string, signal: AbortSignal): Promise<FilingsOption[]> {
  if (kind === 'tdedi') {
    return (await searchJapaneseCompanies(query, signal)).map((option) => ({ kind, option }));
  }
  if (kind === 'cik') return (await searchSecCompanies(query, signal)).map((option) => ({ kind, option }));
  return (await searchIsin(query, signal)).map((option) => ({ kind, option }));
}

/**
 * The options for a query the search rules let through (search-rules.ts); null sends nothing.
 * A 429 is not retried: the source asked us to wait, and the section says so.
 */
export function useFilingsSearch(kind: FilingsSearchKind, query: string | null) {
  return useQuery({
    queryKey: queryKeys.filingsSearch(kind, query ?? ''),
    queryFn: ({ signal }) => search(kind, query ?? '', signal),
    enabled: query !== null,
    staleTime: 60_000,
  });
}

/**
 * Follow or unfollow, then read user_info again before settling: the section lists user_info's
 * `tdedinets` and `cik_isins`, so the new item is on the list when the 'added' flag starts.
 */
export function useFollowChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { follow: FilingsOption } | { unfollow: FollowedItem }) => {
      if ('follow' in change) {
        const { follow } = change;
        if (follow.kind === 'tdedi') return followJapaneseCompany(follow.option);
        if (follow.kind === 'cik') return followSecCompany(follow.option);
        return followIsin(follow.option);
      }
      const { unfollow } = change;
      return unfollow.kind === 'tdedi'
        ? unfollowJapaneseCompany(unfollow.item)
        : unfollowCikIsin(unfollow.item);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
  });
}
