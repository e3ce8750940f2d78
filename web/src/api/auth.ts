import type { SignInAnswer } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type SignUpInput = {
  email: string;
  password: string;
  agree: boolean;
  lang: string;
  /** The browser's zone (docs/product.md#time-zones); left out when it has none. */
  timezone?: string;
  plan: number;
};

/** POST /api/signup: mails a verification link (the same answer for an address already registered). */
export function signUp(input: SignUpInput): Promise<void> {
  return apiRequest<void>('/api/signup', { method: 'POST', body: input });
}

/**
 * POST /api/signin: the gateway sets the session cookie, or (the account has a second factor)
 * answers second_factor_required and keeps the accepted password's ticket in its own cookie.
 */
export function signIn(input: { email: string; password: string }): Promise<SignInAnswer> {
  return apiRequest<SignInAnswer>('/api/signin', { method: 'POST', body: input });
}

export type VerifyOutcome = 'verified' | 'already_verified';

/** POST /api/verify with the token of a /verify?token= link. */
export async function verifyEmail(token: string): Promise<VerifyOutcome> {
  const answer = await apiRequest<{ status: VerifyOutcome }>('/api/verify', {
    method: 'POST',
    body: { token },
  });
  return answer.status;
}

/** POST /api/reset_pass/request: mails a reset link if the address is registered. */
export function requestPasswordReset(input: { email: string; lang: string }): Promise<void> {
  return apiRequest<void>('/api/reset_pass/request', { method: 'POST', body: input });
}

/** POST /api/reset_pass: sets the new password with the token of the mailed link. */
export function resetPassword(input: { token: string; password: string }): Promise<void> {
  return apiRequest<void>('/api/reset_pass', { method: 'POST', body: input });
}
