import type {
  PasskeyJson,
  PasskeyOptions,
  RecoveryCodes,
  SecuritySettings,
  SessionJson,
  SessionList,
  TotpEnrolment,
} from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type {
  PasskeyJson,
  SecuritySettings,
  SessionJson,
  TotpEnrolment,
} from '@mimamori/http-api';

/** GET /api/security: TOTP on or off, recovery codes left, passkeys (docs/product.md#two-factor-sign-in). */
export function fetchSecurity(signal?: AbortSignal): Promise<SecuritySettings> {
  return apiRequest('/api/security', signal ? { signal } : {});
}

export function startTotp(): Promise<TotpEnrolment> {
  return apiRequest('/api/security/totp/start', { method: 'POST' });
}

export async function confirmTotp(code: string): Promise<string[]> {
  return (await apiRequest<RecoveryCodes>('/api/security/totp/confirm', { method: 'POST', body: { code } }))
    .recovery_codes;
}

export function disableTotp(input: { password: string; code: string }): Promise<void> {
  // Six digits are a TOTP code; anything else is read as a recovery code.
  const body = /^\d{6}$/.test(input.code.replace(/\s/g, ''))
    ? { password: input.password, code: input.code }
    : { password: input.password, recovery_code: input.code };
  return apiRequest('/api/security/totp/disable', { method: 'POST', body });
}

export async function regenerateRecoveryCodes(code: string): Promise<string[]> {
  return (await apiRequest<RecoveryCodes>('/api/security/recovery_codes', { method: 'POST', body: { code } }))
    .recovery_codes;
}

/** POST /api/signin/code: the second step, a TOTP code or a recovery code. */
export function signInWithCode(input: { code?: string; recovery_code?: string }): Promise<void> {
  return apiRequest('/api/signin/code', { method: 'POST', body: input });
}

export function passkeyRegistrationOptions(): Promise<PasskeyOptions> {
  return apiRequest('/api/security/passkeys/options', { method: 'POST' });
}

export function registerPasskey(input: {
  challenge_token: string;
  response: Record<string, unknown>;
  name: string;
}): Promise<PasskeyJson> {
  return apiRequest('/api/security/passkeys', { method: 'POST', body: input });
}

export function removePasskey(passkeyId: string): Promise<void> {
  return apiRequest('/api/security/passkeys/delete', { method: 'POST', body: { passkey_id: passkeyId } });
}

export function passkeySignInOptions(): Promise<PasskeyOptions> {
  return apiRequest('/api/signin/passkey/options', { method: 'POST' });
}

export function signInWithPasskey(input: {
  challenge_token: string;
  response: Record<string, unknown>;
}): Promise<void> {
  return apiRequest('/api/signin/passkey', { method: 'POST', body: input });
}

export async function fetchSessions(signal?: AbortSignal): Promise<SessionJson[]> {
  return (await apiRequest<SessionList>('/api/security/sessions', signal ? { signal } : {})).sessions;
}

export function endSession(sessionId: string): Promise<void> {
  return apiRequest('/api/security/sessions/end', { method: 'POST', body: { session_id: sessionId } });
}

export function endOtherSessions(): Promise<void> {
  return apiRequest('/api/security/sessions/end_others', { method: 'POST' });
}
