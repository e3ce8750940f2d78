import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, normaliseRecoveryCode, totpCode, totpEnrolment, totpStep } from './totp.ts';
import { describeUserAgent } from './user-agent.ts';

// RFC 6238 appendix B's SHA-1 key, "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const STEP_MS = 30_000;
const at = (ms: number) => new Date(ms);

describe('TOTP (RFC 6238) on an injected clock', () => {
  it('computes the RFC test vectors (their last six digits)', () => {
    expect(totpCode(RFC_SECRET, at(59_000))).toBe('287082');
    expect(totpCode(RFC_SECRET, at(1_111_111_109_000))).toBe('081804');
    expect(totpCode(RFC_SECRET, at(1_234_567_890_000))).toBe('005924');
  });

  it('takes a code in its own step and one step either side, to the millisecond, and no further', () => {
    const step = 40_000_000;
    const code = totpCode(RFC_SECRET, at(step * STEP_MS + 12_345));
    // Its own step, first and last millisecond.
    expect(totpStep(RFC_SECRET, code, at(step * STEP_MS))).toBe(step);
    expect(totpStep(RFC_SECRET, code, at((step + 1) * STEP_MS - 1))).toBe(step);
    // A phone a step ahead or behind.
    expect(totpStep(RFC_SECRET, code, at((step - 1) * STEP_MS))).toBe(step);
    expect(totpStep(RFC_SECRET, code, at((step + 2) * STEP_MS - 1))).toBe(step);
    // Two steps away: refused on either edge.
    expect(totpStep(RFC_SECRET, code, at((step - 1) * STEP_MS - 1))).toBeNull();
    expect(totpStep(RFC_SECRET, code, at((step + 2) * STEP_MS))).toBeNull();
  });

  it('refuses what is not six digits, and reads a code typed with spaces', () => {
    const now = at(1_700_000_000_000);
    const code = totpCode(RFC_SECRET, now);
    expect(totpStep(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now)).not.toBeNull();
    for (const bad of ['', '12345', '1234567', 'abcdef', `${code}0`]) {
      expect(totpStep(RFC_SECRET, bad, now)).toBeNull();
    }
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(totpStep(RFC_SECRET, wrong, now)).toBeNull();
  });

  it('draws the otpauth URI as an SVG QR code, here, with the issuer and account', () => {
    const { uri, qrSvg } = totpEnrolment(RFC_SECRET, 'hanako@example.jp');
    expect(uri).toBe(
      'otpauth://totp/Mimamori:hanako%40example.jp?issuer=Mimamori&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30',
    );
    expect(qrSvg).toMatch(/^<svg[^>]*viewBox/);
    expect(qrSvg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of unmistakable characters, read back in any case and spacing', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes)
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
    const code = codes[0] ?? '';
    expect(normaliseRecoveryCode(` ${code.toUpperCase().replaceAll('-', ' ')} `)).toBe(
      code.replaceAll('-', ''),
    );
  });
});

describe('user agents as the session list names them', () => {
  it('tells the common browsers and systems apart, and nothing else', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome', os: 'macOS' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', os: 'iOS' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toEqual({ browser: 'Edge', os: 'Windows' });
    expect(
      describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toEqual({
      browser: 'Firefox',
      os: 'Linux',
    });
    expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: '', os: '' });
  });
});
