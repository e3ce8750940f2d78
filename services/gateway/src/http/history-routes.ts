import { status as grpcStatus } from '@grpc/grpc-js';
import { type BlobStore, contentTypeForKey } from '@mimamori/blob-store';
import type { accountV1, diffV1, targetV1 } from '@mimamori/contracts';
import {
  HISTORY_PAGE_MAX,
  historyPage,
  historyQuery,
  historyRefusals,
  refusal,
  registrationData,
  registrationDataQuery,
  type ScreenshotQuery,
  screenshotQuery,
  storageUsed,
  type TargetRow,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendApiError, sendGrpcFailure } from './api-error.ts';
import { areaLabels, historyEntryJson, registrationDataJson } from './history-json.ts';
import { requestShapeProblem, sendShapeProblem } from './request-shape.ts';
import { answerAsCaller, type SessionCaller } from './session-caller.ts';
import { targetRowJson } from './target-json.ts';

export interface HistoryRouteDeps {
  account: accountV1.AccountServiceClient;
  target: targetV1.TargetServiceClient;
  history: diffV1.HistoryServiceClient;
  /** Where the diff service keeps the before/after pictures. */
  blobs: BlobStore;
}

// An update's pictures never change (their key derives from the update id); a deleted site's
// pictures stay only in its owner's own cache.
const IMAGE_CACHE = 'private, max-age=604800, immutable';
// Updates of one site on one day, read a page at a time when a picture is looked up: 1,440 at a
// one-minute interval.
const IMAGE_LOOKUP_PAGES = 15;

const EMPTY_PAGE: diffV1.ListHistoryResponse = { entries: [], olderCursor: '', newerCursor: '' };
const { badRequest, notFound, signedOut } = historyRefusals;
const security = [{ session: [] }];
// The picture's bytes, described to OpenAPI as binary.
const picture = z.instanceof(Buffer).meta({ type: 'string', format: 'binary' });

/**
 * The site detail (docs/product.md#history): the history of checks and updates filtered all / update /
 * error, older/newer paging, all days or one day in the user's time zone, the data at
 * registration, and the before/after pictures. Opening the history clears the site's NEW flag.
 * The target service says whether the site is the caller's; the diff service answers only for
 * that user, and a picture is served only when it is found in the caller's own history.
 */
