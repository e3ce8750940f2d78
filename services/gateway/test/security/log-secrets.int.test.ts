import { randomBytes, randomUUID } from 'node:crypto';
import { totpCode } from '@mimamori/account';
import { runCheck } from '@mimamori/events';
import { unary } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../../../../system-tests/rig/price-site.ts';
import { startDiscordStandIn } from '../accounts/discord-stand-in.ts';
import { writeSecurityFigures } from './security-figures.ts';
import { type SecurityHarness, STRIPE_KEYS, startSecurityHarness } from './security-harness.ts';

// A user's whole journey with every service logging at debug level into one list, then a search of
// that list for every secret the journey used: none may be there.
const logLines: string[] = [];
const webhookToken = randomBytes(48).toString('base64url');
let discord: Awaited<ReturnType<typeof startDiscordStandIn>>;
let harness: SecurityHarness;

beforeAll(async () => {
  discord = await startDiscordStandIn(new Set([webhookToken]));
  harness = await startSecurityHarness({ logLines, discordApiBase: discord.apiBase });
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await discord?.close();
});

/**
 * Sends the site's check as the scheduler does, with the URL replaced (a missing page, a refused
 * address), and waits until the diff service has recorded how it went.
 */
async function checkAsScheduled(targetId: string, url: string) {
  const { states } = await unary(harness.target, 'listTargetStates', { afterId: '', limit: 1000 });
  const template = states.find((state) => state.targetId === targetId)?.check;
  expect(template, `no check template for ${targetId}`).toBeDefined();
  const checkId = randomUUID();
  const check = { ...template, checkId, targetId, dueAt: new Date(), url } as Parameters<
    typeof runCheck.encode
  >[0];
  await harness.testHost.bus.publish(runCheck.subject, runCheck.encode(check), {
    msgId: checkId,
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    const { rows } = await harness.testHost.db.query(
      'SELECT outcome FROM diff.check_results WHERE check_id = $1',
      [checkId],
    );
    if (rows[0]) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no result for the check of ${url}`);
}

const linkToken = (text: string | undefined) => /[?&]token=([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1] ?? '';

describe('logs of a full journey', () => {
  it('hold none of the passwords, session and CSRF tokens, link tokens, webhook URLs, URL query tokens, TOTP secrets, recovery codes or keys it used', async () => {
    const secrets: Record<string, string> = {};
    const keep = (name: string, value: string) => {
      expect(value.length, name).toBeGreaterThan(7);
      secrets[name] = value;
      return value;
    };
    const email = 'journey@example.com';
    const browser = await harness.memberBrowser();
    keep('CSRF token', browser.cookies.get('csrf_token') ?? '');

    const firstPassword = keep('sign-up password', `First-${randomBytes(9).toString('base64url')}`);
    expect(
      (await browser.post('/api/signup', { email, password: firstPassword, agree: true, lang: 'en' })).status,
    ).toBe(202);
    const [verifyMail] = await harness.smtp.waitForMessages(1, 30_000);
    const verifyToken = keep('verification link token', linkToken(verifyMail?.text));
    expect((await browser.post('/api/verify', { token: verifyToken })).status).toBe(200);

    const wrongPassword = keep('mistyped password', `Wrong-${randomBytes(9).toString('base64url')}`);
    expect((await browser.post('/api/signin', { email, password: wrongPassword })).status).toBe(401);
    expect((await browser.post('/api/signin', { email, password: firstPassword })).status).toBe(200);
    keep('session token', browser.cookies.get('mimamori_session') ?? '');

    const accountWebhook = keep(
      'account Discord webhook URL',
      `https://discord.com/api/webhooks/123456789012345678/${webhookToken}`,
    );
    keep('account Discord webhook token', webhookToken);
    expect((await browser.post('/api/account/discord', { webhook_url: accountWebhook })).status).toBe(200);

    // A card through the test card form: the SetupIntent's client secret and Stripe's keys stay out.
    keep('Stripe secret key', STRIPE_KEYS.secretKey);
    keep('Stripe webhook secret', STRIPE_KEYS.webhookSecret);
    await expect.poll(async () => (await browser.get('/api/billing')).status, { timeout: 15_000 }).toBe(200);
    const intent = await browser.post('/api/billing/setup_intent');
    keep('card SetupIntent client secret', String(intent.body.client_secret));
    const carded = await browser.post('/api/billing/card', {
      setup_intent_id: intent.body.setup_intent_id,
      test_card: 'pm_card_visa',
    });
    expect(carded.status, carded.text).toBe(200);

    const queryToken = keep('watched URL query token', randomBytes(18).toString('hex'));
    const siteWebhookToken = keep('site Discord webhook token', randomBytes(48).toString('base64url'));
    const registered = await browser.post('/api/v2/target/register', {
      ...priceSiteRegistration('Journey', `${harness.siteUrl}?token=${queryToken}`),
      chat_notify: 'site',
      discord_webhook_url: `https://discord.com/api/webhooks/223456789012345678/${siteWebhookToken}`,
    });
    expect(registered.status, registered.text).toBe(201);
    await checkAsScheduled(
      String(registered.body.target_v2_id),
      `${harness.siteUrl}gone?token=${queryToken}`,
    );
    const refusedCheckToken = keep('refused check URL query token', randomBytes(18).toString('hex'));
    await checkAsScheduled(
      String(registered.body.target_v2_id),
      `http://10.0.0.1/?token=${refusedCheckToken}`,
    );

    // A signed webhook: its secret when added and when rotated, and a test-send signed with it.
    const hook = await browser.post('/api/webhooks', { url: harness.siteUrl });
    expect(hook.status, hook.text).toBe(201);
    keep('webhook signing secret', String(hook.body.secret));
    const hookId = String((hook.body.webhook as { id: string }).id);
    const rotated = await browser.post('/api/webhooks/rotate', { id: hookId });
    expect(rotated.status, rotated.text).toBe(200);
    keep('rotated webhook signing secret', String(rotated.body.secret));
    const tested = await browser.post('/api/webhooks/test', { id: hookId });
    expect(tested.body).toMatchObject({ outcome: 'answered', status: 200 });

    // The wizard's preview of the watched URL, of a refused one, and a login typing a password.
    const opened = await browser.post('/api/preview/open', { url: `${harness.siteUrl}?token=${queryToken}` });
    expect(opened.status, opened.text).toBe(200);
    const refusedToken = keep('refused URL query token', randomBytes(18).toString('hex'));
    expect(
      (await browser.post('/api/preview/open', { url: `http://10.0.0.1/?token=${refusedToken}` })).status,
    ).toBe(200);
    const typedPassword = keep(
      'password typed in the wizard',
      `Typed-${randomBytes(9).toString('base64url')}`,
    );
    await browser.post('/api/preview/login', {
      session_id: opened.body.session_id,
      actions: [{ type: 'enter_text', locator: { selector: 'h1' }, value: typedPassword }],
      verify: { kind: 'cookie', cookie_name: 'member' },
    });

    // An API token used, refused for its scope, and revoked; the feed URLs read and replaced.
    const token = await browser.post('/api/tokens', {
      name: 'journey',
      scopes: ['read'],
      expires_in_days: 7,
    });
    expect(token.status, token.text).toBe(201);
    const bearer = { authorization: `Bearer ${keep('API token', String(token.body.secret))}` };
    const app = harness.gateway.app;
    expect((await app.inject({ method: 'GET', url: '/api/v2/targets', headers: bearer })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: 'POST', url: '/api/pause', headers: bearer })).statusCode).toBe(403);
    const madeUp = keep('made-up API token', `mmr_${randomBytes(32).toString('base64url')}`);
    const refused = await app.inject({
      method: 'GET',
      url: '/api/v2/targets',
      headers: { authorization: `Bearer ${madeUp}` },
    });
    expect(refused.statusCode).toBe(401);
    expect(
      (await browser.post('/api/tokens/revoke', { id: (token.body.token as { id: string }).id })).status,
    ).toBe(200);
    const feedToken = (url: unknown) => /\/feeds\/([\w-]+)\//.exec(String(url))?.[1] ?? '';
    const feeds = await browser.get('/api/feeds');
    keep('feed token', feedToken(feeds.body.atom_url));
    const atom = await app.inject({ method: 'GET', url: new URL(String(feeds.body.atom_url)).pathname });
    expect(atom.statusCode).toBe(200);
    const rotatedFeeds = await browser.post('/api/feeds/rotate');
    keep('rotated feed token', feedToken(rotatedFeeds.body.atom_url));
    expect(
      (await app.inject({ method: 'GET', url: new URL(String(feeds.body.atom_url)).pathname })).statusCode,
    ).toBe(404);

    const secondPassword = keep('new password', `Second-${randomBytes(9).toString('base64url')}`);
    const changed = await browser.post('/api/account/password', {
      current_password: firstPassword,
      new_password: secondPassword,
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await browser.get('/api/signout')).status).toBe(200);

    expect((await browser.post('/api/reset_pass/request', { email })).status).toBe(202);
    const resetMail = (await harness.smtp.waitForMessages(2, 30_000)).find((mail) =>
      /reset/i.test(mail.subject ?? ''),
    );
    const resetToken = keep('reset link token', linkToken(resetMail?.text));
    const thirdPassword = keep('reset password', `Third-${randomBytes(9).toString('base64url')}`);
    expect(
      (await browser.post('/api/reset_pass', { token: resetToken, password: thirdPassword })).status,
    ).toBe(200);
    expect((await browser.post('/api/signin', { email, password: thirdPassword })).status).toBe(200);
    keep('second session token', browser.cookies.get('mimamori_session') ?? '');
    keep('device cookie', browser.cookies.get('mimamori_device') ?? '');

    // Two-factor sign-in: the TOTP secret, the recovery codes and the waiting sign-in's ticket.
    const started = await browser.post('/api/security/totp/start');
    const totpSecret = keep('TOTP secret', String(started.body.secret));
    const confirmed = await browser.post('/api/security/totp/confirm', {
      code: totpCode(totpSecret, new Date()),
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    const recovery = confirmed.body.recovery_codes as string[];
    for (const [i, code] of recovery.entries()) keep(`recovery code ${i}`, code);
    expect((await browser.get('/api/signout')).status).toBe(200);
    expect((await browser.post('/api/signin', { email, password: thirdPassword })).body).toMatchObject({
      status: 'second_factor_required',
    });
    keep('second-factor ticket', browser.cookies.get('mimamori_sign_in') ?? '');
    expect((await browser.post('/api/signin/code', { recovery_code: recovery[0] })).status).toBe(200);
    keep('session token after the second factor', browser.cookies.get('mimamori_session') ?? '');

    const [, secretKey = ''] = harness.secretKeys.split(':');
    keep('SECRET_KEYS', secretKey);

    // The journey did log (so the search below searched something).
    expect(logLines.length).toBeGreaterThan(10);
    const found = Object.entries(secrets).flatMap(([name, value]) =>
      logLines.filter((line) => line.includes(value)).map((line) => `${name}: ${line.slice(0, 300)}`),
    );
    expect(found).toEqual([]);
    await writeSecurityFigures('log-secrets', {
      logLines: logLines.length,
      secretsSearched: Object.keys(secrets).length,
      secretsFound: found.length,
    });
  }, 240_000);
});
