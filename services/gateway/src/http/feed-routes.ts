import { createHash } from 'node:crypto';
import { status as grpcStatus } from '@grpc/grpc-js';
import { type BlobStore, contentTypeForKey } from '@mimamori/blob-store';
import type { accountV1, diffV1, targetV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Allowance } from './allowance.ts';
import { answer } from './answer.ts';
import { sendApiError, sendGrpcFailure } from './api-error.ts';
import { atomFeed, type Feed, type FeedEntry, rssFeed } from './feed-document.ts';
import { updateSummaryJson } from './history-json.ts';
import { pictureKey } from './history-routes.ts';
import { callerOf, type SessionCaller } from './session-caller.ts';

export interface FeedRouteDeps {
  account: accountV1.AccountServiceClient;
  target: targetV1.TargetServiceClient;
  history: diffV1.HistoryServiceClient;
  blobs: BlobStore;
  publicUrl?: string | undefined;
  allowance: Allowance;
}

/** Entries a feed holds: the newest updates, of every site together for the account's feed. */
const FEED_ENTRIES = 50;
/** Characters of an update's diff an entry's summary keeps. */
const SUMMARY_CHARS = 600;
// The web app's pages for one site's history (web/src/route-paths.ts), as the update mails link.
const HISTORY_PATHS: Record<number, string> = { 1: '/history', 2: '/target2' };
const FORMATS = {
  'atom.xml': { type: 'application/atom+xml; charset=utf-8', write: atomFeed },
  'rss.xml': { type: 'application/rss+xml; charset=utf-8', write: rssFeed },
} as const;
const hide = { schema: { hide: true } };

type FeedParams = { token: string; format: string; id?: string };

/**
 * Atom and RSS 2.0 feeds of the account's updates (docs/api.md#feeds), for every site or one, at
 * URLs holding the account's secret feed token: no session or header, so any feed reader can
 * poll them. An unknown or rotated token is 404; so is a site that is not the token's account's.
 * The after picture is served under the same token, so its URL is as unguessable as the feed's.
 */
export function feedRoutes(app: FastifyInstance, deps: FeedRouteDeps) {
  const asOwner = (
    request: FastifyRequest<{ Params: FeedParams }>,
    reply: FastifyReply,
    work: (owner: SessionCaller & { lang: 'ja' | 'en' }) => Promise<unknown>,
  ) =>
    answer(
      request,
      reply,
      `GET ${request.routeOptions.url}`,
      async () => {
        const { token } = request.params;
        if (!deps.allowance.take(createHash('sha256').update(token).digest('base64url'))) {
          reply.header('retry-after', String(Math.ceil(1 / deps.allowance.perSecond)));
          return sendApiError(reply, 429, 'rate_limited');
        }
        const { userInfo } = await unary(deps.account, 'getFeedOwner', { feedToken: token });
        if (!userInfo?.userId) return sendApiError(reply, 404, 'feed_not_found');
        await work({ ...callerOf(userInfo), lang: userInfo.locale?.lang === 'en' ? 'en' : 'ja' });
      },
      sendFeedFailure,
    );

  app.get<{ Params: FeedParams }>('/feeds/:token/:format', hide, (request, reply) =>
    asOwner(request, reply, async (owner) => {
      const format = FORMATS[request.params.format as keyof typeof FORMATS];
      if (!format) return sendApiError(reply, 404, 'not_found');
      const { rows } = await unary(deps.target, 'listTargets', { caller: owner.caller });
      const entries = (
        await Promise.all(
          rows.map((row) => siteEntries(deps, request, owner, row.id, row.ver, row.label || row.url)),
        )
      ).flat();
      entries.sort((a, b) => b.detectedAt.getTime() - a.detectedAt.getTime());
      const feed: Feed = {
        id: `urn:mimamori:feed:${createHash('sha256').update(owner.caller.userId).digest('hex').slice(0, 32)}`,
        title: owner.lang === 'ja' ? 'Mimamori: すべてのサイトの更新' : 'Mimamori: updates of every site',
        selfUrl: publicLink(request, deps.publicUrl, request.url),
        pageUrl: publicLink(request, deps.publicUrl, '/'),
        lang: owner.lang,
        entries: entries.slice(0, FEED_ENTRIES),
      };
      return sendFeed(reply, format, feed);
    }),
  );

  app.get<{ Params: FeedParams }>('/feeds/:token/sites/:id/:format', hide, (request, reply) =>
    asOwner(request, reply, async (owner) => {
      const format = FORMATS[request.params.format as keyof typeof FORMATS];
      if (!format) return sendApiError(reply, 404, 'not_found');
      const site = await unary(deps.target, 'getTarget', {
        caller: owner.caller,
        targetId: request.params.id ?? '',
      });
      const label = site.row?.label || site.row?.url || '';
      const entries = await siteEntries(deps, request, owner, site.targetId, site.version, label);
      const feed: Feed = {
        id: `urn:mimamori:site:${site.targetId}`,
        title: owner.lang === 'ja' ? `Mimamori: ${label} の更新` : `Mimamori: updates of ${label}`,
        selfUrl: publicLink(request, deps.publicUrl, request.url),
        pageUrl: historyLink(request, deps.publicUrl, site.version, site.targetId),
        lang: owner.lang,
        entries: entries.slice(0, FEED_ENTRIES),
      };
      return sendFeed(reply, format, feed);
    }),
  );

  app.get<{ Params: FeedParams & { update: string }; Querystring: { day?: string } }>(
    '/feeds/:token/sites/:id/updates/:update/after.webp',
    hide,
    (request, reply) =>
      asOwner(request, reply, async (owner) => {
        const day = request.query.day ?? '';
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return sendApiError(reply, 404, 'not_found');
        const key = await pictureKey(deps.history, owner.caller.userId, {
          id: request.params.id ?? '',
          image: 'after',
          update: request.params.update,
          day,
        });
        const blob = key ? await deps.blobs.get(key) : null;
        if (!key || !blob) return sendApiError(reply, 404, 'not_found');
        return reply
          .header('cache-control', 'private, max-age=604800, immutable')
          .header('x-content-type-options', 'nosniff')
          .type(blob.contentType ?? contentTypeForKey(key) ?? 'application/octet-stream')
          .send(Buffer.from(blob.data));
      }),
  );
}