export function historyRoutes(app: FastifyInstance, deps: HistoryRouteDeps) {
  const { target, history, blobs } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const asCaller = (
    request: FastifyRequest,
    reply: FastifyReply,
    work: (session: SessionCaller) => Promise<unknown>,
  ) => answerAsCaller(deps.account, request, reply, work, sendHistoryFailure);

  api.get(
    '/api/account/storage',
    {
      schema: {
        summary: 'What the account’s history takes',
        security,
        response: { 200: storageUsed, 401: signedOut },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async ({ caller }) => {
        // Always the session's own account: the request names no one.
        const used = await unary(history, 'getStorageUsed', { userId: caller.userId });
        const rowBytes = Number(used.rowBytes);
        const blobBytes = Number(used.blobBytes);
        return reply.send({ used_bytes: rowBytes + blobBytes, row_bytes: rowBytes, blob_bytes: blobBytes });
      }),
  );

  for (const [version, prefix] of [
    [1, '/api'],
    [2, '/api/v2'],
  ] as const) {
    api.get(
      `${prefix}/history`,
      {
        attachValidation: true,
        schema: {
          summary: `The site detail’s history of a v${version} site, newest first; opening it (no cursor) clears NEW`,
          security,
          querystring: historyQuery,
          response: { 200: historyPage, 400: badRequest, 401: signedOut, 404: notFound },
        },
      },
      (request, reply) =>
        asCaller(request, reply, async ({ caller, timeZone }) => {
          const problem = requestShapeProblem(request);
          if (problem) return sendShapeProblem(reply, problem);
          const query = request.query;
          const site = await unary(target, 'getTarget', { caller, targetId: query.id });
          if (site.version !== version) return sendApiError(reply, 404, 'not_found');
          const [page, seen] = await Promise.all([
            heardOf(
              unary(history, 'listHistory', {
                userId: caller.userId,
                targetId: site.targetId,
                filter: query.filter,
                cursor: query.cursor ?? '',
                direction: query.direction,
                pageSize: query.size,
                day: query.day ?? '',
                timeZone,
              }),
              EMPTY_PAGE,
            ),
            // Opening the detail is the first page; paging through it is the same visit.
            query.cursor
              ? null
              : unary(target, 'markTargetSeen', { target: { caller, version, targetId: site.targetId } }),
          ]);
          const labels = areaLabels(site.settings);
          return reply.send({
            target: shownRow(seen?.row ?? site.row),
            filter: query.filter,
            day: query.day ?? null,
            time_zone: timeZone,
            entries: page.entries.map((entry) => historyEntryJson(site.targetId, entry, labels)),
            older_cursor: page.olderCursor || null,
            newer_cursor: page.newerCursor || null,
          });
        }),
    );

    api.get(
      `${prefix}/registration_data`,
      {
        attachValidation: true,
        schema: {
          summary: `The data at registration of a v${version} site: each area’s first recorded text`,
          security,
          querystring: registrationDataQuery,
          response: { 200: registrationData, 400: badRequest, 401: signedOut, 404: notFound },
        },
      },
      (request, reply) =>
        asCaller(request, reply, async ({ caller }) => {
          if (requestShapeProblem(request)) return sendApiError(reply, 400, 'bad_request');
          const site = await unary(target, 'getTarget', { caller, targetId: request.query.id });
          if (site.version !== version) return sendApiError(reply, 404, 'not_found');
          const data = await heardOf(
            unary(history, 'getRegistrationData', { userId: caller.userId, targetId: site.targetId }),
            { areas: [], pageScreenshotBlobKey: '' },
          );
          return reply.send({
            target: shownRow(site.row),
            ...registrationDataJson(site.targetId, data, areaLabels(site.settings)),
          });
        }),
    );
  }

  api.get(
    '/api/v2/screenshot',
    {
      attachValidation: true,
      schema: {
        summary:
          'A picture of the caller’s own site (v1 or v2): an update’s before/after, or one taken at registration. ' +
          'The URLs come from the history and registration-data answers.',
        security,
        querystring: screenshotQuery,
        response: {
          200: {
            description: 'The picture (WebP), cacheable privately',
            content: { 'image/webp': { schema: picture } },
          },
          400: badRequest,
          401: signedOut,
          404: refusal('No such picture in the caller’s history', ['not_found']),
        },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async ({ caller }) => {
        const problem = requestShapeProblem(request);
        if (problem) return sendShapeProblem(reply, problem);
        const key = await pictureKey(history, caller.userId, request.query);
        const blob = key ? await blobs.get(key) : null;
        if (!key || !blob) return sendApiError(reply, 404, 'not_found');
        return reply
          .header('cache-control', IMAGE_CACHE)
          .header('x-content-type-options', 'nosniff')
          .type(blob.contentType ?? contentTypeForKey(key) ?? 'application/octet-stream')
          .send(Buffer.from(blob.data));
      }),
  );
}

/** The target service always sends the site's row with it; without one the answer is not made. */
function shownRow(row: targetV1.TargetRow | undefined): TargetRow {
  if (!row) throw new Error('the target service sent a site without its row');
  return targetRowJson(row);
}

/** The picture's blob key as the caller's own history names it, or null when it does not (feeds too). */
export async function pictureKey(
  history: diffV1.HistoryServiceClient,
  userId: string,
  ref: ScreenshotQuery,
): Promise<string | null> {
  if (ref.image === 'registration_page' || ref.image === 'registration_area') {
    const data = await unary(history, 'getRegistrationData', { userId, targetId: ref.id });
    if (ref.image === 'registration_page') return data.pageScreenshotBlobKey || null;
    return data.areas.find((area) => area.areaId === ref.area)?.screenshotBlobKey || null;
  }
  let cursor = '';
  for (let page = 0; page < IMAGE_LOOKUP_PAGES; page++) {
    const read = await unary(history, 'listHistory', {
      userId,
      targetId: ref.id,
      filter: 'update',
      cursor,
      direction: 'older',
      pageSize: HISTORY_PAGE_MAX,
      day: ref.day,
      timeZone: 'UTC',
    });
    const update = read.entries.find((entry) => entry.update?.updateId === ref.update)?.update;
    if (update) {
      return (
        (ref.image === 'before' ? update.beforeScreenshotBlobKey : update.afterScreenshotBlobKey) || null
      );
    }
    if (!read.olderCursor) return null;
    cursor = read.olderCursor;
  }
  return null;
}

/**
 * The diff service answers NOT_FOUND for a site it has not heard of yet; the target service has
 * already said the site is the caller's, so that is a site with nothing recorded.
 */
async function heardOf<T>(call: Promise<T>, nothing: T): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if ((error as { code?: number }).code === grpcStatus.NOT_FOUND) return nothing;
    throw error;
  }
}

const httpByGrpc: Partial<Record<number, number>> = {
  [grpcStatus.INVALID_ARGUMENT]: 400,
  [grpcStatus.NOT_FOUND]: 404,
};

/**
 * The target and diff services refuse with `<code>|<field>|<reason>` (`not_found||`,
 * `invalid_argument|cursor|`); the code becomes the API error code, with the field beside it.
 */
function sendHistoryFailure(reply: FastifyReply, error: unknown) {
  const { code, details } = error as { code?: number; details?: string };
  const httpStatus = code === undefined ? undefined : httpByGrpc[code];
  const match = /^([a-z_]{3,60})(?:\|([^|]{0,300})\|[a-z_]{0,60})?$/.exec(details ?? '');
  if (!httpStatus || !match) return sendGrpcFailure(reply, error);
  const [, problem = '', field = ''] = match;
  return reply
    .code(httpStatus)
    .type('application/json')
    .send({ error: { code: problem, message_key: `errors.${problem}`, ...(field ? { field } : {}) } });
}
