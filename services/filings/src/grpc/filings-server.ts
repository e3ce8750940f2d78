import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { filingsV1 } from '@mimamori/contracts';
import { checkIsin } from '@mimamori/isin';
import { GrpcError } from '@mimamori/runtime';
import { unaryHandler } from '@mimamori/service-host';
import { SourceError } from '../domain/filing.ts';
import { FilingsProblem, type FilingsProblemKind } from '../domain/filings-problem.ts';
import { FOLLOW_LIMIT, type FollowKind, type FollowRecord, followCode } from '../domain/follow.ts';
import { searchQuery } from '../domain/search-key.ts';
import type { CompanyDirectory } from '../jobs/company-directory.ts';
import type { FilingsStore } from '../store/filings-store.ts';

const statusByKind: Record<FilingsProblemKind, status> = {
  invalid: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  precondition: status.FAILED_PRECONDITION,
  source_busy: status.RESOURCE_EXHAUSTED,
  source_unavailable: status.UNAVAILABLE,
};

export interface FilingsServerDeps {
  store: FilingsStore;
  directory: CompanyDirectory;
  /** GlobeNewswire's issuer by ISIN: the name its releases give, undefined when none carries it. */
  findIsinIssuer(isin: string): Promise<string | undefined>;
  now(): Date;
  /** The real sources switched on (FILINGS_SOURCES). */
  sources: readonly string[];
  /** The bundled demo source answers instead: every search result says so. */
  demo: boolean;
}

function followItem(follow: FollowRecord): filingsV1.FollowItem {
  return {
    id: follow.id,
    kind: follow.kind,
    label: follow.label,
    edinetCode: follow.edinetCode,
    tdnetCode: follow.tdnetCode,
    cik: follow.cik,
    ticker: follow.ticker,
    isin: follow.isin,
  };
}

/** tdedinets and cik_isins, as user_info lists them. */
function grouped(follows: readonly FollowRecord[]) {
  return {
    tdedinets: follows.filter((follow) => follow.kind === 'tdedinet').map(followItem),
    cikIsins: follows.filter((follow) => follow.kind !== 'tdedinet').map(followItem),
  };
}

function queryOf(text: string): string {
  const query = searchQuery(text);
  if (query === undefined) throw new FilingsProblem('invalid', 'query_too_short', 'query');
  return query;
}

function isinOf(text: string): string {
  const checked = checkIsin(text);
  if (checked.ok) return checked.isin;
  throw new FilingsProblem('invalid', checked.problem === 'length' ? 'isin_length' : 'isin_invalid', 'isin');
}

/** Every method acts for the user the gateway resolved; another user's follow id answers not_found. */
export function filingsServer(deps: FilingsServerDeps): filingsV1.FilingsServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler(async (request: Req) => {
      try {
        return await work(request);
      } catch (error) {
        if (error instanceof FilingsProblem) throw new GrpcError(statusByKind[error.kind], error.message);
        // The source is named, so the dashboard can say which one could not be reached.
        if (error instanceof SourceError) {
          const busy = error.kind === 'rate_limited';
          throw new GrpcError(
            busy ? status.RESOURCE_EXHAUSTED : status.UNAVAILABLE,
            `${busy ? 'source_busy' : 'source_unavailable'}|${error.source}|`,
          );
        }
        throw error;
      }
    });

  const newFollow = async (request: filingsV1.FollowRequest): Promise<FollowRecord> => {
    const base = {
      id: randomUUID(),
      userId: request.userId,
      edinetCode: '',
      tdnetCode: '',
      cik: '',
      ticker: '',
      isin: '',
      followedAt: deps.now(),
    };
    const kind = request.kind as FollowKind;
    if (kind === 'tdedinet') {
      const company = await deps.directory.japaneseCompany(request.edinetCode.trim().toUpperCase());
      if (!company) throw new FilingsProblem('not_found', 'not_found', 'edinet_code');
      return {
        ...base,
        kind,
        label: company.name,
        edinetCode: company.edinetCode,
        tdnetCode: company.tdnetCode,
      };
    }
    if (kind === 'cik') {
      const company = await deps.directory.secCompany(request.cik.trim().replace(/^0+/, ''));
      if (!company) throw new FilingsProblem('not_found', 'not_found', 'cik');
      return { ...base, kind, label: company.name, cik: company.cik, ticker: company.ticker };
    }
    if (kind === 'isin') {
      const isin = isinOf(request.isin);
      return { ...base, kind, label: request.label.trim() || isin, isin };
    }
    throw new FilingsProblem('invalid', 'unknown_kind', 'kind');
  };

  const sameGroup = (kind: FollowKind, follows: readonly FollowRecord[]) =>
    follows.filter((follow) => (kind === 'tdedinet') === (follow.kind === 'tdedinet')).map(followItem);

  return {
    searchJapaneseCompanies: rpc(async (request: filingsV1.SearchJapaneseCompaniesRequest) => ({
      companies: deps.directory
        .searchJapanese(queryOf(request.query))
        .map((company) => ({ ...company, demo: deps.demo })),
    })),

    searchSecCompanies: rpc(async (request: filingsV1.SearchSecCompaniesRequest) => ({
      companies: deps.directory
        .searchSec(queryOf(request.query))
        .map((company) => ({ ...company, demo: deps.demo })),
    })),

    // The ISIN is checked before GlobeNewswire is asked: a bad one costs the source nothing.
    searchIsin: rpc(async (request: filingsV1.SearchIsinRequest) => {
      const isin = isinOf(request.isin);
      const name = await deps.findIsinIssuer(isin);
      return { issuers: name ? [{ isin, name, demo: deps.demo }] : [] };
    }),

    follow: rpc(async (request: filingsV1.FollowRequest) => {
      const record = await newFollow(request);
      const result = await deps.store.follow(record, followCode(record), FOLLOW_LIMIT);
      if (result.outcome === 'limit') throw new FilingsProblem('precondition', 'follow_limit');
      const follows = await deps.store.followsOf(request.userId);
      return { added: followItem(result.follow), follows: sameGroup(record.kind, follows) };
    }),

    unfollow: rpc(async (request: filingsV1.UnfollowRequest) => {
      const follows = await deps.store.followsOf(request.userId);
      const follow = follows.find((candidate) => candidate.id === request.followId);
      if (!follow || !(await deps.store.unfollow(request.userId, request.followId)))
        throw new FilingsProblem('not_found', 'not_found', 'follow_id');
      return {
        follows: sameGroup(
          follow.kind,
          follows.filter((candidate) => candidate.id !== follow.id),
        ),
      };
    }),

    listFollows: rpc(async (request: filingsV1.ListFollowsRequest) =>
      grouped(await deps.store.followsOf(request.userId)),
    ),

    getSources: rpc(async (_request: filingsV1.GetSourcesRequest) => ({
      demo: deps.demo,
      sources: [...deps.sources],
    })),
  };
}
