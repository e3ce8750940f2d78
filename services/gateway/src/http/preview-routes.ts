import type { accountV1, crawlerV1 } from '@mimamori/contracts';
import {
  type AreaReading,
  type Box,
  contentKind,
  type PreviewActionBody,
  type PreviewLocatorBody,
  type PreviewRender,
  previewAnswers,
  previewBodies,
  previewRefusals,
  type StepOutcome,
  selectorType,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import { extractAreaContent, normaliseArea, validateAreaOptions } from '@mimamori/watch-engine';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PreviewCrawlers } from '../clients/preview-crawlers.ts';
import { sendAccountFailure } from './account-failure.ts';
import { answer } from './answer.ts';
import { sendApiError } from './api-error.ts';
import { requestShapeProblem } from './request-shape.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

export interface PreviewRouteDeps {
  account: accountV1.AccountServiceClient;
  /** A session opens on any crawler; each later call goes to the one holding it (ADR 0011). */
  preview: PreviewCrawlers;
  /**
   * Seals the texts a login types (passwords) for the crawler, which opens them with the same
   * SECRET_KEYS; without keys configured they travel as typed, as check jobs' cannot.
   */
  secretBox?: SecretBox | undefined;
}

/** Rendering a slow page takes up to ~30 s load + ~30 s settling, plus the screenshot. */
const PREVIEW_DEADLINE_MS = 90_000;

type PreviewName = keyof typeof previewBodies;

/**
 * The registration wizard's live preview (docs/product.md#wizard, /sr2c and /sr2m): the page in the
 * crawler's browser, for the signed-in user only. Every route is a CSRF-checked POST.
 */
