import { randomBytes } from 'node:crypto';
import { createJetStreamBus } from '@mimamori/bus';
import { streams } from '@mimamori/events';
import { generateSecretKey } from '@mimamori/secret-box';
import {
  createFreshDatabase,
  createHttpVisitor,
  type FreshDatabase,
  startSmtpServer,
  testNatsUrl,
} from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, launchCluster, type ServiceName } from '../scripts/cluster/launch-cluster.ts';

// The cluster mode for real: eight processes, PostgreSQL, NATS JetStream, an SMTP server.
let database: FreshDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let cluster: Cluster;
const namespace = `t${randomBytes(4).toString('hex')}`;
const lines: { service: ServiceName; line: string }[] = [];

beforeAll(async () => {
  database = await createFreshDatabase();
  // Each message takes a while to accept, so a SIGTERM below lands while one is in flight.
  smtp = await startSmtpServer({ acceptDelayMs: 1_500 });
  cluster = await launchCluster({
    databaseUrl: database.url,
    natsUrl: testNatsUrl(),
    smtpUrl: smtp.url,
    httpPort: 0,
    secretKeys: generateSecretKey('test'),
    env: { BUS_NAMESPACE: namespace, LOG_LEVEL: 'info' },
    onLine: (service, line) => lines.push({ service, line }),
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  // The services leave their namespaced streams in place; this run's are removed here.
  const bus = await createJetStreamBus({ servers: testNatsUrl() });
  for (const { name } of Object.values(streams)) {
    if (await bus.hasStream(`${namespace}_${name}`)) await bus.deleteStream(`${namespace}_${name}`);
  }
  await bus.close();
  await smtp?.close();
  await database?.drop();
});

function errorLines() {
  return lines.filter(({ line }) => {
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return /error/i.test(line);
    }
  });
}

function tokenOfMailTo(address: string): string {
  const mail = smtp.messages.find((message) => JSON.stringify(message.to).includes(address));
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no link mailed to ${address}`);
  return token;
}

describe('cluster mode', () => {
  it('serves the SPA, /healthz and a 401 user_info through gateway → account → PostgreSQL', async () => {
    const page = await fetch(cluster.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(new URL('/healthz', cluster.url))).status).toBe(200);
    const userInfo = await fetch(new URL('/api/user_info', cluster.url), {
      headers: { cookie: 'mimamori_session=unknown-session' },
    });
    expect(userInfo.status).toBe(401);
    expect(await userInfo.json()).toEqual({
      error: { code: 'unauthenticated', message_key: 'errors.unauthenticated' },
    });
  });

  it('exposes readiness and metrics on every service', async () => {
    // What the chart's dashboard (helm/mimamori/dashboards) plots, from the service that measures it.
    const measures: Partial<Record<ServiceName, string[]>> = {
      crawler: [
        'mimamori_checks_total',
        'mimamori_check_duration_seconds',
        'mimamori_checks_pending',
        'mimamori_browser_pool_browsers',
        'mimamori_browser_pool_pages_in_use',
        'mimamori_browser_memory_bytes',
      ],
      scheduler: ['mimamori_dispatch_lag_seconds'],
      notifier: ['mimamori_deliveries_total'],
    };
    for (const [service, opsUrl] of cluster.opsUrls) {
      expect((await fetch(new URL('readyz', opsUrl))).status, service).toBe(200);
      const metrics = await (await fetch(new URL('metrics', opsUrl))).text();
      expect(metrics, service).toContain('process_cpu');
      for (const name of measures[service] ?? []) expect(metrics, service).toContain(`# TYPE ${name} `);
    }
  });

  it('signs a person up, mails the link (account outbox → JetStream → notifier → SMTP), verifies and signs in', async () => {
    const visitor = createHttpVisitor(cluster.url);
    await visitor.get('/healthz');
    const signUp = await visitor.post('/api/signup', {
      email: 'cluster@example.jp',
      password: 'abcd1234',
      agree: true,
      lang: 'en',
    });
    expect(signUp.status).toBe(202);
    await smtp.waitForMessages(1, 30_000);
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Mimamori: confirm your e-mail address']);
    // The notifier marks the delivery sent just after the SMTP server took the message.
    await expect
      .poll(async () => (await fetch(new URL('metrics', cluster.opsUrls.get('notifier')))).text(), {
        timeout: 10_000,
      })
      .toMatch(/^mimamori_deliveries_total\{[^}]*channel="email",result="sent"[^}]*\} 1$/m);

    expect((await visitor.post('/api/verify', { token: tokenOfMailTo('cluster@example.jp') })).status).toBe(
      200,
    );
    expect(
      (await visitor.post('/api/signin', { email: 'cluster@example.jp', password: 'abcd1234' })).status,
    ).toBe(200);
    const userInfo = await visitor.get('/api/user_info');
    expect(userInfo.status).toBe(200);
    expect(userInfo.body).toMatchObject({ mails: ['cluster@example.jp'], locale: { Lang: 'en' } });
  });

  it('on SIGTERM, every process finishes its work in flight and exits 0 without logging an error', async () => {
    const visitor = createHttpVisitor(cluster.url);
    await visitor.get('/healthz');
    await visitor.post('/api/signup', {
      email: 'inflight@example.jp',
      password: 'abcd1234',
      agree: true,
      lang: 'ja',
    });
    await smtp.waitForIncoming(2, 30_000);

    // The notifier is now handing the mail to a slow SMTP server: stop everything. A process
    // still running 10 s after SIGTERM is killed and shows up as a null exit code.
    const exits = await cluster.stop(10_000);

    expect(Object.fromEntries(exits)).toEqual(
      Object.fromEntries([...cluster.processes.keys()].map((service) => [service, 0])),
    );
    expect(smtp.messages.map((mail) => mail.subject)).toContain('【Mimamori】メールアドレスの確認');
    expect(errorLines()).toEqual([]);
  });
});
