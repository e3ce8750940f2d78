import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CikIsinItem,
  type CikOption,
  followIsin,
  followJapaneseCompany,
  followSecCompany,
  getFilingsSources,
  type IsinOption,
  searchIsin,
  searchJapaneseCompanies,
  searchSecCompanies,
  type TdedinetOption,
  type TdnetEdinetItem,
  unfollowCikIsin,
  unfollowJapaneseCompany,
} from '../api/filings.ts';
import type { UserInfo } from '../api/user-info.ts';
import { queryKeys } from '../query-keys.ts';

export type FilingsSearchKind = 'tdedi' | 'cik' | 'isin';

/** One search answer, whichever source: the Japanese directory, or the SEC and GlobeNewswire. */
export type FilingsOption =
  | { kind: 'tdedi'; option: TdedinetOption }
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

/** Where filings come from here; the section explains the demo, or sources switched off, from it. */
export function useFilingsSources() {
  return useQuery({ queryKey: queryKeys.filingsSources, queryFn: getFilingsSources, staleTime: 300_000 });
}

/**
 * Follow or unfollow. The answer is the user's list of that kind after the change, put into
 * user_info at once, so the new item is on the list when the 'added' flag starts; a failure
 * reads user_info again, since the change may have happened all the same.
 */
export function useFollowChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      change: { follow: FilingsOption } | { unfollow: FollowedItem },
    ): Promise<FollowLists> => {
      if ('follow' in change) {
        const { follow } = change;
        if (follow.kind === 'tdedi') return { tdedinets: await followJapaneseCompany(follow.option) };
        if (follow.kind === 'cik') return { cik_isins: await followSecCompany(follow.option) };
        return { cik_isins: await followIsin(follow.option) };
      }
      const { unfollow } = change;
      if (unfollow.kind === 'tdedi') return { tdedinets: await unfollowJapaneseCompany(unfollow.item) };
      return { cik_isins: await unfollowCikIsin(unfollow.item) };
    },
    onSuccess: (lists) =>
      queryClient.setQueryData<UserInfo>(queryKeys.userInfo, (info) => info && { ...info, ...lists }),
    onError: () => queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
  });
}

type FollowLists = Partial<Pick<UserInfo, 'tdedinets' | 'cik_isins'>>;
