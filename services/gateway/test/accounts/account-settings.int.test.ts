import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, linkIn, startAccountHarness, tokenIn } from './account-harness.ts';
import { startDiscordStandIn } from './discord-stand-in.ts';
import type { TestBrowser } from './test-browser.ts';

const goodToken = 'g'.repeat(68);
const deadToken = 'd'.repeat(68);
let harness: AccountHarness;
let discord: Awaited<ReturnType<typeof startDiscordStandIn>>;

beforeAll(async () => {
  discord = await startDiscordStandIn(new Set([goodToken]));
  harness = await startAccountHarness({ discordApiBase: discord.apiBase });
});

afterAll(async () => {
  await harness?.close();
  await discord?.close();
});

async function signedIn(email: string): Promise<TestBrowser> {
  const browser = await harness.browser();
  await browser.post('/api/signup', { email, password: 'abcd1234', agree: true, lang: 'en' });
  await browser.post('/api/verify', { token: tokenIn(await harness.mailTo(email, /confirm your e-mail/)) });
  await browser.post('/api/signin', { email, password: 'abcd1234' });
  return browser;
}

describe('account settings', () => {
  it('shows the account and saves the time zone with user_id as the dashboard sends it', async () => {
    const browser = await signedIn('tz@example.com');
    const account = await browser.get('/api/account');
    expect(account.body).toMatchObject({
      email: 'tz@example.com',
      email_verified: true,
      lang: 'en',
      timezone: '',
      currency: 'USD',
      has_password: true,
      x_linked: false,
      discord_state: 'not_set',
      plan: 3,
      subscription_status: 1,
    });
    const saved = await browser.post('/api/account/update', {
      user_id: account.body.user_id,
      timezone: 'Etc/GMT-9',
    });
    expect(saved).toMatchObject({ status: 200, body: { timezone: 'Etc/GMT-9' } });
    expect((await browser.get('/api/user_info')).body).toMatchObject({ locale: { Timezone: 'Etc/GMT-9' } });

    const profile = await browser.post('/api/account/update', {
      name: '山田 花子',
      lang: 'ja',
      currency: 'JPY',
    });
    expect(profile.body).toMatchObject({
      name: '山田 花子',
      lang: 'ja',
      currency: 'JPY',
      timezone: 'Etc/GMT-9',
    });
    // Prices follow the currency: yen in whole units.
    expect((await browser.get('/api/user_info')).body).toMatchObject({ subscription: { price: 980 } });
    expect(await browser.post('/api/account/update', {})).toMatchObject({
      status: 400,
      body: { error: { code: 'no_changes' } },
    });
  });

  it('changes the sign-in address only once the link mailed to the new one is opened', async () => {
    const browser = await signedIn('old-address@example.com');
    const requested = await browser.post('/api/account/email', { email: 'new-address@example.com' });
    expect(requested).toMatchObject({ status: 202, body: { email: 'old-address@example.com' } });
    expect(await browser.post('/api/account/email', { email: 'OLD-address@example.com' })).toMatchObject({
      status: 400,
      body: { error: { code: 'no_changes' } },
    });
    const mail = await harness.mailTo('new-address@example.com', /new e-mail address/);
    expect(linkIn(mail).pathname).toBe('/verify');
    expect((await browser.post('/api/verify', { token: tokenIn(mail) })).body).toEqual({
      status: 'verified',
    });
    expect((await browser.get('/api/account')).body).toMatchObject({
      email: 'new-address@example.com',
      email_verified: true,
    });
    const fresh = await harness.browser();
    expect(
      (await fresh.post('/api/signin', { email: 'old-address@example.com', password: 'abcd1234' })).status,
    ).toBe(401);
    expect(
      (await fresh.post('/api/signin', { email: 'new-address@example.com', password: 'abcd1234' })).status,
    ).toBe(200);
  });

  it('does not move the sign-in address onto one another account took meanwhile', async () => {
    const browser = await signedIn('first-owner@example.com');
    await browser.post('/api/account/email', { email: 'contested@example.com' });
    const mail = await harness.mailTo('contested@example.com', /new e-mail address/);
    await signedIn('contested@example.com');
    expect(await browser.post('/api/verify', { token: tokenIn(mail) })).toMatchObject({
      status: 404,
      body: { error: { code: 'verification_link_invalid' } },
    });
    expect((await browser.get('/api/account')).body).toMatchObject({ email: 'first-owner@example.com' });
  });

  it('serves the time zone list as {o, d, a, v}', async () => {
    const response = await harness.gateway.app.inject({ method: 'GET', url: '/static/timezones.json' });
    expect(response.statusCode).toBe(200);
    const list = response.json() as { o: number; d: string; a: string; v: string }[];
    expect(list.find((zone) => zone.v === 'Etc/GMT-9')).toMatchObject({ o: 9, d: '(UTC+09:00) Etc/GMT-9' });
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['a', 'd', 'o', 'v']);
  });

  it('adds additional addresses by index, uses each only once verified, and removes them', async () => {
    const browser = await signedIn('multi@example.com');
    const added = await browser.post('/api/account/mails', { email: 'second@example.com' });
    expect(added.status).toBe(201);
    await browser.post('/api/account/mails', { email: 'third@example.com' });
    const account = await browser.get('/api/account');
    expect(account.body.mails).toMatchObject([
      { index: 0, email: 'second@example.com', verified: false },
      { index: 1, email: 'third@example.com', verified: false },
    ]);
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      mails: ['multi@example.com'],
      used_num: { mail: 0 },
    });

    const mail = await harness.mailTo('second@example.com', /notification address/);
    expect(linkIn(mail).pathname).toBe('/verify');
    const visitor = await harness.browser();
    expect((await visitor.post('/api/verify', { token: tokenIn(mail) })).body).toEqual({
      status: 'verified',
    });
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      mails: ['multi@example.com', 'second@example.com'],
      used_num: { mail: 1 },
    });

    expect(await browser.post('/api/account/mails', { email: 'SECOND@example.com' })).toMatchObject({
      status: 409,
      body: { error: { code: 'mail_already_added' } },
    });
    await browser.post('/api/account/mails', { email: 'fourth@example.com' });
    expect(await browser.post('/api/account/mails', { email: 'fifth@example.com' })).toMatchObject({
      status: 409,
      body: { error: { code: 'mail_quota_exceeded' } },
    });

    const mails = (await browser.get('/api/account')).body.mails as { id: string; email: string }[];
    const second = mails.find((m) => m.email === 'second@example.com');
    const removed = await browser.post('/api/account/mails/delete', { mail_id: second?.id });
    expect((removed.body.mails as { email: string }[]).map((m) => m.email)).toEqual([
      'third@example.com',
      'fourth@example.com',
    ]);
    expect((await browser.get('/api/user_info')).body).toMatchObject({ mails: ['multi@example.com'] });
    expect(await browser.post('/api/account/mails/delete', { mail_id: 'not-a-uuid' })).toMatchObject({
      status: 404,
      body: { error: { code: 'mail_not_found' } },
    });
  });

  it('links a Discord webhook: validates the URL, seals it, sends a test message, and reports the state', async () => {
    const browser = await signedIn('discord@example.com');
    expect((await browser.get('/api/user_info')).body).toMatchObject({ line_need_setting: true });

    for (const webhook_url of [
      `https://evil.example/api/webhooks/123456789012345678/${goodToken}`,
      `http://discord.com/api/webhooks/123456789012345678/${goodToken}`,
      'not a url',
    ]) {
      expect(await browser.post('/api/account/discord', { webhook_url })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_discord_webhook' } },
      });
    }
    expect(discord.posts).toHaveLength(0);

    const webhookUrl = `https://discord.com/api/webhooks/123456789012345678/${goodToken}`;
    const linked = await browser.post('/api/account/discord', { webhook_url: webhookUrl });
    expect(linked).toMatchObject({ status: 200, body: { discord_state: 'complete' } });
    expect(discord.posts.at(-1)).toMatchObject({
      path: `/api/webhooks/123456789012345678/${goodToken}`,
      query: '?wait=true',
      body: { content: 'Mimamori is linked. Changes will be announced here.', username: 'Mimamori' },
    });
    const { rows } = await harness.db.query<{ discord_webhook_sealed: string }>(
      `SELECT discord_webhook_sealed FROM account.users WHERE email = 'discord@example.com'`,
    );
    expect(rows[0]?.discord_webhook_sealed).toMatch(/^v1\.test\./);
    expect(rows[0]?.discord_webhook_sealed).not.toContain(goodToken);
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      line_need_setting: false,
      line_url: '',
    });

    const dead = await browser.post('/api/account/discord', {
      webhook_url: `https://discordapp.com/api/webhooks/123456789012345678/${deadToken}`,
    });
    expect(dead.body).toMatchObject({ discord_state: 'not_complete' });
    expect((await browser.get('/api/user_info')).body).toMatchObject({ line_need_setting: true });

    const unlinked = await browser.post('/api/account/discord/delete');
    expect(unlinked.body).toMatchObject({ discord_state: 'not_set' });
  });
});

