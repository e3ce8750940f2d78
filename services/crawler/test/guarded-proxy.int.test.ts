import { request } from 'node:http';
import { type GuardedProxy, startGuardedProxy } from '@mimamori/egress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, startFixtureSite } from './fixture-site.ts';
import { startTinyproxy, type TinyproxyFixture } from './tinyproxy-fixture.ts';

// The proxy the browser half hands to Chromium, chained to a real upstream proxy (the site's
// proxy from the pool): checked requests go on through tinyproxy, refused ones go nowhere.
let site: FixtureSite;
let notAllowed: FixtureSite;
let upstream: TinyproxyFixture;
let proxy: GuardedProxy;

beforeAll(async () => {
  site = await startFixtureSite();
  notAllowed = await startFixtureSite();
  upstream = await startTinyproxy();
  proxy = await startGuardedProxy({ allow: [site.authority], upstreamProxy: upstream.url });
});

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
  await site?.close();
  await notAllowed?.close();
});

const proxyPort = () => Number(new URL(proxy.url).port);

function get(target: string): Promise<{ status: number; refused?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: '127.0.0.1',
      port: proxyPort(),
      path: target,
      headers: { host: new URL(target).host },
    });
    outgoing.on('response', (answer) => {
      let body = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      answer.on('end', () => {
        const refused = answer.headers['x-refused-address'];
        resolve({
          status: answer.statusCode ?? 0,
          body,
          ...(typeof refused === 'string' ? { refused } : {}),
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function tunnelGet(authority: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: proxyPort(), method: 'CONNECT', path: authority });
    outgoing.on('connect', (answer, socket) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        resolve(`status ${answer.statusCode}`);
        return;
      }
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        received += chunk;
      });
      socket.on('end', () => resolve(received));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('guarded forward proxy chained to an upstream proxy', () => {
  it('forwards a checked plain-HTTP request through the upstream proxy, asking it for the checked address', async () => {
    const port = new URL(site.origin).port;
    const byName = await startGuardedProxy({ allow: [`localhost:${port}`], upstreamProxy: upstream.url });
    try {
      const asked = upstream.asked.length;
      const answer = await new Promise<string>((resolve, reject) => {
        const outgoing = request({
          host: '127.0.0.1',
          port: Number(new URL(byName.url).port),
          path: `http://localhost:${port}/echo-headers`,
          headers: { host: `localhost:${port}` },
        });
        outgoing.on('response', (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () => resolve(`${response.statusCode} ${body}`));
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
      // The site sees the name the page used; the proxy never gets a name to resolve again.
      expect(answer).toMatch(/^200 /);
      expect(answer).toContain(`"host":"localhost:${port}"`);
      expect(upstream.asked.slice(asked)).toEqual([
        expect.stringMatching(new RegExp(`^CONNECT (127\\.0\\.0\\.1|\\[::1\\]):${port} HTTP/1\\.1$`)),
      ]);
    } finally {
      await byName.close();
    }
  });

  it('tunnels a checked CONNECT through the upstream proxy', async () => {
    const received = await tunnelGet(site.authority, '/static');
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toContain('id="news"');
    expect(upstream.asked).toContain(`CONNECT ${site.authority} HTTP/1.1`);
  });

  it('refuses what the guard refuses before the upstream proxy is asked', async () => {
    expect(await get(`${notAllowed.origin}/static`)).toMatchObject({
      status: 403,
      refused: expect.stringContaining('loopback'),
    });
    expect(await tunnelGet(notAllowed.authority, '/static')).toBe('status 403');
    expect(await get('ftp://127.0.0.1/file')).toMatchObject({ status: 403 });
    expect(notAllowed.requests).toEqual([]);
    expect(upstream.asked.filter((line) => line.includes(notAllowed.authority))).toEqual([]);
  });
});
