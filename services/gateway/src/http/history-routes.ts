import { status as grpcStatus } from '@grpc/grpc-js';
import { type BlobStore, contentTypeForKey } from '@mimamori/blob-store';
import type { accountV1, diffV1, targetV1 } from '@mimamori/contracts';
import { unary, withIncomingHttpContext } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendApiError, sendGrpcFailure } from './api-error.ts';
import { areaLabels, historyEntryJson, registrationDataJson } from './history-json.ts';
import { type SessionCaller, sessionCaller } from './session-caller.ts';
import { siteRowJson } from './target-json.ts';

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
const PAGE_MAX = 100;

const id = z.string().min(1).max(100);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const historyQuery = z.object({
  id,
  filter: z.enum(['all', 'update', 'error']).default('all'),
  day: day.optional(),
  cursor: z.string().max(500).optional(),
  direction: z.enum(['older', 'newer']).default('older'),
  size: z.coerce.number().int().min(1).max(PAGE_MAX).default(20),
});

const screenshotQuery = z.discriminatedUnion('image', [
  z.object({ id, image: z.enum(['before', 'after']), update: z.string().min(1).max(200), day }),
  z.object({ id, image: z.literal('registration_page') }),
  z.object({ id, image: z.literal('registration_area'), area: z.string().min(1).max(64) }),
]);

type Handler = (session: SessionCaller, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const EMPTY_PAGE: diffV1.ListHistoryResponse = { entries: [], olderCursor: '', newerCursor: '' };

/**
 * The site detail (docs/product.md#history): the history of checks and updates filtered all / update /
 * error, older/newer paging, all days or one day in the user's time zone, the data at
 * registration, and the before/after pictures. Opening the history clears the site's NEW flag.
 * The target service says whether the site is the caller's; the diff service answers only for
 * that user, and a picture is served only when it is found in the caller's own history.
 */
export function historyRoutes(app: FastifyInstance, deps: HistoryRouteDeps) {
  const { target, history, blobs } = deps;
  const route = (path: string, handle: Handler) =>
    app.get(path, (request, reply) =>
      withIncomingHttpContext(request.headers, `GET ${path}`, async () => {
        const session = await sessionCaller(deps.account, request, reply);
        if (!session) return reply;
        try {
          return await handle(session, request, reply);
        } catch (error) {
          return sendHistoryFailure(reply, error);
        }
      }),
    );

  for (const [version, prefix] of [
    [1, '/api'],
    [2, '/api/v2'],
  ] as const) {
    route(`${prefix}/history`, async ({ caller, timeZone }, request, reply) => {
      const parsed = historyQuery.safeParse(request.query);
      if (!parsed.success) return sendQueryProblem(reply, parsed.error);
      const query = parsed.data;
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
        target: siteRowJson(seen?.row ?? site.row),
        filter: query.filter,
        day: query.day ?? null,
        time_zone: timeZone,
        entries: page.entries.map((entry) => historyEntryJson(site.targetId, entry, labels)),
        older_cursor: page.olderCursor || null,
        newer_cursor: page.newerCursor || null,
      });
    });

    route(`${prefix}/registration_data`, async ({ caller }, request, reply) => {
      const parsed = id.safeParse((request.query as Record<string, unknown>).id);
      if (!parsed.success) return sendApiError(reply, 400, 'bad_request');
      const site = await unary(target, 'getTarget', { caller, targetId: parsed.data });
      if (site.version !== version) return sendApiError(reply, 404, 'not_found');
      const data = await heardOf(
        unary(history, 'getRegistrationData', { userId: caller.userId, targetId: site.targetId }),
        { areas: [], pageScreenshotBlobKey: '' },
      );
      return reply.send({
        target: siteRowJson(site.row),
        ...registrationDataJson(site.targetId, data, areaLabels(site.settings)),
      });
    });
  }

  route('/api/v2/screenshot', async ({ caller }, request, reply) => {
    const parsed = screenshotQuery.safeParse(request.query);
    if (!parsed.success) return sendQueryProblem(reply, parsed.error);
    const key = await pictureKey(history, caller.userId, parsed.data);
    const blob = key ? await blobs.get(key) : null;
    if (!key || !blob) return sendApiError(reply, 404, 'not_found');
    return reply
      .header('cache-control', IMAGE_CACHE)
      .header('x-content-type-options', 'nosniff')
      .type(blob.contentType ?? contentTypeForKey(key) ?? 'application/octet-stream')
      .send(Buffer.from(blob.data));
  });
}

type PictureRef = z.infer<typeof screenshotQuery>;

/** The picture's blob key as the caller's own history names it, or null when it does not. */
async function pictureKey(
  history: diffV1.HistoryServiceClient,
  userId: string,
  ref: PictureRef,
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
      pageSize: PAGE_MAX,
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

function sendQueryProblem(reply: FastifyReply, error: z.ZodError) {
  const field = error.issues[0]?.path.join('.') ?? '';
  return reply
    .code(400)
    .type('application/json')
    .send({ error: { code: 'bad_request', message_key: 'errors.bad_request', field } });
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
