import type { accountV1, crawlerV1 } from '@mimamori/contracts';
import { unary, withIncomingHttpContext } from '@mimamori/runtime';
import { extractAreaContent, normaliseArea, validateAreaOptions } from '@mimamori/watch-engine';
import { USER_AGENT_KINDS } from '@mimamori/watch-engine/user-agent-kinds';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PreviewCrawlers } from '../preview-crawlers.ts';
import { sendAccountFailure } from './account-failure.ts';
import { sendApiError } from './api-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

export interface PreviewRouteDeps {
  account: accountV1.AccountServiceClient;
  /** A session opens on any crawler; each later call goes to the one holding it (ADR 0011). */
  preview: PreviewCrawlers;
}

/** Rendering a slow page takes up to ~30 s load + ~30 s settling, plus the screenshot. */
const PREVIEW_DEADLINE_MS = 90_000;

const selectorType = z.enum(['css', 'xpath']).default('css');
const locator = z.object({
  selector: z.string().min(1).max(2_000),
  selector_type: selectorType,
  frame_selector: z.string().max(2_000).default(''),
  frame_selector_type: z.enum(['css', 'xpath', '']).default(''),
});
const action = z.object({
  type: z.enum(['click', 'enter_text', 'modifier_key', 'goto_url']),
  locator: locator.optional(),
  value: z.string().max(2_000).default(''),
  skippable: z.boolean().default(false),
});
const session = { session_id: z.string().min(1).max(100) };

const bodies = {
  open: z.object({
    url: z.string().min(1).max(4_000),
    user_agent: z
      .object({
        kind: z.enum(USER_AGENT_KINDS),
        value: z.string().max(500).default(''),
      })
      .default({ kind: 'none', value: '' }),
    viewport: z
      .object({ width: z.number().int().min(240).max(3_840), height: z.number().int().min(240).max(4_000) })
      .optional(),
    cookies: z.string().max(8_000).default(''),
    use_proxy: z.boolean().default(false),
  }),
  render: z.object({
    ...session,
    frame: z.object({ selector: z.string().min(1).max(2_000), selector_type: selectorType }).optional(),
  }),
  area: z.object({
    ...session,
    area: locator,
    // The area's options as the wizard edits them; the answer then holds the text checks compare.
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  login: z.object({
    ...session,
    actions: z.array(action).max(50),
    verify: z.object({ kind: z.enum(['cookie', 'replay']), cookie_name: z.string().max(200).default('') }),
  }),
  actions: z.object({ ...session, actions: z.array(action).max(50) }),
  close: z.object(session),
};

type Bodies = { [K in keyof typeof bodies]: z.infer<(typeof bodies)[K]> };

/**
 * The registration wizard's live preview (docs/product.md#wizard, /sr2c and /sr2m): the page in the
 * crawler's browser, for the signed-in user only. Every route is a CSRF-checked POST.
 */
export function previewRoutes(app: FastifyInstance, deps: PreviewRouteDeps) {
  const { preview } = deps;
  const call = { deadlineMs: PREVIEW_DEADLINE_MS };

  route(app, deps, 'open', async (userId, body) => {
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
      },
      call,
    );
    return opened.problem
      ? { problem: opened.problem }
      : { session_id: opened.sessionId, render: renderJson(opened.render) };
  });

  route(app, deps, 'render', async (userId, body) => {
    const rendered = await unary(
      await preview.holding(body.session_id),
      'renderPreview',
      {
        userId,
        sessionId: body.session_id,
        frameSelector: body.frame?.selector ?? '',
        frameSelectorType: body.frame ? body.frame.selector_type : '',
      },
      call,
    );
    return rendered.problem ? { problem: rendered.problem } : { render: renderJson(rendered.render) };
  });

  route(app, deps, 'area', async (userId, body) => {
    const area = await unary(
      await preview.holding(body.session_id),
      'evaluateArea',
      { userId, sessionId: body.session_id, area: locatorMessage(body.area) },
      call,
    );
    return {
      found: area.found,
      text: area.text,
      html: area.html,
      http_suffices: area.httpSuffices,
      ...(body.options ? normalisedJson(area, body.options) : {}),
      ...(area.problem ? { problem: area.problem } : {}),
    };
  });

  route(app, deps, 'login', async (userId, body) => {
    const outcome = await unary(
      await preview.holding(body.session_id),
      'testLogin',
      {
        userId,
        sessionId: body.session_id,
        actions: body.actions.map(actionMessage),
        verifyKind: body.verify.kind,
        verifyCookieName: body.verify.cookie_name,
      },
      call,
    );
    return stepJson(outcome);
  });

  route(app, deps, 'actions', async (userId, body) => {
    const outcome = await unary(
      await preview.holding(body.session_id),
      'runActions',
      { userId, sessionId: body.session_id, actions: body.actions.map(actionMessage) },
      call,
    );
    return stepJson(outcome);
  });

  route(app, deps, 'close', async (userId, body) => {
    await unary(await preview.holding(body.session_id), 'closePreview', {
      userId,
      sessionId: body.session_id,
    });
    return { status: 'closed' };
  });
}