describe('support requests', () => {
  it('records a request, mails a follow-up link, takes one follow-up, then says the link expired', async () => {
    const browser = await signedIn('help@example.com');
    const created = await browser.post('/api/support', {
      type: 'area',
      notes: 'The price area\nis not found',
    });
    expect(created.status).toBe(201);
    const mail = await harness.mailTo('help@example.com', /support request/);
    expect(mail.text).toContain('Type: Area settings');
    const link = linkIn(mail);
    expect(link.pathname).toBe('/req_support');
    const token = link.searchParams.get('token') ?? '';

    const visitor = await harness.browser();
    expect((await visitor.get(`/api/req_support?token=${token}`)).body).toEqual({
      type: 'area',
      notes: 'The price area\nis not found',
    });
    expect(await visitor.post('/api/req_support', { token, notes: 'It is the second table.' })).toMatchObject(
      {
        status: 200,
      },
    );
    const { rows } = await harness.db.query<{ follow_up_notes: string }>(
      'SELECT follow_up_notes FROM account.support_requests WHERE id = $1',
      [created.body.request_id],
    );
    expect(rows[0]?.follow_up_notes).toBe('It is the second table.');
    expect(await visitor.get(`/api/req_support?token=${token}`)).toMatchObject({
      status: 404,
      body: { error: { code: 'support_link_expired', message_key: 'errors.support_link_expired' } },
    });
  });

  it('expires the follow-up link after seven days', async () => {
    const browser = await signedIn('late@example.com');
    await browser.post('/api/support', { type: 'other', notes: 'hello' });
    const token = tokenIn(await harness.mailTo('late@example.com', /support request/));
    harness.clock.advance(7 * 24 * 3_600_000 + 1_000);
    expect(await browser.post('/api/req_support', { token, notes: 'late' })).toMatchObject({
      status: 404,
      body: { error: { code: 'support_link_expired' } },
    });
  });

  it('refuses an unknown type and needs a session', async () => {
    const browser = await signedIn('types@example.com');
    expect(await browser.post('/api/support', { type: 'billing', notes: '' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_support_type' } },
    });
    const signedOut = await harness.browser();
    expect((await signedOut.post('/api/support', { type: 'other', notes: 'x' })).status).toBe(401);
  });
});