export function previewRoutes(app: FastifyInstance, deps: PreviewRouteDeps) {
  const { preview } = deps;
  const call = { deadlineMs: PREVIEW_DEADLINE_MS };
  const api = app.withTypeProvider<ZodTypeProvider>();
  const options = <Name extends PreviewName>(name: Name, summary: string) => ({
    attachValidation: true,
    schema: {
      summary,
      security: [{ session: [] }],
      body: previewBodies[name],
      response: { 200: previewAnswers[name], ...previewRefusals },
    },
  });
  // The session is checked before the body, as on every signed-in route: a signed-out or deleted
  // caller hears 401 whatever it sent, a signed-in one with a malformed request 400.
  const asUser = (
    request: FastifyRequest,
    reply: FastifyReply,
    work: (userId: string, reader: { lang: string; timeZone: string }) => Promise<unknown>,
  ) =>
    answer(
      request,
      reply,
      `POST ${request.routeOptions.url}`,
      async () => {
        const sessionToken = request.cookies[SESSION_COOKIE];
        if (!sessionToken) return sendApiError(reply, 401, 'unauthenticated');
        const { userInfo } = await unary(deps.account, 'getUserInfo', { sessionToken });
        // As every signed-in route: a deleted account's session is refused too, whatever it sent. A
        // held account may still preview: a preview starts no monitoring, and what it registers
        // stays paused.
        if (!userInfo?.userId || userInfo.deletedUser) return sendApiError(reply, 401, 'unauthenticated');
        if (requestShapeProblem(request)) return sendApiError(reply, 400, 'bad_request');
        const reader = { lang: userInfo.locale?.lang ?? '', timeZone: userInfo.locale?.timezone ?? '' };
        return work(userInfo.userId, reader);
      },
      sendAccountFailure,
    );

  api.post(
    '/api/preview/open',
    options(
      'open',
      'Open a page in a new preview session (at most 3 per user; idle sessions expire after 10 minutes)',
    ),
    (request, reply) =>
      asUser(request, reply, async (userId, reader) => {
        const body = request.body;
        const opened = await unary(
          preview.opening,
          'openPreview',
          {
            userId,
            url: body.url,
            userAgentKind: body.user_agent.kind,
            userAgentValue: body.user_agent.value,
            viewportWidth: body.viewport?.width ?? 0,
            viewportHeight: body.viewport?.height ?? 0,
            cookies: body.cookies,
            useProxy: body.use_proxy,
            // The page is shown as the person's own browser would get it (and as checks get it).
            readerLang: reader.lang,
            readerTimeZone: reader.timeZone,
          },
          call,
        );
        return reply.send(
          opened.problem
            ? { problem: opened.problem }
            : { session_id: opened.sessionId, render: renderJson(opened.render) },
        );
      }),
  );

  api.post(
    '/api/preview/document',
    options(
      'document',
      'Read a URL over plain HTTP: whether it serves a page, a PDF, JSON or XML, its text, and what candidate areas read',
    ),
    (request, reply) =>
      asUser(request, reply, async (userId, reader) => {
        const body = request.body;
        const read = await unary(
          preview.opening,
          'readDocument',
          {
            userId,
            url: body.url,
            userAgentKind: body.user_agent.kind,
            userAgentValue: body.user_agent.value,
            cookies: body.cookies,
            useProxy: body.use_proxy,
            readerLang: reader.lang,
            readerTimeZone: reader.timeZone,
            contentKind: body.content_kind ?? '',
            areas: body.areas.map((area) => ({
              selector: area.selector,
              selectorType: area.selector_type,
              frameSelector: '',
              frameSelectorType: '',
            })),
          },
          call,
        );
        if (read.problem) return reply.send({ problem: read.problem });
        return reply.send({
          detected_kind: contentKind.parse(read.detectedKind),
          content_kind: contentKind.parse(read.contentKind),
          final_url: read.finalUrl,
          lines: read.lines,
          more_lines: read.moreLines,
          areas: read.areas.map((area, index) => {
            const options = body.areas[index]?.options;
            return {
              found: area.found,
              text: area.text,
              problem: area.problem,
              ...(options ? normalisedJson(area, options) : {}),
            };
          }),
        });
      }),
  );

  api.post(
    '/api/preview/render',
    options('render', 'Render the page again, or inside a frame'),
    (request, reply) =>
      asUser(request, reply, async (userId) => {
        const body = request.body;
        const rendered = await unary(
          await preview.holding(request.body.session_id),
          'renderPreview',
          {
            userId,
            sessionId: body.session_id,
            frameSelector: body.frame?.selector ?? '',
            frameSelectorType: body.frame ? body.frame.selector_type : '',
          },
          call,
        );
        return reply.send(
          rendered.problem ? { problem: rendered.problem } : { render: renderJson(rendered.render) },
        );
      }),
  );

  api.post(
    '/api/preview/area',
    options('area', 'Evaluate a candidate area: its visible text, and whether HTTP mode reads the same text'),
    (request, reply) =>
      asUser(request, reply, async (userId) => {
        const body = request.body;
        const area = await unary(
          await preview.holding(request.body.session_id),
          'evaluateArea',
          { userId, sessionId: body.session_id, area: locatorMessage(body.area) },
          call,
        );
        return reply.send({
          found: area.found,
          text: area.text,
          html: area.html,
          http_suffices: area.httpSuffices,
          name: area.name,
          ...(body.options ? normalisedJson(area, body.options) : {}),
          ...(area.problem ? { problem: area.problem } : {}),
        });
      }),
  );

  api.post(
    '/api/preview/login',
    options(
      'login',
      'Test a login from a signed-out state, verified by a cookie or by the replay succeeding',
    ),
    (request, reply) =>
      asUser(request, reply, async (userId) => {
        const body = request.body;
        const outcome = await unary(
          await preview.holding(request.body.session_id),
          'testLogin',
          {
            userId,
            sessionId: body.session_id,
            actions: body.actions.map((action, index) =>
              sealedLoginAction(
                action,
                deps.secretBox,
                `preview:${userId}:${body.session_id}:login:${index}`,
              ),
            ),
            verifyKind: body.verify.kind,
            verifyCookieName: body.verify.cookie_name,
          },
          call,
        );
        return reply.send(stepJson(outcome));
      }),
  );

  api.post(
    '/api/preview/actions',
    options('actions', 'Run actions on the page and render the result'),
    (request, reply) =>
      asUser(request, reply, async (userId) => {
        const body = request.body;
        const outcome = await unary(
          await preview.holding(request.body.session_id),
          'runActions',
          { userId, sessionId: body.session_id, actions: body.actions.map(actionMessage) },
          call,
        );
        return reply.send(stepJson(outcome));
      }),
  );

  api.post('/api/preview/close', options('close', 'Close a preview session'), (request, reply) =>
    asUser(request, reply, async (userId) => {
      await unary(await preview.holding(request.body.session_id), 'closePreview', {
        userId,
        sessionId: request.body.session_id,
      });
      return reply.send({ status: 'closed' });
    }),
  );
}

