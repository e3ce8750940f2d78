/** Where the sign-in button sends the browser; the gateway redirects on to X. */
export const X_SIGN_IN_PATH = '/api/signin/x';

/**
 * Whether sign-in with X is set up. The gateway answers an unconfigured start by redirecting
 * back to /signin?error=x_sign_in_failed; a configured one redirects to the provider, which an
 * opaque (no-cors) fetch follows without exposing it. A failed probe counts as available, so
 * the button stays and the gateway's own error path still applies.
 */
export async function fetchXSignInAvailable(signal?: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(X_SIGN_IN_PATH, {
      mode: 'no-cors',
      credentials: 'same-origin',
      signal: signal ?? null,
    });
    if (response.type === 'opaque') return true;
    return !new URL(response.url).searchParams.has('error');
  } catch {
    return true;
  }
}
