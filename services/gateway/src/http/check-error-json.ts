/**
 * Codes a failed check carries: the crawler's (proto CheckError) and the watch engine's. Each has
 * a message in the SPA's catalogue under `errors.<code>`: unreachable 'could not reach the site',
 * timeout 'access timeout for all or part of the target', element_not_found 'element not found
 * (check selector or XPath)', area_empty 'area content empty', http_status 'URL could not be
 * reached' with the status, …
 */
const CHECK_ERROR_CODES = new Set([
  'unreachable',
  'blocked_by_robot',
  'timeout',
  'http_status',
  'refused_address',
  'too_large',
  'too_many_redirects',
  'element_not_found',
  'login_failed',
  'action_failed',
  'browser_crashed',
  'invalid_job',
  'area_empty',
  'invalid_area_options',
  'screenshot_failed',
]);

export interface CheckErrorJson {
  code: string;
  message_key: string;
  detail: string;
  /** With http_status: the status the site answered (404 shows 'URL could not be reached (404)'). */
  http_status?: number;
}

/** A check's error as history shows it; a code this gateway does not know gets the generic message. */
export function checkErrorJson(code: string, detail: string): CheckErrorJson {
  const known = CHECK_ERROR_CODES.has(code);
  const status = code === 'http_status' ? /^HTTP (\d{3})\b/.exec(detail)?.[1] : undefined;
  return {
    code,
    message_key: known ? `errors.${code}` : 'errors.check_failed',
    detail,
    ...(status ? { http_status: Number(status) } : {}),
  };
}
