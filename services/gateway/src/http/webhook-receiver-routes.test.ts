import fastifyCookie from '@fastify/cookie';
import { memoryStandInStore } from '@mimamori/chat-stand-ins';
import { newWebhookSecret, SIGNATURE_HEADER, signatureHeader } from '@mimamori/webhook';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, csrfProtection } from './csrf.ts';
import { webhookReceiverRoutes } from './webhook-receiver-routes.ts';

let app: FastifyInstance;

beforeEach(async () => {
  app = Fastify();
  await app.register(fastifyCookie);
  csrfProtection(app);
  webhookReceiverRoutes(app, {
    store: memoryStandInStore(),
    productUrl: () => 'http://127.0.0.1:8080/',
  });
  await app.ready();
});

afterEach(async () => {
  await app.close();
});

const secret = newWebhookSecret();
const body = JSON.stringify({ type: 'test', test: true, id: 'test:1', note: '<b>bold</b>' });
const deliver = (payload: string, signature: string, name = 'demo') =>
  app.inject({
    method: 'POST',
    url: `/dev/webhooks/in/${name}`,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Mimamori-Webhook/1',
      [SIGNATURE_HEADER]: signature,
    },
    payload,
  });
const page = () => app.inject({ method: 'GET', url: '/dev/webhooks', cookies: { [CSRF_COOKIE]: 'tok' } });
const verdicts = async () =>
  [...(await page()).body.matchAll(/data-verdict="(\w+)"/g)].map((match) => match[1]);

describe('the local webhook receiver', () => {
  it('keeps each delivery as received and shows its signature checked once the secret is pasted', async () => {
    const signed = signatureHeader(secret, body, Math.floor(Date.now() / 1000));
    expect((await deliver(body, signed)).statusCode).toBe(200);
    const before = await page();
    expect(before.body).toContain('http://127.0.0.1:8080/dev/webhooks/in/demo');
    expect(before.body).toContain('Signature not checked');
    expect(before.body).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(before.body).not.toContain('<b>bold</b>');
    expect(before.body).toContain('Mimamori-Webhook/1');
    expect(before.headers['content-security-policy']).toContain("default-src 'none'");

    const kept = await app.inject({
      method: 'POST',
      url: '/dev/webhooks/secret',
      cookies: { [CSRF_COOKIE]: 'tok' },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf: 'tok', name: 'demo', secret }).toString(),
    });
    expect([kept.statusCode, kept.headers.location]).toEqual([303, '/dev/webhooks']);
    expect(await verdicts()).toEqual(['ok']);
    expect((await page()).body).toContain('Signature checked: valid');
    expect((await page()).body).not.toContain(secret);

    // With the secret known, a delivery that does not verify is refused as a receiver should.
    const tampered = await deliver(body.replace('test:1', 'test:2'), signed);
    expect(tampered.statusCode).toBe(400);
    const stale = await deliver(body, signatureHeader(secret, body, Math.floor(Date.now() / 1000) - 600));
    expect(stale.statusCode).toBe(400);
    expect(await verdicts()).toEqual(['stale', 'signature', 'ok']);
  });

  it('keeps no secret without the page’s form token', async () => {
    const forged = await app.inject({
      method: 'POST',
      url: '/dev/webhooks/secret',
      cookies: { [CSRF_COOKIE]: 'tok' },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf: 'other', name: 'demo', secret }).toString(),
    });
    expect(forged.statusCode).toBe(403);
    await deliver(body, signatureHeader(secret, body, Math.floor(Date.now() / 1000)));
    expect(await verdicts()).toEqual(['none']);
  });

  it('answers only loopback visitors and only plain receiver names', async () => {
    const outside = { remoteAddress: '192.0.2.10' };
    expect((await app.inject({ method: 'GET', url: '/dev/webhooks', ...outside })).statusCode).toBe(404);
    const posted = await app.inject({
      method: 'POST',
      url: '/dev/webhooks/in/demo',
      payload: '{}',
      ...outside,
    });
    expect(posted.statusCode).toBe(404);
    expect((await deliver('{}', '', 'a.b')).statusCode).toBe(404);
    expect(await verdicts()).toEqual([]);
  });
});
