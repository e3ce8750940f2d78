import { status } from '@grpc/grpc-js';
import { crawlerV1 } from '@mimamori/contracts';
import { GrpcError } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import { unaryHandler } from '@mimamori/service-host';
import { AREA_SELECTOR_TYPES, type ContentKind, isContentKind } from '@mimamori/watch-engine/document-areas';
import { isUserAgentKind } from '@mimamori/watch-engine/user-agent-kinds';
import { sealingContext } from '../domain/open-check-job.ts';
import type { AreaRequest, Locator, PageAction, SelectorType } from '../domain/page-fetcher.ts';
import type { PreviewRender } from '../preview/preview-render.ts';
import type { PreviewProblem, PreviewService } from '../preview/preview-service.ts';
import { PreviewError } from '../preview/preview-sessions.ts';

const ACTIONS = new Set<PageAction['type']>(['click', 'enter_text', 'modifier_key', 'goto_url']);

/**
 * The gRPC face of the wizard preview; every call names the user the gateway signed in. A
 * login's texts may come sealed by the gateway, opened here with the same SECRET_KEYS.
 */
export function previewServer(preview: PreviewService, secrets?: SecretBox): crawlerV1.PreviewServiceServer {
  return {
    openPreview: handle(async (request: crawlerV1.OpenPreviewRequest) => {
      const userId = requireUser(request.userId);
      const kind = request.userAgentKind || 'none';
      if (!isUserAgentKind(kind)) invalid('invalid_user_agent');
      const viewport =
        request.viewportWidth > 0 && request.viewportHeight > 0
          ? {
              width: clamp(request.viewportWidth, 240, 3840),
              height: clamp(request.viewportHeight, 240, 4000),
            }
          : undefined;
      const opened = await preview.open(userId, {
        url: request.url,
        userAgent: {
          kind,
          ...(request.userAgentValue ? { value: request.userAgentValue } : {}),
        },
        ...(viewport ? { viewport } : {}),
        ...(request.cookies ? { cookies: request.cookies } : {}),
        useProxy: request.useProxy,
        reader: { lang: request.readerLang, timeZone: request.readerTimeZone },
      });
      if ('problem' in opened) return { sessionId: '', problem: opened.problem };
      return { sessionId: opened.sessionId, render: toRender(opened.render) };
    }),

    renderPreview: handle(async (request: crawlerV1.RenderPreviewRequest) => {
      const frame = request.frameSelector
        ? { selector: request.frameSelector, selectorType: selectorType(request.frameSelectorType) }
        : undefined;
      const rendered = await preview.render(requireUser(request.userId), request.sessionId, frame);
      return 'problem' in rendered ? { problem: rendered.problem } : { render: toRender(rendered.render) };
    }),

    evaluateArea: handle(async (request: crawlerV1.EvaluateAreaRequest) => {
      if (!request.area) invalid('missing_area');
      const area: AreaRequest = {
        areaId: 'candidate',
        ...toLocator(request.area as crawlerV1.PreviewLocator),
      };
      return preview.evaluateArea(requireUser(request.userId), request.sessionId, area);
    }),

    testLogin: handle(async (request: crawlerV1.TestLoginRequest) => {
      const verify =
        request.verifyKind === 'cookie'
          ? {
              kind: 'cookie' as const,
              name: request.verifyCookieName || invalid('missing_cookie_name'),
            }
          : request.verifyKind === 'replay'
            ? { kind: 'replay' as const }
            : invalid('invalid_verify_kind');
      const userId = requireUser(request.userId);
      const opened = request.actions.map((action, index) =>
        action.sealedValue
          ? {
              ...action,
              value: openSealed(
                secrets,
                action.sealedValue,
                sealingContext.previewLoginAction(userId, request.sessionId, index),
              ),
            }
          : action,
      );
      const outcome = await preview.testLogin(userId, request.sessionId, {
        actions: opened.map(toAction),
        verify,
      });
      return toStep(outcome);
    }),

    runActions: handle(async (request: crawlerV1.RunActionsRequest) => {
      const outcome = await preview.runActions(
        requireUser(request.userId),
        request.sessionId,
        request.actions.map(toAction),
      );
      return toStep(outcome);
    }),

    readDocument: handle(async (request: crawlerV1.ReadDocumentRequest) => {
      requireUser(request.userId);
      const agent = request.userAgentKind || 'none';
      if (!isUserAgentKind(agent)) invalid('invalid_user_agent');
      const kind = request.contentKind;
      if (kind !== '' && (!isContentKind(kind) || kind === 'page')) invalid('invalid_content_kind');
      // Areas are read only from a document read as a known kind.
      const documentKind = kind === '' ? undefined : (kind as Exclude<ContentKind, 'page'>);
      const areas = documentKind
        ? request.areas.map((area, index): AreaRequest => {
            if (!area.selector) invalid('missing_selector');
            if (!AREA_SELECTOR_TYPES[documentKind].includes(area.selectorType))
              invalid('invalid_selector_type');
            return {
              areaId: String(index),
              selector: area.selector,
              selectorType: area.selectorType as AreaRequest['selectorType'],
            };
          })
        : [];
      const read = await preview.readDocument({
        url: request.url,
        userAgent: { kind: agent, ...(request.userAgentValue ? { value: request.userAgentValue } : {}) },
        ...(request.cookies ? { cookies: request.cookies } : {}),
        useProxy: request.useProxy,
        reader: { lang: request.readerLang, timeZone: request.readerTimeZone },
        ...(documentKind ? { contentKind: documentKind } : {}),
        areas,
      });
      if (!read.ok)
        return crawlerV1.ReadDocumentResponse.fromPartial({
          problem: { code: read.code, detail: read.detail },
        });
      return crawlerV1.ReadDocumentResponse.fromPartial({
        detectedKind: read.detectedKind,
        contentKind: read.contentKind,
        lines: read.lines,
        moreLines: read.moreLines,
        areas: read.areas.map((area) => ({
          found: area.found,
          text: area.text,
          html: area.html,
          problem: area.problem ?? '',
        })),
        finalUrl: read.finalUrl,
      });
    }),

    closePreview: handle(async (request: crawlerV1.ClosePreviewRequest) => {
      await preview.close(requireUser(request.userId), request.sessionId);
      return {};
    }),
  };
}

