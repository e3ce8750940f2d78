import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';

/**
 * Turns an error code or a failed call into its message in the current language. A code the
 * catalogue does not know (a newer gateway) falls back to the generic server message.
 */
export function useErrorText() {
  const { t, i18n } = useTranslation();
  return (problem: unknown): string => {
    const key =
      problem instanceof ApiError
        ? problem.messageKey
        : typeof problem === 'string'
          ? `errors.${problem}`
          : '';
    // Keys come from the gateway at run time, so they are checked here rather than by the compiler.
    return i18n.exists(key) ? String(t(key as 'errors.internal')) : t('errors.internal');
  };
}

/** The gateway's code of a failed call; `network` and `http_error` for failures without one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}
