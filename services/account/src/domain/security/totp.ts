import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';

/**
 * RFC 6238 with the parameters every authenticator app reads from a QR code: SHA-1, six digits,
 * 30-second steps. A code of the step before or after the current one is accepted too, for a
 * phone clock a little off and a code typed as it turned.
 */
const PERIOD_S = 30;
const DIGITS = 6;
export const TOTP_WINDOW = 1;
const ISSUER = 'Mimamori';

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps take it typed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What the set-up screen shows: the otpauth:// URI and its QR code as SVG, drawn here, no network. */
export function totpEnrolment(secretBase32: string, label: string): { uri: string; qrSvg: string } {
  const uri = totpOf(secretBase32, label).toString();
  return { uri, qrSvg: renderSVG(uri, { border: 2 }) };
}

/** The code for a time; tests and the e2e compute what the user's app would show. */
export function totpCode(secretBase32: string, at: Date): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}

/** The 30-second step a code belongs to within the window around `at`, or null when it fits none. */
export function totpStep(secretBase32: string, code: string, at: Date): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token, timestamp: at.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp: at.getTime() }) + delta;
}

/** Letters and digits no one misreads (no 0/O, 1/I/L), as recovery codes are typed from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `k7m2-p9xq-4hta`: 12 characters of 31, about 59 bits each. */
export function newRecoveryCodes(): string[] {
  const part = () =>
    Array.from({ length: 4 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}-${part()}`);
}

/** A recovery code as typed (any case, with or without hyphens and spaces) in its one stored form. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '').slice(0, 64);
}
