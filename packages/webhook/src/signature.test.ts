import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureHeader, verifySignature } from './signature.ts';

describe('webhook signatures', () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ site: { label: '価格' } });
  const now = 1_800_000_000;

  it('verifies what it signed and refuses a changed body, another secret or an old time', () => {
    const header = signatureHeader(secret, body, now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, body, { nowSeconds: now + 10 })).toEqual({ ok: true });
    expect(verifySignature(secret, header, body.replace('価格', '値段'), { nowSeconds: now })).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(verifySignature(newWebhookSecret(), header, body, { nowSeconds: now })).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(verifySignature(secret, header, body, { nowSeconds: now + 301 })).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifySignature(secret, 'v1=abc', body, { nowSeconds: now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('signs the time with the body, so a captured signature cannot be moved to another time', () => {
    const header = signatureHeader(secret, body, now);
    const moved = header.replace(`t=${now}`, `t=${now + 60}`);
    expect(verifySignature(secret, moved, body, { nowSeconds: now + 60 }).ok).toBe(false);
  });

  it('makes a new secret every time', () => {
    expect(newWebhookSecret()).not.toBe(newWebhookSecret());
    expect(newWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});
