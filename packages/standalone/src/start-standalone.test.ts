import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountV1 } from '@mimamori/contracts';
import { createGrpcClient, createLogger, createShutdown, unary } from '@mimamori/runtime';
import { describe, expect, it } from 'vitest';
import { startStandalone } from './start-standalone.ts';

describe('single-process mode', () => {
  it('runs every service on embedded defaults: gateway → account over gRPC, events over the in-process bus', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mimamori-standalone-'));
    const logger = createLogger({ service: 'standalone-test', level: 'silent' });
    const shutdown = createShutdown({ logger, timeoutMs: 5_000 });
    try {
      const product = await startStandalone({ host: '127.0.0.1', port: 0, dataDir, logger, shutdown });
      expect(Object.keys(product.services).sort()).toEqual(
        ['account', 'crawler', 'diff', 'filings', 'notifier', 'scheduler', 'target'].sort(),
      );

      expect((await fetch(new URL('/healthz', product.url))).status).toBe(200);
      const userInfo = await fetch(new URL('/api/user_info', product.url));
      expect(userInfo.status).toBe(401);
      expect(await userInfo.json()).toEqual({
        error: { code: 'unauthenticated', message_key: 'errors.unauthenticated' },
      });

      const account = createGrpcClient(
        accountV1.AccountServiceClient,
        product.services.account?.grpcAddress ?? '',
      );
      await unary(account, 'createAccount', { email: 'yamada@example.jp', password: 'abcd1234', lang: 'ja' });
      account.close();

      // account's outbox → in-process bus → notifier → the local mailbox, browsable over HTTP.
      let mails: Awaited<ReturnType<typeof product.mailbox.list>> = [];
      for (let i = 0; i < 100 && mails.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        mails = await product.mailbox.list();
      }
      expect(mails.map((mail) => mail.subject)).toEqual(['Mimamori へようこそ']);
      const page = await fetch(new URL('/dev/mailbox', product.url));
      expect(await page.text()).toContain('Mimamori へようこそ');
    } finally {
      await shutdown.run('test finished');
      await rm(dataDir, { recursive: true, force: true });
    }
    // PGlite migrating eight schemas takes seconds when the machine is busy.
  }, 30_000);
});