/** unaryHandler with the preview's own errors turned into status codes. */
function handle<Request, Response>(work: (request: Request) => Promise<Response>) {
  return unaryHandler(async (request: Request) => {
    try {
      return await work(request);
    } catch (error) {
      if (!(error instanceof PreviewError)) throw error;
      const code =
        error.kind === 'not_found'
          ? status.NOT_FOUND
          : error.kind === 'exhausted'
            ? status.RESOURCE_EXHAUSTED
            : status.INVALID_ARGUMENT;
      throw new GrpcError(code, error.message);
    }
  });
}

/** `code` is snake_case: the gateway answers it as the API error code. */
function invalid(code: string): never {
  throw new GrpcError(status.INVALID_ARGUMENT, code);
}

function requireUser(userId: string): string {
  return userId || invalid('missing_user');
}

function selectorType(value: string): SelectorType {
  if (value === '' || value === 'css') return 'css';
  if (value === 'xpath') return 'xpath';
  return invalid('invalid_selector_type');
}

function toLocator(locator: crawlerV1.PreviewLocator): Locator {
  if (!locator.selector) invalid('missing_selector');
  return {
    selector: locator.selector,
    selectorType: selectorType(locator.selectorType),
    ...(locator.frameSelector
      ? { frame: { selector: locator.frameSelector, selectorType: selectorType(locator.frameSelectorType) } }
      : {}),
  };
}

function toAction(action: crawlerV1.PreviewAction): PageAction {
  if (!ACTIONS.has(action.type as PageAction['type'])) invalid('invalid_action');
  return {
    type: action.type as PageAction['type'],
    ...(action.locator ? { locator: toLocator(action.locator) } : {}),
    ...(action.value ? { value: action.value } : {}),
    skippable: action.skippable,
  };
}

function openSealed(secrets: SecretBox | undefined, sealed: string, context: string): string {
  if (!secrets) invalid('sealed_value_without_keys');
  try {
    return secrets.open(sealed, context);
  } catch {
    // Sealed for another user, session or action, or with a key this crawler does not hold.
    invalid('invalid_sealed_value');
  }
}

function toStep(outcome: { ok: boolean; problem?: PreviewProblem; render?: PreviewRender }) {
  return {
    ok: outcome.ok,
    ...(outcome.problem ? { problem: outcome.problem } : {}),
    ...(outcome.render ? { render: toRender(outcome.render) } : {}),
  };
}

function toRender(render: PreviewRender): crawlerV1.PreviewRender {
  return {
    url: render.url,
    title: render.title,
    screenshot: Buffer.from(render.screenshot.data),
    screenshotType: render.screenshot.contentType,
    imageWidth: render.screenshot.width,
    imageHeight: render.screenshot.height,
    scale: render.scale,
    frameSelector: render.frame?.selector ?? '',
    frameSelectorType: render.frame?.selectorType ?? '',
    frames: render.frames,
    elements: render.elements,
  };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
