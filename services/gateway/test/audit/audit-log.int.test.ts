import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../../../../system-tests/rig/price-site.ts';
import { auditedRoutes } from '../../src/http/audit-trail.ts';
import {
  type Member,
  PASSWORD,
  type SecurityHarness,
  startSecurityHarness,
} from '../security/security-harness.ts';

// The audit log through the gateway (ADR 0036): each kind of action a person does over HTTP is
// recorded once, naming the person (or the API token acting for them), the subject, the address
// and the browser; a refused action records nothing; one account never sees another's entries.

let harness: SecurityHarness;
let alice: Member;
let bob: Member;
const UA = { 'user-agent': 'AuditTest/1.0 (Macintosh)' };

interface Entry {
  action: string;
  actor: { person_id: string | null; label: string; token: string | null };
  subject: { kind: string; id: string; label: string };
  ip: string;
  user_agent: string;
  details: Record<string, string>;
}

async function log(member: Member, query = ''): Promise<Entry[]> {
  const answer = await member.browser.get(`/api/audit${query}`);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.entries as Entry[]).slice().reverse();
}

beforeAll(async () => {
  harness = await startSecurityHarness();
  alice = await harness.member('audit-alice@example.com');
  bob = await harness.member('audit-bob@example.com');
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

describe('the audit log through the gateway', () => {
  it('records each kind of action once, with the person, subject, address and browser', async () => {
    const { browser } = alice;
    const registered = await browser.post(
      '/api/v2/target/register',
      // Hourly: the plan has slots for it, so the site starts monitoring and can be paused.
      { ...priceSiteRegistration('Shop A', `${harness.siteUrl}?audit`), interval_minutes: 60 },
      UA,
    );
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.paused).toBe(false);
    const siteId = String(registered.body.target_v2_id);
    const edited = await browser.post(
      '/api/v2/target/update',
      {
        ...priceSiteRegistration('Shop A (renamed)', `${harness.siteUrl}?audit`),
        interval_minutes: 60,
        target_v2_id: siteId,
      },
      UA,
    );
    expect(edited.status, edited.text).toBe(200);
    expect((await browser.post('/api/v2/pause', { target_v2_id: siteId }, UA)).status).toBe(200);
    // Already paused: nothing happened, so nothing is recorded.
    expect((await browser.post('/api/v2/pause', { target_v2_id: siteId }, UA)).status).toBe(200);
    expect((await browser.post('/api/v2/resume', { target_v2_id: siteId }, UA)).status).toBe(200);
    const hook = await browser.post('/api/webhooks', { url: `${harness.siteUrl}hook?key=secret-key` }, UA);
    expect(hook.status, hook.text).toBe(201);
    const hookId = String((hook.body.webhook as { id: string }).id);
    expect((await browser.post('/api/webhooks/delete', { id: hookId }, UA)).status).toBe(200);
    const chat = await browser.post(
      '/api/v2/chat-links',
      { platform: 'chatwork', fields: { apiToken: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', roomId: '1001' } },
      UA,
    );
    expect(chat.status, chat.text).toBe(201);
    const chatId = String((chat.body.link as { id: string }).id);
    expect((await browser.post('/api/v2/chat-links/delete', { id: chatId }, UA)).status).toBe(200);
    const token = await browser.post(
      '/api/tokens',
      { name: 'deploy', scopes: ['write'], expires_in_days: 7 },
      UA,
    );
    expect(token.status, token.text).toBe(201);
    // The token acts for Alice: named as the token.
    const byToken = await harness.gateway.app.inject({
      method: 'POST',
      url: '/api/v2/pause',
      headers: { authorization: `Bearer ${token.body.secret}`, 'user-agent': 'deploy-script/2' },
      payload: { target_v2_id: siteId },
    });
    expect(byToken.statusCode, byToken.body).toBe(200);
    const tokenId = String((token.body.token as { id: string }).id);
    expect((await browser.post('/api/tokens/revoke', { id: tokenId }, UA)).status).toBe(200);
    const intent = await browser.post('/api/billing/setup_intent', {}, UA);
    const card = await browser.post(
      '/api/billing/card',
      { setup_intent_id: intent.body.setup_intent_id, test_card: 'pm_card_visa' },
      UA,
    );
    expect(card.status, card.text).toBe(200);
    expect(
      (await browser.post('/api/account/update', { name: 'Alice A', timezone: 'Asia/Tokyo' }, UA)).status,
    ).toBe(200);
    const csv = await browser.request('GET', '/api/audit/csv?kind=site&lang=en', undefined, UA);
    expect(csv.status, csv.text).toBe(200);
    expect((await browser.post('/api/v2/delete', { target_v2_id: siteId }, UA)).status).toBe(200);
    const signIn = await browser.post('/api/signin', { email: alice.email, password: PASSWORD }, UA);
    expect(signIn.status, signIn.text).toBe(200);

    const entries = await log(alice);
    const ours = entries.filter((entry) => entry.user_agent !== 'lightMyRequest');
    expect(
      ours.map((entry) => [entry.action, entry.subject.kind, entry.subject.label, entry.actor.token]),
    ).toEqual([
      ['site.created', 'site', 'Shop A', null],
      ['site.edited', 'site', 'Shop A (renamed)', null],
      ['site.paused', 'site', 'Shop A (renamed)', null],
      ['site.resumed', 'site', 'Shop A (renamed)', null],
      ['webhook.added', 'webhook', harness.siteUrl.replace(/\/$/, ''), null],
      ['webhook.removed', 'webhook', harness.siteUrl.replace(/\/$/, ''), null],
      ['channel.linked', 'chat_link', expect.any(String), null],
      ['channel.removed', 'chat_link', expect.any(String), null],
      ['token.created', 'token', 'deploy', null],
      ['site.paused', 'site', 'Shop A (renamed)', 'deploy'],
      ['token.revoked', 'token', 'deploy', null],
      ['billing.card_changed', '', '', null],
      ['settings.profile_changed', '', '', null],
      ['export.audit_log', '', '', null],
      ['site.deleted', 'site', 'Shop A (renamed)', null],
      ['signin.succeeded', '', '', null],
    ]);
    for (const entry of ours) {
      expect(entry.actor.person_id).toBe(alice.userId);
      expect(entry.actor.label).toContain(alice.email);
      expect(entry.ip).toBe('127.0.0.1');
    }
    expect(ours.filter((entry) => entry.actor.token).map((entry) => entry.user_agent)).toEqual([
      'deploy-script/2',
    ]);
    expect(
      ours.filter((entry) => !entry.actor.token).every((entry) => entry.user_agent === UA['user-agent']),
    ).toBe(true);
    // What changed, by name; the webhook's query (a key) and the chat token never appear.
    expect(ours[1]?.details).toEqual({ fields: 'label' });
    expect(ours.find((entry) => entry.action === 'settings.profile_changed')?.details).toEqual({
      fields: 'name,timezone',
    });
    expect(ours.find((entry) => entry.action === 'channel.linked')?.details).toEqual({
      platform: 'chatwork',
    });
    expect(JSON.stringify(entries)).not.toMatch(/secret-key|a1b2c3d4e5f6|mmr_/);
    // The CSV of the site kind holds the site rows recorded before it, newest first.
    const rows = csv.text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(rows[0]).toMatch(/^Time \(Asia\/Tokyo\),Actor,/);
    expect(rows.slice(1).map((row) => row.split(',')[4])).toEqual([
      'site.paused',
      'site.resumed',
      'site.paused',
      'site.edited',
      'site.created',
    ]);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="mimamori-audit-/);
  }, 120_000);

  it('records nothing for a refused or failed action, and a refused sign-in in the account it named', async () => {
    const before = (await log(alice)).length;
    const site = await alice.browser.post(
      '/api/v2/target/register',
      priceSiteRegistration('Alice’s other', `${harness.siteUrl}?other`),
    );
    const siteId = String(site.body.target_v2_id);
    const bobBefore = (await log(bob)).length;
    const refused = [
      await bob.browser.post('/api/v2/pause', { target_v2_id: siteId }),
      await bob.browser.post('/api/v2/delete', { target_v2_id: siteId }),
      await bob.browser.post('/api/webhooks', { url: 'http://127.0.0.1:1/' }),
      await bob.browser.post('/api/v2/target/register', { url: 'not a url' }),
      await bob.browser.post('/api/tokens/revoke', { id: 'nope' }),
      await bob.browser.post('/api/account/password', {
        current_password: 'wrong',
        new_password: 'abcd12345',
      }),
    ];
    expect(refused.map((answer) => answer.status >= 400)).toEqual(refused.map(() => true));
    expect((await log(bob)).length).toBe(bobBefore);
    expect((await log(alice)).map((entry) => entry.action).slice(before)).toEqual(['site.created']);

    const wrong = await bob.browser.post(
      '/api/signin',
      { email: alice.email, password: 'not-her-password' },
      UA,
    );
    expect(wrong.status).toBe(401);
    await expect
      .poll(async () =>
        (await log(alice, '?kind=signin')).filter((entry) => entry.action === 'signin.failed'),
      )
      .toEqual([
        expect.objectContaining({ actor: { person_id: null, label: '', token: null }, ip: '127.0.0.1' }),
      ]);
    // Bob's session survived his failed attempt at Alice's account; his own log holds none of it.
    expect((await log(bob)).some((entry) => entry.action === 'signin.failed')).toBe(false);
  }, 60_000);

  it('shows each account its own entries only, and refuses a token or a bad filter', async () => {
    const aliceIds = (await log(alice)).map((entry) => entry.subject.id).filter(Boolean);
    for (const query of ['', `?person=${alice.userId}`, `?subject=${aliceIds[0]}`, '?kind=site']) {
      const seen = await bob.browser.get(`/api/audit${query}`);
      expect(seen.status).toBe(200);
      for (const id of [alice.userId, ...aliceIds]) expect(seen.text).not.toContain(id);
      const csv = await bob.browser.get(`/api/audit/csv${query}`);
      expect(csv.text).not.toContain(alice.userId);
    }
    expect((await bob.browser.get('/api/audit?kind=nuclear')).status).toBe(400);
    expect((await bob.browser.get('/api/audit?from=yesterday')).status).toBe(400);
    const signedOut = await harness.gateway.app.inject({ method: 'GET', url: '/api/audit?kind=nuclear' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('has a rule for every route that changes the account’s sites, channels, tokens, billing or settings', () => {
    const routes = new Set(harness.gateway.routes.map((route) => `${route.method} ${route.url}`));
    const audited = auditedRoutes();
    // Every rule names a route that exists, so a renamed route cannot silently stop being recorded.
    for (const route of Object.keys(audited)) expect(routes, route).toContain(route);
    const mutating = [...routes].filter(
      (route) =>
        route.startsWith('POST /api/') &&
        // Following a company's filings is not among the actions the log keeps.
        !/^POST \/api\/(tdedi|cik|isin|cikisin)\//.test(route) &&
        /\/(v2\/target|pause|resume|delete|webhooks|chat-links|tokens|feeds|billing|account|signin|security|v1\/import|v2\/quiet-hours)/.test(
          route,
        ),
    );
    // Asked, answered or tried without changing anything: nothing to record. Deleting the account
    // closes the workspace, whose log goes with it at the purge.
    const READS_OR_TRIES = new Set([
      'POST /api/webhooks/test',
      'POST /api/v2/chat-links/test',
      'POST /api/v2/chat-links/start',
      'POST /api/billing/setup_intent',
      'POST /api/billing/plan/preview',
      'POST /api/billing/project_request',
      'POST /api/account/delete',
      // A passkey ceremony's options: nothing changes until the browser answers.
      'POST /api/signin/passkey/options',
      'POST /api/security/passkeys/options',
      // Starting TOTP set-up changes nothing that works until a code confirms it.
      'POST /api/security/totp/start',
    ]);
    const unrecorded = mutating.filter((route) => !(route in audited) && !READS_OR_TRIES.has(route));
    expect(unrecorded).toEqual([]);
  });
});