function locatorMessage(value: PreviewLocatorBody): crawlerV1.PreviewLocator {
  return {
    selector: value.selector,
    selectorType: value.selector_type,
    frameSelector: value.frame_selector,
    frameSelectorType: value.frame_selector ? value.frame_selector_type || 'css' : '',
  };
}

function actionMessage(value: PreviewActionBody): crawlerV1.PreviewAction {
  return {
    type: value.type,
    ...(value.locator ? { locator: locatorMessage(value.locator) } : {}),
    value: value.value,
    skippable: value.skippable,
    sealedValue: '',
  };
}

/** A typed text sealed for one user's preview session and action (crawler.proto's PreviewAction). */
function sealedLoginAction(
  value: PreviewActionBody,
  secretBox: SecretBox | undefined,
  context: string,
): crawlerV1.PreviewAction {
  const message = actionMessage(value);
  if (!secretBox || value.type !== 'enter_text' || !value.value) return message;
  return { ...message, value: '', sealedValue: secretBox.seal(value.value, context) };
}

function stepJson(outcome: {
  ok: boolean;
  problem?: crawlerV1.PreviewProblem;
  render?: crawlerV1.PreviewRender;
}): StepOutcome {
  return {
    ok: outcome.ok,
    ...(outcome.problem ? { problem: outcome.problem } : {}),
    ...(outcome.render ? { render: renderJson(outcome.render) } : {}),
  };
}

/**
 * The area's content as the watch engine will compare it under these options (tags stripped or
 * not, dates, numbers, words and patterns removed), or the first option it refuses.
 */
function normalisedJson(
  area: { found: boolean; text: string; html: string },
  options: Record<string, unknown>,
): Pick<AreaReading, 'normalised_text' | 'options_problem'> {
  const checked = validateAreaOptions(options);
  if (!checked.ok) {
    const [problem] = checked.problems;
    return { options_problem: { path: problem?.path ?? '', code: problem?.code ?? 'invalid_type' } };
  }
  if (!area.found) return { normalised_text: '' };
  const content = extractAreaContent(
    { html: area.html, text: area.text },
    checked.value.stripTags,
    checked.value.excludeElements,
  );
  return { normalised_text: normaliseArea(content, checked.value).text };
}

const boxJson = (box: crawlerV1.PreviewBox | undefined): Box => box ?? { x: 0, y: 0, width: 0, height: 0 };

/** The screenshot travels as a data URL the SPA can put straight into an <img>. */
function renderJson(render: crawlerV1.PreviewRender | undefined): PreviewRender {
  // The crawler answers an opened or rendered page with its picture, or with a problem instead.
  if (!render) throw new Error('the crawler answered without the page or a problem');
  return {
    url: render.url,
    title: render.title,
    screenshot: `data:${render.screenshotType};base64,${Buffer.from(render.screenshot).toString('base64')}`,
    image_width: render.imageWidth,
    image_height: render.imageHeight,
    scale: render.scale,
    frame: render.frameSelector
      ? { selector: render.frameSelector, selector_type: selectorType.parse(render.frameSelectorType) }
      : null,
    frames: render.frames.map((frame) => ({ ...frame, box: boxJson(frame.box) })),
    elements: render.elements.map((element) => ({ ...element, box: boxJson(element.box) })),
  };
}
