import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedProxy, startGuardedProxy } from '../src/index.ts';

// A stand-in for the single-process product on loopback: it answers every path, so a request
// the proxy wrongly let through would come back 200 instead of refused.
let product: Server;
let origin: string;
let proxy: GuardedProxy;

beforeAll(async () => {
  product = createServer((incoming, response) => response.end(`product ${incoming.url}`));
  await new Promise<void>((resolve) => product.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(product.address() as AddressInfo).port}`;
  proxy = await startGuardedProxy({ allowPages: () => [{ origin, paths: ['/mock/ec', '/assets/'] }] });
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => product.close(resolve));
});

/** What a browser configured with the proxy gets for an http URL: status and body, or 'refused'. */
function throughProxy(url: string): Promise<string> {
  const proxyUrl = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: proxyUrl.hostname,
      port: proxyUrl.port,
      path: url,
      headers: { host: new URL(url).host },
    });
    outgoing.on('response', (answer) => {
      let body = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      answer.on('end', () =>
        resolve(answer.headers['x-refused-address'] ? 'refused' : `${answer.statusCode} ${body}`),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function tunnel(authority: string): Promise<number | undefined> {
  const proxyUrl = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: proxyUrl.hostname,
      port: proxyUrl.port,
      method: 'CONNECT',
      path: authority,
    });
    outgoing.on('connect', (answer, socket) => {
      socket.destroy();
      resolve(answer.statusCode);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('guarded proxy with the demo shop allowed', () => {
  it('carries the shop page and its script files to the loopback product', async () => {
    expect(await throughProxy(`${origin}/mock/ec`)).toBe('200 product /mock/ec');
    expect(await throughProxy(`${origin}/assets/index-abc.js`)).toBe('200 product /assets/index-abc.js');
  });

  it('refuses every other path of the same origin', async () => {
    for (const path of ['/dev/mailbox', '/api/user_info', '/', '/mock/ec/x', '/assets/..%2fdev/mailbox']) {
      expect([path, await throughProxy(`${origin}${path}`)]).toEqual([path, 'refused']);
    }
  });

  it('refuses a tunnel to the origin, whose paths it could not see', async () => {
    expect(await tunnel(new URL(origin).host)).toBe(403);
  });
});
