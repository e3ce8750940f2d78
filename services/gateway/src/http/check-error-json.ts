import { CHECK_ERROR_CODES, type CheckError } from '@mimamori/http-api';

const KNOWN_CODES = new Set<string>(CHECK_ERROR_CODES);

/**
 * A check's error as history shows it. Each known code has a message in the SPA's catalogue under
 * `errors.<code>` (http_status 'URL could not be reached' with the status, …); a code this
 * gateway does not know gets the generic message.
 */
export function checkErrorJson(code: string, detail: string): CheckError {
  const status = code === 'http_status' ? /^HTTP (\d{3})\b/.exec(detail)?.[1] : undefined;
  return {
    code,
    message_key: KNOWN_CODES.has(code) ? `errors.${code}` : 'errors.check_failed',
    detail,
    ...(status ? { http_status: Number(status) } : {}),
  };
}
