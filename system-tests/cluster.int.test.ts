import { createHttpVisitor } from '@mimamori/test-fixtures';
import { describe, expect, it } from 'vitest';
import type { ServiceName } from '../scripts/cluster/launch-cluster.ts';
import { tokenMailedTo } from './rig/account-steps.ts';
import { useSystemRig } from './rig/system-rig.ts';

// The cluster mode for real: eight processes, PostgreSQL, NATS JetStream, an SMTP server.
// Each message takes a while to accept, so a SIGTERM below lands while one is in flight.
const rig = useSystemRig('cluster', () => ({ smtpAcceptDelayMs: 1_500, logLevel: 'info' }));

/** Lines of level error or worse any service wrote (a line that is no JSON counts if it says error). */
function errorLines() {
  return rig().lines.filter((tagged) => {
    const line = tagged.slice(tagged.indexOf(': ') + 2);
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return /error/i.test(line);
    }
  });
}

describe('cluster mode', () => {
  it('serves the SPA, /healthz and a 401 user_info through gateway → account → PostgreSQL', async () => {
    const page = await fetch(rig().cluster.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(new URL('/healthz', rig().cluster.url))).status).toBe(200);
    const userInfo = await fetch(new URL('/api/user_info', rig().cluster.url), {
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
    for (const [service, opsUrl] of rig().cluster.opsUrls) {
      expect((await fetch(new URL('readyz', opsUrl))).status, service).toBe(200);
      const metrics = await (await fetch(new URL('metrics', opsUrl))).text();
      expect(metrics, service).toContain('process_cpu');
      for (const name of measures[service] ?? []) expect(metrics, service).toContain(`# TYPE ${name} `);
    }
  });

  it('signs a person up, mails the link (account outbox → JetStream → notifier → SMTP), verifies and signs in', async () => {
    const visitor = createHttpVisitor(rig().cluster.url);
    await visitor.get('/healthz');
    const signUp = await visitor.post('/api/signup', {
      email: 'cluster@example.jp',
      password: 'abcd1234',
      agree: true,
      lang: 'en',
    });
    expect(signUp.status).toBe(202);
    await rig().smtp.waitForMessages(1, 30_000);
    expect(rig().smtp.messages.map((mail) => mail.subject)).toEqual([
      'Mimamori: confirm your e-mail address',
    ]);
    // The notifier marks the delivery sent just after the SMTP server took the message.
    await expect
      .poll(async () => (await fetch(new URL('metrics', rig().cluster.opsUrls.get('notifier')))).text(), {
        timeout: 10_000,
      })
      .toMatch(/^mimamori_deliveries_total\{[^}]*channel="email",result="sent"[^}]*\} 1$/m);

    expect(
      (await visitor.post('/api/verify', { token: tokenMailedTo(rig(), 'cluster@example.jp') })).status,
    ).toBe(200);
    expect(
      (await visitor.post('/api/signin', { email: 'cluster@example.jp', password: 'abcd1234' })).status,
    ).toBe(200);
    const userInfo = await visitor.get('/api/user_info');
    expect(userInfo.status).toBe(200);
    expect(userInfo.body).toMatchObject({ mails: ['cluster@example.jp'], locale: { Lang: 'en' } });
  });

  it('on SIGTERM, every process finishes its work in flight and exits 0 without logging an error', async () => {
    const visitor = createHttpVisitor(rig().cluster.url);
    await visitor.get('/healthz');
    await visitor.post('/api/signup', {
      email: 'inflight@example.jp',
      password: 'abcd1234',
      agree: true,
      lang: 'ja',
    });
    await rig().smtp.waitForIncoming(2, 30_000);

    // The notifier is now handing the mail to a slow SMTP server: stop everything. A process
    // still running 10 s after SIGTERM is killed and shows up as a null exit code.
    const exits = await rig().cluster.stop(10_000);

    expect(Object.fromEntries(exits)).toEqual(
      Object.fromEntries([...rig().cluster.processes.keys()].map((service) => [service, 0])),
    );
    expect(rig().smtp.messages.map((mail) => mail.subject)).toContain('【Mimamori】メールアドレスの確認');
    expect(errorLines()).toEqual([]);
  });
});
