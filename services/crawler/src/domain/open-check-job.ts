import type { checksEventsV1 } from '@mimamori/contracts';
import type { SecretBox } from '@mimamori/secret-box';
import { AREA_SELECTOR_TYPES, type ContentKind, isContentKind } from '@mimamori/watch-engine/document-areas';
import { isUserAgentKind } from '@mimamori/watch-engine/user-agent-kinds';
import type {
  AreaRequest,
  FetchRequest,
  Locator,
  PageAction,
  PageActionType,
  SelectorType,
  UserAgentKind,
} from './page-fetcher.ts';

type RunCheck = checksEventsV1.RunCheck;

/** A check job that cannot run as sent; its message never carries a secret. */
export class InvalidJobError extends Error {
  override readonly name = 'InvalidJobError';
}

/** Where each sealed value of a target was sealed; the context binds it to its field and target. */
export const sealingContext = {
  cookies: (targetId: string) => `target:${targetId}:cookies`,
  session: (targetId: string) => `target:${targetId}:session`,
  /** What a full render kept for asking the page's requests again (ADR 0031). */
  revalidation: (targetId: string) => `target:${targetId}:revalidation`,
  action: (targetId: string, index: number) => `target:${targetId}:actions:${index}`,
  loginAction: (targetId: string, index: number) => `target:${targetId}:login:${index}`,
  /** A login typed in the wizard, sealed by the gateway for one user's preview session. */
  previewLoginAction: (userId: string, sessionId: string, index: number) =>
    `preview:${userId}:${sessionId}:login:${index}`,
};

/**
 * Turns a check job from the queue into a fetch request, opening its sealed values: this is
 * the only place the crawler holds them in the clear, and only in memory for the check.
 */
export function openCheckJob(
  job: RunCheck,
  secrets: SecretBox | undefined,
  pickProxy: () => string | undefined,
): FetchRequest {
  const open = (sealed: string, context: string, what: string) => {
    if (!sealed) return undefined;
    if (!secrets) throw new InvalidJobError(`the check carries ${what} but SECRET_KEYS is not configured`);
    try {
      return secrets.open(sealed, context);
    } catch {
      throw new InvalidJobError(`the ${what} could not be opened (wrong key or context)`);
    }
  };
  const mode = job.fetchMode === 'browser' ? 'browser' : job.fetchMode === 'http' ? 'http' : undefined;
  if (!mode) throw new InvalidJobError(`unknown fetch mode ${JSON.stringify(job.fetchMode)}`);
  const contentKind = job.contentKind || 'page';
  if (!isContentKind(contentKind))
    throw new InvalidJobError(`unknown content kind ${JSON.stringify(contentKind)}`);
  // Documents are read over plain HTTP only; the target service never plans one for the browser.
  if (contentKind !== 'page' && mode !== 'http')
    throw new InvalidJobError(`a ${contentKind} target is read in http mode, not ${mode}`);
  const actions = (list: checksEventsV1.CheckAction[], context: (index: number) => string, what: string) =>
    list.map((action, index): PageAction => {
      const value = action.sealedValue
        ? open(action.sealedValue, context(index), `${what} ${index + 1}'s text`)
        : action.value;
      return {
        type: actionType(action.type),
        ...(action.locator ? { locator: locator(action.locator) } : {}),
        ...(value ? { value } : {}),
        skippable: action.skippable,
      };
    });
  const cookies = open(job.sealedCookies, sealingContext.cookies(job.targetId), 'cookies');
  const sessionState = open(job.sealedSessionState, sealingContext.session(job.targetId), 'session state');
  const revalidate = mode === 'browser' && !job.alwaysRender;
  // Only a shortcut rides on it: a state that does not open (a rotated key) means a full render.
  const revalidation =
    revalidate && job.sealedRevalidationState && secrets
      ? openOrNothing(() =>
          secrets.open(job.sealedRevalidationState, sealingContext.revalidation(job.targetId)),
        )
      : undefined;
  const proxyUrl = job.useProxy ? pickProxy() : undefined;
  // Fetching directly instead would quietly drop what the site asked for.
  if (job.useProxy && !proxyUrl)
    throw new InvalidJobError('the site uses a proxy, and this crawler has no proxy pool (CRAWLER_PROXIES)');
  return {
    url: job.url,
    mode,
    ...(contentKind !== 'page' ? { contentKind } : {}),
    userAgent: {
      kind: userAgentKind(job.userAgentKind),
      ...(job.userAgentValue ? { value: job.userAgentValue } : {}),
    },
    ...(job.viewportWidth && job.viewportHeight
      ? { viewport: { width: job.viewportWidth, height: job.viewportHeight } }
      : {}),
    ...(cookies ? { cookies } : {}),
    ...(job.login
      ? {
          login: {
            actions: actions(
              job.login.actions,
              (index) => sealingContext.loginAction(job.targetId, index),
              'login action',
            ),
            verify:
              job.login.verifyKind === 'cookie'
                ? { kind: 'cookie' as const, name: job.login.verifyCookieName }
                : { kind: 'replay' as const },
          },
        }
      : {}),
    ...(sessionState ? { sessionState } : {}),
    ...(revalidate ? { revalidate } : {}),
    ...(revalidation ? { revalidation } : {}),
    targetId: job.targetId,
    ...(job.previousAreasDigest ? { previousAreasDigest: job.previousAreasDigest } : {}),
    ...(job.readerLang || job.readerTimeZone
      ? { reader: { lang: job.readerLang, timeZone: job.readerTimeZone } }
      : {}),
    actions: actions(job.actions, (index) => sealingContext.action(job.targetId, index), 'action'),
    areas: job.areas.map((area): AreaRequest => {
      if (!area.locator) throw new InvalidJobError(`area ${area.areaId} has no locator`);
      if (contentKind !== 'page')
        return { areaId: area.areaId, ...documentLocator(area.locator, contentKind) };
      const excluded = excludedElementsOf(job.watch?.areas.find((watched) => watched.areaId === area.areaId));
      return {
        areaId: area.areaId,
        ...locator(area.locator),
        ...(excluded.length > 0 ? { excludeElements: excluded } : {}),
      };
    }),
    screenshot: job.screenshot === 'page' || job.screenshot === 'areas' ? job.screenshot : 'none',
    ...(proxyUrl ? { proxyUrl } : {}),
    // Lets browser mode keep a warm context for the same account's consecutive checks.
    ...(job.userId ? { accountId: job.userId } : {}),
  };
}

