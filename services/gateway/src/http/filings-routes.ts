import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1, filingsV1 } from '@mimamori/contracts';
import {
  cikIsinDeleteBody,
  cikIsinList,
  cikOptions,
  cikRegisterBody,
  filingsRefusals,
  filingsSearchBody,
  filingsSources,
  isinOptions,
  isinRegisterBody,
  isinSearchBody,
  signedOut,
  tdedinetBody,
  tdedinetList,
  tdedinetOptions,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { sendAccountFailure } from './account-failure.ts';
import type { Allowance } from './allowance.ts';
import { sendApiError } from './api-error.ts';
import { requestShapeProblem, sendShapeProblem } from './request-shape.ts';
import { answerAsCaller } from './session-caller.ts';
import { cikIsinJson, tdedinetJson } from './user-info-json.ts';

export interface FilingsRouteDeps {
  account: accountV1.AccountServiceClient;
  /** The filings service; without it every path answers 503 filings_unavailable. */
  filings?: filingsV1.FilingsServiceClient | undefined;
  /** Each user's searches (all three kinds together). */
  searches: Allowance;
}

const httpByGrpc: Partial<Record<number, number>> = {
  [grpcStatus.INVALID_ARGUMENT]: 400,
  [grpcStatus.NOT_FOUND]: 404,
  [grpcStatus.FAILED_PRECONDITION]: 409,
  [grpcStatus.RESOURCE_EXHAUSTED]: 429,
  [grpcStatus.UNAVAILABLE]: 503,
};

/** The filings service's codes as the API names them (source_busy reads 'try again in a few minutes'). */
const apiCode: Record<string, string> = { source_busy: 'rate_limited' };

/**
 * The dashboard's filings section: the spec's eight paths, for the session's user only (the
 * filings service keys every follow by the user the gateway resolved). Searches count against
 * the user's search allowance. docs/product.md#filings.
 */
export function filingsRoutes(app: FastifyInstance, deps: FilingsRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ session: [] }];
  const { notFound, limit, busy, unavailable } = filingsRefusals;

  /** Runs `work` for the session's user once the body has its shape and filings is here. */
  const route =
    <Body>(
      kind: 'search' | 'change',
      work: (filings: filingsV1.FilingsServiceClient, userId: string, body: Body) => Promise<unknown>,
    ) =>
    (request: FastifyRequest, reply: FastifyReply) =>
      answerAsCaller(
        deps.account,
        request,
        reply,
        async ({ caller }) => {
          const problem = requestShapeProblem(request);
          if (problem) return sendShapeProblem(reply, problem);
          if (!deps.filings) return sendApiError(reply, 503, 'filings_unavailable');
          if (kind === 'search' && !deps.searches.take(caller.userId))
            return sendApiError(reply, 429, 'rate_limited');
          return reply.send(await work(deps.filings, caller.userId, request.body as Body));
        },
        sendFilingsFailure,
      );

  const options = (summary: string, body: z.ZodType, answers: Record<number, z.ZodType>) => ({
    attachValidation: true,
    schema: { summary, security, body, response: { 401: signedOut, 503: unavailable, ...answers } },
  });

  api.get(
    '/api/filings/sources',
    {
      schema: {
        summary: 'Where filings come from here: the real sources switched on, or the bundled demo',
        security,
        response: { 200: filingsSources, 401: signedOut, 503: unavailable },
      },
    },
    (request, reply) =>
      answerAsCaller(
        deps.account,
        request,
        reply,
        async () => {
          if (!deps.filings) return sendApiError(reply, 503, 'filings_unavailable');
          const answer = await unary(deps.filings, 'getSources', {});
          return reply.send({ demo: answer.demo, sources: answer.sources });
        },
        sendFilingsFailure,
      ),
  );

  api.post(
    '/api/tdedi/search',
    options(
      'Search Japanese companies (TDnet/EDINET) by securities code, EDINET code or name',
      filingsSearchBody,
      {
        200: tdedinetOptions,
        400: filingsRefusals.search,
        429: busy,
      },
    ),
    route<z.infer<typeof filingsSearchBody>>('search', async (filings, _userId, body) => {
      const { companies } = await unary(filings, 'searchJapaneseCompanies', { query: body.query });
      return companies.map((company) => ({
        edinet: company.edinetCode,
        tdnet: company.tdnetCode,
        name1: company.name,
        ...demoMark(company),
      }));
    }),
  );
  api.post(
    '/api/tdedi/register',
    options('Follow a Japanese company; answers the tdedinets', tdedinetBody, {
      200: tdedinetList,
      400: filingsRefusals.register,
      404: notFound,
      409: limit,
    }),
    route<z.infer<typeof tdedinetBody>>('change', async (filings, userId, body) => {
      const { follows } = await unary(filings, 'follow', {
        userId,
        kind: 'tdedinet',
        edinetCode: body.edinet,
        cik: '',
        isin: '',
        label: '',
      });
      return follows.map(tdedinetJson);
    }),
  );
  api.post(
    '/api/tdedi/delete',
    options('Stop following a Japanese company (by its EDINET code); answers the tdedinets', tdedinetBody, {
      200: tdedinetList,
      400: filingsRefusals.register,
      404: notFound,
    }),
    route<z.infer<typeof tdedinetBody>>('change', async (filings, userId, body) => {
      // The spec's item carries no id: the user follows each company once, so its code names it.
      const { tdedinets } = await unary(filings, 'listFollows', { userId });
      const edinet = body.edinet.trim().toUpperCase();
      const follow = tdedinets.find((item) => item.edinetCode === edinet);
      if (!follow) throw notFoundError();
      const { follows } = await unary(filings, 'unfollow', { userId, followId: follow.id });
      return follows.map(tdedinetJson);
    }),
  );

  api.post(
    '/api/cik/search',
    options('Search SEC registrants by CIK, ticker or name keyword', filingsSearchBody, {
      200: cikOptions,
      400: filingsRefusals.search,
      429: busy,
    }),
    route<z.infer<typeof filingsSearchBody>>('search', async (filings, _userId, body) => {
      const { companies } = await unary(filings, 'searchSecCompanies', { query: body.query });
      return companies.map((company) => ({
        label: company.name,
        cik: company.cik,
        ticker: company.ticker,
        ...demoMark(company),
      }));
    }),
  );
  api.post(
    '/api/cik/register',
    options('Follow an SEC registrant; answers the cik_isins', cikRegisterBody, {
      200: cikIsinList,
      400: filingsRefusals.register,
      404: notFound,
      409: limit,
    }),
    route<z.infer<typeof cikRegisterBody>>('change', async (filings, userId, body) => {
      const { follows } = await unary(filings, 'follow', {
        userId,
        kind: 'cik',
        edinetCode: '',
        cik: body.cik,
        isin: '',
        label: '',
      });
      return follows.map(cikIsinJson);
    }),
  );

  api.post(
    '/api/isin/search',
    options('Find the GlobeNewswire issuer of an ISIN (check digit verified first)', isinSearchBody, {
      200: isinOptions,
      400: filingsRefusals.isin,
      429: busy,
    }),
    route<z.infer<typeof isinSearchBody>>('search', async (filings, _userId, body) => {
      const { issuers } = await unary(filings, 'searchIsin', { isin: body.isin });
      return issuers.map((issuer) => ({ label: issuer.name, isin: issuer.isin, ...demoMark(issuer) }));
    }),
  );
  api.post(
    '/api/isin/register',
    options('Follow an ISIN on GlobeNewswire; answers the cik_isins', isinRegisterBody, {
      200: cikIsinList,
      400: filingsRefusals.register,
      409: limit,
    }),
    route<z.infer<typeof isinRegisterBody>>('change', async (filings, userId, body) => {
      const { follows } = await unary(filings, 'follow', {
        userId,
        kind: 'isin',
        edinetCode: '',
        cik: '',
        isin: body.isin,
        label: body.label ?? '',
      });
      return follows.map(cikIsinJson);
    }),
  );
  api.post(
    '/api/cikisin/delete',
    options('Stop following a CIK or ISIN item (by its id); answers the cik_isins', cikIsinDeleteBody, {
      200: cikIsinList,
      400: filingsRefusals.register,
      404: notFound,
    }),
    route<z.infer<typeof cikIsinDeleteBody>>('change', async (filings, userId, body) => {
      const { cikIsins } = await unary(filings, 'listFollows', { userId });
      // The id must name one of this user's CIK or ISIN items, not a tdedinet follow.
      if (!cikIsins.some((item) => item.id === body.id)) throw notFoundError();
      const { follows } = await unary(filings, 'unfollow', { userId, followId: body.id });
      return follows.map(cikIsinJson);
    }),
  );
}

/** The demo mark on an option, only when the filings service answered from the demo set. */
function demoMark(answer: { demo: boolean }): { demo?: true } {
  return answer.demo ? { demo: true } : {};
}

function notFoundError() {
  return Object.assign(new Error('not found'), { code: grpcStatus.NOT_FOUND, details: 'not_found||' });
}

/**
 * The filings service answers `<code>|<field>|<reason>`; the code becomes the API error code
 * (isin_invalid shows 'ISIN is invalid'), with the field beside it.
 */
function sendFilingsFailure(reply: FastifyReply, error: unknown) {
  const { code, details } = error as { code?: number; details?: string };
  const httpStatus = code === undefined ? undefined : httpByGrpc[code];
  const match = /^([a-z_]{3,60})\|([^|]{0,60})\|/.exec(details ?? '');
  if (httpStatus && match) {
    const [, problem = '', field = ''] = match;
    const name = apiCode[problem] ?? problem;
    return reply
      .code(httpStatus)
      .type('application/json')
      .send({ error: { code: name, message_key: `errors.${name}`, ...(field ? { field } : {}) } });
  }
  return sendAccountFailure(reply, error);
}
