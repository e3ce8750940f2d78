import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookPoster } from './post-webhook.ts';
import { newWebhookSecret, SIGNATURE_HEADER, verifySignature } from './signature.ts';

let server: Server;
let hostPort: string;
const seen: { path: string; signature: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      seen.push({
        path,
        signature: String(request.headers[SIGNATURE_HEADER.toLowerCase()] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (path === '/moved') {
        // A receiver pointing elsewhere: followed, it would reach an inside address unchecked.
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        response.end();
        return;
      }
      response.writeHead(path === '/busy' ? 503 : 200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(2_000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('posting a webhook through the SSRF guard', () => {
  it('signs what it posts and answers the status with the start of the body', async () => {
    const poster = createWebhookPoster({ allow: [hostPort] });
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'test' });
    expect(await poster.post(`http://${hostPort}/ok`, body, secret)).toEqual({
      kind: 'answered',
      status: 200,
      bodyExcerpt: 'x'.repeat(500),
    });
    const got = seen.find((request) => request.path === '/ok');
    expect(got?.body).toBe(body);
    expect(verifySignature(secret, got?.signature ?? '', got?.body ?? '')).toEqual({ ok: true });
    expect(await poster.post(`http://${hostPort}/busy`, body, secret)).toMatchObject({ status: 503 });
    await poster.close();
  });

  it('does not follow a redirect', async () => {
    const poster = createWebhookPoster({ allow: [hostPort] });
    expect(await poster.post(`http://${hostPort}/moved`, '{}', newWebhookSecret())).toMatchObject({
      kind: 'answered',
      status: 302,
    });
    await poster.close();
  });

  it('refuses loopback, private and metadata addresses without the test allowance, at check and at send', async () => {
    const poster = createWebhookPoster();
    const before = seen.length;
    for (const url of [
      `http://${hostPort}/ok`,
      'http://localhost/',
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://[::ffff:127.0.0.1]/',
      'file:///etc/passwd',
    ]) {
      expect((await poster.refusal(url))?.kind, url).toBe('not_public');
      expect((await poster.post(url, '{}', newWebhookSecret())).kind, url).toBe('refused');
    }
    expect(seen.length).toBe(before);
    expect(await poster.refusal('https://93.184.215.14/hook')).toBeNull();
    await poster.close();
  });

  it('tells a name that does not resolve apart from an address that is not public', async () => {
    const poster = createWebhookPoster();
    // .invalid never resolves (RFC 2606), so no packet leaves for it.
    expect(await poster.refusal('https://hooks.example.invalid/in')).toMatchObject({ kind: 'unreachable' });
    expect(await poster.refusal('not a url')).toMatchObject({ kind: 'not_a_url' });
    await poster.close();
  });

  it('lets through the single-process product’s own /dev/webhooks receivers, and nothing else of loopback', async () => {
    let prefix: string | null = null;
    const poster = createWebhookPoster({ ownReceiver: () => prefix });
    const own = `http://${hostPort}/dev/webhooks/in/demo`;
    // Before the product listens (no prefix yet), its own receiver is loopback like any other.
    expect((await poster.refusal(own))?.kind).toBe('not_public');
    prefix = `http://${hostPort}/dev/webhooks/in/`;
    expect(await poster.refusal(own)).toBeNull();
    const secret = newWebhookSecret();
    expect(await poster.post(own, '{"type":"test"}', secret)).toMatchObject({
      kind: 'answered',
      status: 200,
    });
    const got = seen.find((request) => request.path === '/dev/webhooks/in/demo');
    expect(verifySignature(secret, got?.signature ?? '', got?.body ?? '')).toEqual({ ok: true });

    const [, port] = hostPort.split(':');
    const before = seen.length;
    for (const url of [
      `http://${hostPort}/dev/webhooks/in/`,
      `http://${hostPort}/dev/webhooks/in/a/b`,
      `http://${hostPort}/dev/webhooks/in/../../api/signout`,
      `http://${hostPort}/dev/webhooks/in/%2e%2e/%2e%2e/api/signout`,
      `http://${hostPort}/dev/webhooks/in/demo?then=/api/signout`,
      `http://${hostPort}/dev/webhooks/in/demo#x`,
      `http://${hostPort}/dev/discord/api/webhooks/1/x`,
      `http://${hostPort}/api/account`,
      `http://user:pass@${hostPort}/dev/webhooks/in/demo`,
      `http://localhost:${port}/dev/webhooks/in/demo`,
      `http://127.0.0.2:${port}/dev/webhooks/in/demo`,
      `http://127.0.0.1:${Number(port) + 1}/dev/webhooks/in/demo`,
      `https://${hostPort}/dev/webhooks/in/demo`,
    ]) {
      expect((await poster.refusal(url))?.kind, url).toBe('not_public');
      expect((await poster.post(url, '{}', secret)).kind, url).toBe('refused');
    }
    expect(seen.length).toBe(before);
    await poster.close();
  });
});