/**
 * The elements an area excludes, from its watch options as the target service validated them:
 * screenshots mask them. Options that do not parse mask nothing (the diff service reports them).
 */
function excludedElementsOf(watched: checksEventsV1.WatchedArea | undefined): string[] {
  if (!watched?.optionsJson) return [];
  try {
    const options: unknown = JSON.parse(watched.optionsJson);
    const list = (options as { excludeElements?: unknown } | null)?.excludeElements;
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

function openOrNothing(open: () => string): string | undefined {
  try {
    return open();
  } catch {
    return undefined;
  }
}

function locator(sent: checksEventsV1.CheckLocator): Locator {
  if (!sent.selector) throw new InvalidJobError('an area or action has no selector');
  return {
    selector: sent.selector,
    selectorType: selectorType(sent.selectorType),
    ...(sent.frameSelector
      ? { frame: { selector: sent.frameSelector, selectorType: selectorType(sent.frameSelectorType) } }
      : {}),
  };
}

/** A document's area: its selector as typed, with a selector type its kind reads. */
function documentLocator(sent: checksEventsV1.CheckLocator, kind: Exclude<ContentKind, 'page'>) {
  if (!sent.selector) throw new InvalidJobError('an area has no selector');
  const selectorType = AREA_SELECTOR_TYPES[kind].find((type) => type === sent.selectorType);
  if (!selectorType)
    throw new InvalidJobError(`a ${kind} area is not found by ${JSON.stringify(sent.selectorType)}`);
  return { selector: sent.selector, selectorType: selectorType as AreaRequest['selectorType'] };
}

function selectorType(sent: string): SelectorType {
  if (sent === 'css' || sent === 'xpath') return sent;
  throw new InvalidJobError(`unknown selector type ${JSON.stringify(sent)}`);
}

const ACTION_TYPES: readonly PageActionType[] = ['click', 'enter_text', 'modifier_key', 'goto_url'];
function actionType(sent: string): PageActionType {
  const found = ACTION_TYPES.find((type) => type === sent);
  if (!found) throw new InvalidJobError(`unknown action type ${JSON.stringify(sent)}`);
  return found;
}

function userAgentKind(sent: string): UserAgentKind {
  return isUserAgentKind(sent) ? sent : 'none';
}
