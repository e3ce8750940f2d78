import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, startAccountHarness, tokenIn } from './account-harness.ts';
import type { TestBrowser } from './test-browser.ts';

let harness: AccountHarness;
let browser: TestBrowser;

beforeAll(async () => {
  harness = await startAccountHarness();
  browser = await harness.browser();
  await browser.post('/api/signup', {
    email: 'input@example.com',
    password: 'abcd1234',
    agree: true,
    lang: 'en',
  });
  await browser.post('/api/verify', { token: tokenIn(await harness.mailTo('input@example.com', /confirm/)) });
  await browser.post('/api/signin', { email: 'input@example.com', password: 'abcd1234' });
});

afterAll(async () => {
  await harness?.close();
});

async function snapshot() {
  const users = await harness.db.query('SELECT * FROM account.users ORDER BY id');
  const mails = await harness.db.query('SELECT * FROM account.mail_addresses ORDER BY id');
  const support = await harness.db.query('SELECT * FROM account.support_requests ORDER BY id');
  return { users: users.rows, mails: mails.rows, support: support.rows };
}

describe('bad input gets a clear error and changes nothing', () => {
  it.each([
    ['an overlong address', `${'a'.repeat(250)}@example.com`, 'invalid_email'],
    ['no domain', 'user@', 'invalid_email'],
    ['a full-width @', 'user＠example.com', 'email_confusable'],
    ['full-width letters', 'ｕｓｅｒ@example.com', 'email_confusable'],
    ['a Cyrillic а in a Latin domain', 'user@ex\u0430mple.com', 'email_confusable'],
    ['a control character', 'us\u0000er@example.com', 'invalid_email'],
    ['a zero-width space', 'us\u200Ber@example.com', 'invalid_email'],
    ['SQL', "x'; DROP TABLE account.users;--@example.com", 'invalid_email'],
  ])('sign-up with %s', async (_what, email, code) => {
    const before = await snapshot();
    const response = await browser.post('/api/signup', { email, password: 'abcd1234', agree: true });
    expect(response).toMatchObject({ status: 400, body: { error: { code, message_key: `errors.${code}` } } });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['an overlong password', 'a'.repeat(129), 'password_too_long'],
    ['a full-width password', 'ａｂｃｄ１２３４', 'invalid_password'],
    ['a password with a control character', 'abcd\u00071234', 'invalid_password'],
  ])('sign-up with %s', async (_what, password, code) => {
    const before = await snapshot();
    const response = await browser.post('/api/signup', { email: 'pw@example.com', password, agree: true });
    expect(response).toMatchObject({ status: 400, body: { error: { code } } });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['HTML', { name: '<img src=x onerror=alert(1)>' }, 'invalid_name'],
    ['SQL', { name: "Robert'); DROP TABLE account.users;--" }, 'invalid_name'],
    ['a control character', { name: 'Taro\u0000' }, 'invalid_name'],
    ['a bidi override', { name: 'Taro\u202Eorat' }, 'invalid_name'],
    ['an overlong name', { name: 'あ'.repeat(101) }, 'name_too_long'],
    ['an unknown language', { lang: 'fr' }, 'invalid_lang'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'invalid_timezone'],
    ['a path as time zone', { timezone: '../../etc/passwd' }, 'invalid_timezone'],
    ['an unknown currency', { currency: 'EUR' }, 'invalid_currency'],
    [
      'a valid name with an invalid time zone',
      { name: 'Valid Name', timezone: 'Nowhere' },
      'invalid_timezone',
    ],
  ])('account update with %s', async (_what, fields, code) => {
    const before = await snapshot();
    const response = await browser.post('/api/account/update', fields);
    expect(response).toMatchObject({ status: 400, body: { error: { code } } });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a look-alike address', { email: 'bob@g\u043Egle.com' }, 'email_confusable'],
    ['an invalid address', { email: 'not-an-address' }, 'invalid_email'],
  ])('additional address with %s', async (_what, fields, code) => {
    const before = await snapshot();
    expect(await browser.post('/api/account/mails', fields)).toMatchObject({
      status: 400,
      body: { error: { code } },
    });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['overlong notes', { type: 'other', notes: 'x'.repeat(2001) }, 'notes_too_long'],
    ['control characters in notes', { type: 'other', notes: 'hi\u0007' }, 'invalid_notes'],
    ['an unknown type', { type: '<script>', notes: 'x' }, 'invalid_support_type'],
  ])('support request with %s', async (_what, fields, code) => {
    const before = await snapshot();
    expect(await browser.post('/api/support', fields)).toMatchObject({
      status: 400,
      body: { error: { code } },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses fields of the wrong type and a body that is not an object', async () => {
    const before = await snapshot();
    expect(await browser.post('/api/account/update', { timezone: 42 })).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_request' } },
    });
    expect(
      await browser.post('/api/signup', { email: ['a@example.com'], password: 'abcd1234', agree: 'yes' }),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_request' } },
    });
    const csrf = browser.cookies.get('csrf_token') ?? '';
    const array = await harness.gateway.app.inject({
      method: 'POST',
      url: '/api/signin',
      cookies: Object.fromEntries(browser.cookies),
      headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(array.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses malformed and unknown link tokens without touching anything', async () => {
    const before = await snapshot();
    for (const token of ['', "' OR 1=1 --", 'a'.repeat(5000)]) {
      expect((await browser.post('/api/verify', { token })).body).toMatchObject({
        error: { code: 'verification_link_invalid' },
      });
      expect((await browser.post('/api/reset_pass', { token, password: 'abcd1234' })).body).toMatchObject({
        error: { code: 'reset_link_invalid' },
      });
      expect((await browser.get(`/api/req_support?token=${encodeURIComponent(token)}`)).body).toMatchObject({
        error: { code: 'support_link_expired' },
      });
    }
    expect(await snapshot()).toEqual(before);
  });
});
