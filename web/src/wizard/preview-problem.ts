import { ApiError } from '../api/client.ts';
import type { PreviewProblem } from '../api/preview.ts';

/** The wizard's message for a page or step that did not work (docs/product.md#check-errors). */
export type ProblemMessage =
  | 'unreachable'
  | 'notPublic'
  | 'notFound404'
  | 'fetchFailed'
  | 'unsupported'
  | 'timeout'
  | 'elementNotFound'
  | 'loginUnsupported'
  | 'previewExpired'
  | 'screenshotUpdateFailed';

/** Maps the crawler's error code (see CheckError in proto/mimamori/events/v1/checks.proto). */
export function problemMessage(problem: PreviewProblem): ProblemMessage {
  switch (problem.code) {
    case 'unreachable':
      return 'unreachable';
    // Refused on purpose (localhost, private networks, cloud metadata): not "the site is down".
    case 'refused_address':
      return 'notPublic';
    case 'http_status':
      return /\bHTTP 404\b/.test(problem.detail) ? 'notFound404' : 'fetchFailed';
    case 'timeout':
      return 'timeout';
    case 'blocked_by_robot':
    case 'too_large':
    case 'too_many_redirects':
      return 'unsupported';
    case 'element_not_found':
    case 'action_failed':
      return 'elementNotFound';
    case 'login_failed':
      return 'loginUnsupported';
    default:
      return 'fetchFailed';
  }
}

/**
 * A preview call that failed as a whole: an expired session, or the gateway giving up after its
 * deadline (about 90 s), which for a person is the page load timing out.
 */
export function callProblemMessage(error: unknown): ProblemMessage | undefined {
  if (!(error instanceof ApiError)) return 'fetchFailed';
  if (error.code === 'preview_not_found') return 'previewExpired';
  if (error.status === 0 || error.status === 503 || error.status === 504) return 'timeout';
  return undefined;
}

/** docs/product.md#checks: a page read is tried up to 3 times. */
export const MAX_OPEN_ATTEMPTS = 3;

/** Only a page that ran out of time is worth loading again at once; a refusal or a 404 stays so. */
export function shouldRetryOpen(message: ProblemMessage, attempt: number): boolean {
  return message === 'timeout' && attempt < MAX_OPEN_ATTEMPTS;
}
