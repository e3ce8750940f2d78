import { z } from 'zod';
import { csrfFailed, refusal, signedOut, statusAnswer } from './api-error.ts';

// Two-factor sign-in, passkeys and the session list (docs/product.md#two-factor-sign-in). A field
// of the wrong type is a bad_request; a missing one reads as empty and the account service refuses it.

const text = (description?: string) => {
  const field = z.string().max(4096).nullish();
  return description ? field.describe(description) : field;
};
const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();

export const signInAnswer = z
  .object({
    status: z
      .enum(['signed_in', 'second_factor_required'])
      .describe(
        'signed_in (Set-Cookie mimamori_session), or the password was right and a second factor is asked',
      ),
    methods: z
      .array(z.enum(['totp', 'passkey']))
      .optional()
      .describe('second_factor_required: the factors the account has (a recovery code goes with totp)'),
  })
  .meta({ id: 'SignInAnswer' });
export type SignInAnswer = z.infer<typeof signInAnswer>;

export const passkeyJson = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: z.string().describe('ISO 8601'),
    last_used_at: z.string().nullable().describe('ISO 8601; null before its first sign-in'),
  })
  .meta({ id: 'Passkey' });
export type PasskeyJson = z.infer<typeof passkeyJson>;

export const securitySettings = z
  .object({
    totp_enabled: z.boolean(),
    recovery_codes_left: z.number().int(),
    passkeys: z.array(passkeyJson),
  })
  .meta({ id: 'SecuritySettings' });
export type SecuritySettings = z.infer<typeof securitySettings>;

export const totpEnrolment = z
  .object({
    secret: z.string().describe('Base32, to type into an authenticator app; answered this once'),
    otpauth_uri: z.string(),
    qr_svg: z.string().describe('The QR code of otpauth_uri as an SVG document, drawn by the product'),
  })
  .meta({ id: 'TotpEnrolment' });
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

export const recoveryCodes = z
  .object({ recovery_codes: z.array(z.string()).describe('Ten one-time codes, answered this once') })
  .meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof recoveryCodes>;

export const codeBody = body({ code: text('The six digits the authenticator app shows') });
export const totpDisableBody = body({
  password: text(),
  code: text('The six digits the app shows'),
  recovery_code: text('Instead of code'),
});
export const signInCodeBody = body({
  code: text('The six digits the app shows'),
  recovery_code: text('Instead of code: one unused recovery code'),
});

export const passkeyOptions = z
  .object({
    options: z.record(z.string(), z.unknown()).describe('WebAuthn options JSON for @simplewebauthn/browser'),
    challenge_token: z.string().describe('Sent back with the browser’s answer'),
  })
  .meta({ id: 'PasskeyOptions' });
export type PasskeyOptions = z.infer<typeof passkeyOptions>;

const credentialResponse = z
  .record(z.string(), z.unknown())
  .nullish()
  .describe('The browser’s WebAuthn answer (RegistrationResponseJSON / AuthenticationResponseJSON)');
export const passkeyRegistrationBody = body({
  challenge_token: text(),
  response: credentialResponse,
  name: text('What the user calls this passkey, up to 60 characters'),
});
export const passkeySignInBody = body({ challenge_token: text(), response: credentialResponse });
export const passkeyRemoveBody = body({ passkey_id: text() });

export const sessionJson = z
  .object({
    id: z.string(),
    browser: z.string().describe('Chrome, Safari, Firefox, Edge, …; empty when not told apart'),
    os: z.string().describe('macOS, Windows, iOS, Android, …; empty when not told apart'),
    client_address: z.string().describe('The IP address it signed in from'),
    created_at: z.string().describe('ISO 8601: when it signed in'),
    last_seen_at: z.string().describe('ISO 8601: its latest request, to the minute'),
    current: z.boolean().describe('The session of this request'),
  })
  .meta({ id: 'Session' });
export type SessionJson = z.infer<typeof sessionJson>;

export const sessionList = z.object({ sessions: z.array(sessionJson) }).meta({ id: 'SessionList' });
export type SessionList = z.infer<typeof sessionList>;
export const sessionEndBody = body({ session_id: text() });

export const securityAnswers = {
  signedIn: statusAnswer('signed_in').describe('Signed in (Set-Cookie mimamori_session)'),
  totpDisabled: statusAnswer('totp_disabled'),
  passkeyRemoved: statusAnswer('passkey_removed'),
  sessionEnded: statusAnswer('session_ended'),
  othersEnded: z.object({ status: z.literal('sessions_ended'), ended: z.number().int() }).describe('Done'),
};

export const securityRefusals = {
  signedOut,
  csrf: csrfFailed,
  sessionRequired: refusal('An API token cannot see or change sign-in security', ['session_required']),
  forbidden: refusal('CSRF header missing or wrong, or an API token', ['csrf_failed', 'session_required']),
  code: refusal('Refused', ['code_mismatch', 'password_or_code_mismatch', 'bad_request']),
  totpState: refusal('Not in that state', ['totp_already_enabled', 'totp_not_started', 'totp_not_enabled']),
  throttled: refusal('Too many failed attempts; try later', ['too_many_attempts']),
  signInExpired: refusal('The sign-in waited too long or took too many wrong codes', ['sign_in_expired']),
  passkey: refusal('Refused', [
    'passkey_refused',
    'passkey_name_invalid',
    'passkey_quota_exceeded',
    'bad_request',
  ]),
  passkeyExists: refusal('Already registered', ['passkey_exists', 'passkeys_off']),
  passkeyNotFound: refusal('Not this account’s', ['passkey_not_found']),
  sessionNotFound: refusal('Not this account’s', ['session_not_found']),
};