/**
 * Where people and readers look for a feed first answers 404, not the web app: no feed exists
 * without the account's token. Registered whether or not the feeds themselves are.
 */
export function feedsNeedToken(app: FastifyInstance) {
  for (const path of ['/rss', '/feed', '/atom.xml', '/rss.xml', '/feeds', '/feeds/*']) {
    app.get(path, hide, (_request, reply) => sendApiError(reply, 404, 'feed_not_found'));
  }
}

/** The newest updates of one of the owner's sites, as feed entries. */
async function siteEntries(
  deps: FeedRouteDeps,
  request: FastifyRequest<{ Params: FeedParams }>,
  owner: SessionCaller & { lang: 'ja' | 'en' },
  targetId: string,
  version: number,
  label: string,
): Promise<FeedEntry[]> {
  const page = await nothingWhenUnheard(
    unary(deps.history, 'listHistory', {
      userId: owner.caller.userId,
      targetId,
      filter: 'update',
      cursor: '',
      direction: 'older',
      pageSize: FEED_ENTRIES,
      day: '',
      timeZone: 'UTC',
    }),
  );
  return page.flatMap(({ update, completedAt }) => {
    if (!update) return [];
    const detectedAt = update.detectedAt ?? completedAt ?? new Date(0);
    const day = detectedAt.toISOString().slice(0, 10);
    const base = `/feeds/${encodeURIComponent(request.params.token)}/sites/${encodeURIComponent(targetId)}`;
    return [
      {
        updateId: update.updateId,
        // The update's one line leads, as in the mail's subject (docs/product.md#summary); areas
        // are named by id here, the list of sites carrying no area labels.
        title: `${updateSummaryJson(update.areas, new Map())[owner.lang]}${owner.lang === 'ja' ? '｜' : ' | '}${label}`,
        historyUrl: historyLink(request, deps.publicUrl, version, targetId),
        imageUrl: update.afterScreenshotBlobKey
          ? publicLink(
              request,
              deps.publicUrl,
              `${base}/updates/${encodeURIComponent(update.updateId)}/after.webp?day=${day}`,
            )
          : null,
        diff: shortDiff(update.areas.map((area) => area.diffText)),
        detectedAt,
      },
    ];
  });
}

function shortDiff(texts: string[]): string {
  const whole = texts.filter(Boolean).join('\n\n');
  return whole.length > SUMMARY_CHARS ? `${whole.slice(0, SUMMARY_CHARS)}…` : whole;
}

/** The diff service has not heard of a site registered moments ago: it has no updates yet. */
async function nothingWhenUnheard(call: Promise<diffV1.ListHistoryResponse>): Promise<diffV1.HistoryEntry[]> {
  try {
    return (await call).entries;
  } catch (error) {
    if ((error as { code?: number }).code === grpcStatus.NOT_FOUND) return [];
    throw error;
  }
}

function publicLink(request: FastifyRequest, publicUrl: string | undefined, path: string): string {
  return new URL(path, publicUrl ?? `${request.protocol}://${request.host}`).toString();
}

function historyLink(
  request: FastifyRequest,
  publicUrl: string | undefined,
  version: number,
  targetId: string,
) {
  const path = HISTORY_PATHS[version] ?? HISTORY_PATHS[2];
  return publicLink(request, publicUrl, `${path}?id=${encodeURIComponent(targetId)}`);
}

function sendFeed(reply: FastifyReply, format: (typeof FORMATS)[keyof typeof FORMATS], feed: Feed) {
  // Readers poll; a few minutes' staleness costs nothing and spares the history reads.
  return reply.header('cache-control', 'private, max-age=300').type(format.type).send(format.write(feed));
}

/** Another account's site, or an id that is no site's, is simply not in this feed. */
function sendFeedFailure(reply: FastifyReply, error: unknown) {
  const code = (error as { code?: number }).code;
  if (code === grpcStatus.NOT_FOUND || code === grpcStatus.INVALID_ARGUMENT) {
    const details = (error as { details?: string }).details ?? '';
    return sendApiError(reply, 404, details.startsWith('feed_not_found') ? 'feed_not_found' : 'not_found');
  }
  return sendGrpcFailure(reply, error);
}
