import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from './accounts/test-browser.ts';
import { type SecurityHarness, startSecurityHarness } from './security/security-harness.ts';

// docs/product.md#rules: the wizard checks a rule's regular expression as it is typed with
// POST /api/v2/pattern/check, and Register must never refuse a pattern that check let through,
// nor the other way round: each pattern is both checked and registered against the real services.
let harness: SecurityHarness;
let browser: TestBrowser;

beforeAll(async () => {
  harness = await startSecurityHarness();
  ({ browser } = await harness.member('patterns@example.com'));
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

function siteWithPattern(pattern: string) {
  return {
    label: 'Patterns',
    url: harness.siteUrl,
    interval_minutes: 60,
    fetch_mode: 'http',
    chat_notify: 'none',
    mail_notify: true,
    areas: [{ area_id: 'price', label: 'Price', content: '¥1,200', locator: { selector: '#price' } }],
    rules: {
      combine: 'and',
      groups: [
        { combine: 'and', conditions: [{ areaId: 'price', operand: 'all', operator: 're', value: pattern }] },
      ],
    },
  };
}

describe('a rule’s pattern checked as typed', () => {
  const patterns: [string, string | undefined][] = [
    ['\\d+円', undefined],
    ['(?P<price>\\d+)', undefined],
    ['(?<=¥)\\d+', 'unsupported_lookaround'],
    ['(a)\\1', 'unsupported_backreference'],
    ['a*+', 'unsupported_possessive'],
    ['a(b', 'syntax_error'],
    ['x'.repeat(1_001), 'too_long'],
  ];

  it.each(patterns)('“%s” is judged as Register judges it', async (pattern, code) => {
    const checked = await browser.post('/api/v2/pattern/check', { pattern });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body).toEqual(code ? { ok: false, code } : { ok: true });
    const registered = await browser.post('/api/v2/target/register', siteWithPattern(pattern));
    expect(registered.status, registered.text).toBe(code ? 400 : 201);
    if (registered.status === 201) {
      const deleted = await browser.post('/api/v2/delete', { target_v2_id: registered.body.target_v2_id });
      expect(deleted.status).toBe(200);
    }
  });

  it('refuses a body without a pattern, and a caller without a session', async () => {
    expect((await browser.post('/api/v2/pattern/check', { text: 'a' })).status).toBe(400);
    const signedOut = await fetch(`${harness.url}/api/v2/pattern/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'a' }),
    });
    expect([401, 403]).toContain(signedOut.status);
  });
});
