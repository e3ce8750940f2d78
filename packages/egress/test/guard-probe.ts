// Run inside a loopback-only network namespace by egress-guard.int.test.ts: tries every
// destination the guard must refuse, with refused addresses really present on loopback so a
// broken guard would connect, and prints one JSON line per attempt.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createGuardedDispatcher, RefusedAddressError, startGuardedProxy } from '../src/index.ts';

const listen = async (host: string) => {
  const server = createServer((incoming, response) => response.end(`reached ${incoming.headers.host}`));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
};

const fixture = await listen('127.0.0.1');
const internal = await listen('::');
const allow = [`127.0.0.1:${fixture.port}`];
const refusedTargets = [
  `http://127.0.0.1:${internal.port}/`,
  `http://localhost:${internal.port}/`,
  `http://169.254.169.254:${internal.port}/latest/meta-data/`,
  `http://metadata.test:${internal.port}/`,
  `http://10.0.0.1:${internal.port}/`,
  `http://[::1]:${internal.port}/`,
  `http://[::ffff:169.254.169.254]:${internal.port}/`,
  `http://[::ffff:127.0.0.1]:${internal.port}/`,
  `http://0.0.0.0:${internal.port}/`,
];

const fixtureAuthority = `127.0.0.1:${fixture.port}`;
const report = (via: string, target: string, outcome: string) => {
  const meant = target.includes(fixtureAuthority) ? 'reached' : 'refused';
  process.stdout.write(`${JSON.stringify({ via, target, meant, outcome })}\n`);
};

const dispatcher = createGuardedDispatcher({ allow });
for (const target of [`http://127.0.0.1:${fixture.port}/`, ...refusedTargets]) {
  try {
    const answer = await request(target, { dispatcher });
    report('dispatcher', target, `status ${answer.statusCode}: ${await answer.body.text()}`);
  } catch (error) {
    report('dispatcher', target, error instanceof RefusedAddressError ? 'refused' : `error ${String(error)}`);
  }
}
await dispatcher.close();

const proxy = await startGuardedProxy({ allow });
const proxyPort = Number(new URL(proxy.url).port);
const viaProxy = (target: string) =>
  new Promise<string>((resolve) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port: proxyPort,
      path: target,
      headers: { host: new URL(target).host },
    });
    outgoing.on('response', (answer) => {
      let body = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      answer.on('end', () =>
        resolve(answer.headers['x-refused-address'] ? 'refused' : `status ${answer.statusCode}: ${body}`),
      );
    });
    outgoing.on('error', (error) => resolve(`error ${String(error)}`));
    outgoing.end();
  });
const tunnel = (authority: string) =>
  new Promise<string>((resolve) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority });
    outgoing.on('connect', (answer, socket) => {
      socket.destroy();
      resolve(answer.statusCode === 403 ? 'refused' : `status ${answer.statusCode}`);
    });
    outgoing.on('error', (error) => resolve(`error ${String(error)}`));
    outgoing.end();
  });
for (const target of [`http://127.0.0.1:${fixture.port}/`, ...refusedTargets, 'ftp://127.0.0.1/']) {
  report('proxy', target, await viaProxy(target));
}
for (const authority of [
  `127.0.0.1:${fixture.port}`,
  `169.254.169.254:${internal.port}`,
  `10.0.0.1:${internal.port}`,
  `[::1]:${internal.port}`,
  `metadata.test:${internal.port}`,
]) {
  report('connect', authority, await tunnel(authority));
}
await proxy.close();
fixture.server.close();
internal.server.close();