function route<K extends keyof Bodies>(
  app: FastifyInstance,
  deps: PreviewRouteDeps,
  name: K,
  handle: (userId: string, body: Bodies[K]) => Promise<unknown>,
) {
  const path = `/api/preview/${name}`;
  app.post(path, (request: FastifyRequest, reply: FastifyReply) =>
    withIncomingHttpContext(request.headers, `POST ${path}`, async () => {
      const sessionToken = request.cookies[SESSION_COOKIE];
      if (!sessionToken) return sendApiError(reply, 401, 'unauthenticated');
      const parsed = bodies[name].safeParse(request.body ?? {});
      if (!parsed.success) return sendApiError(reply, 400, 'bad_request');
      try {
        const { userInfo } = await unary(deps.account, 'getUserInfo', { sessionToken });
        if (!userInfo?.userId) return sendApiError(reply, 401, 'unauthenticated');
        return reply.send(await handle(userInfo.userId, parsed.data as Bodies[K]));
      } catch (error) {
        return sendAccountFailure(reply, error);
      }
    }),
  );
}

function locatorMessage(value: z.infer<typeof locator>): crawlerV1.PreviewLocator {
  return {
    selector: value.selector,
    selectorType: value.selector_type,
    frameSelector: value.frame_selector,
    frameSelectorType: value.frame_selector ? value.frame_selector_type || 'css' : '',
  };
}

function actionMessage(value: z.infer<typeof action>): crawlerV1.PreviewAction {
  return {
    type: value.type,
    ...(value.locator ? { locator: locatorMessage(value.locator) } : {}),
    value: value.value,
    skippable: value.skippable,
  };
}

function stepJson(outcome: {
  ok: boolean;
  problem?: crawlerV1.PreviewProblem;
  render?: crawlerV1.PreviewRender;
}) {
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
) {
  const checked = validateAreaOptions(options);
  if (!checked.ok) {
    const [problem] = checked.problems;
    return { options_problem: { path: problem?.path ?? '', code: problem?.code ?? 'invalid_type' } };
  }
  if (!area.found) return { normalised_text: '' };
  const content = extractAreaContent({ html: area.html, text: area.text }, checked.value.stripTags);
  return { normalised_text: normaliseArea(content, checked.value).text };
}

const boxJson = (box: crawlerV1.PreviewBox | undefined) => box ?? { x: 0, y: 0, width: 0, height: 0 };

/** The screenshot travels as a data URL the SPA can put straight into an <img>. */
function renderJson(render: crawlerV1.PreviewRender | undefined) {
  if (!render) return null;
  return {
    url: render.url,
    screenshot: `data:${render.screenshotType};base64,${Buffer.from(render.screenshot).toString('base64')}`,
    image_width: render.imageWidth,
    image_height: render.imageHeight,
    scale: render.scale,
    frame: render.frameSelector
      ? { selector: render.frameSelector, selector_type: render.frameSelectorType }
      : null,
    frames: render.frames.map((frame) => ({ ...frame, box: boxJson(frame.box) })),
    elements: render.elements.map((element) => ({ ...element, box: boxJson(element.box) })),
  };
}
