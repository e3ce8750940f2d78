import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createShutdown } from '@mimamori/runtime';
import { createHttpVisitor } from '@mimamori/test-fixtures';
import { describe, expect, it } from 'vitest';
import { startStandalone } from './start-standalone.ts';

describe('single-process mode', () => {
  it('runs every service on embedded defaults: gateway → account over gRPC, events over the in-process bus', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mimamori-standalone-'));
    const logger = createLogger({ service: 'standalone-test', level: 'silent' });
    const shutdown = createShutdown({ logger, timeoutMs: 5_000 });
    try {
      const product = await startStandalone({
        host: '127.0.0.1',
        port: 0,
        dataDir,
        logger,
        shutdown,
        prices: {
          plans: { 3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } } },
          addons: {},
        },
      });
      expect(Object.keys(product.services).sort()).toEqual(
        ['account', 'crawler', 'diff', 'filings', 'gateway', 'notifier', 'scheduler', 'target'].sort(),
      );

      const visitor = createHttpVisitor(product.url);
      expect((await visitor.get('/healthz')).status).toBe(200);
      expect(await visitor.get('/api/user_info')).toEqual({
        status: 401,
        body: { error: { code: 'unauthenticated', message_key: 'errors.unauthenticated' } },
      });

      const signUp = await visitor.post('/api/signup', {
        email: 'yamada@example.jp',
        password: 'abcd1234',
        agree: true,
        lang: 'ja',
      });
      expect(signUp.status).toBe(202);

      // account's outbox → in-process bus → notifier → the local mailbox, browsable over HTTP.
      let mails: Awaited<ReturnType<typeof product.mailbox.list>> = [];
      for (let i = 0; i < 100 && mails.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        mails = await product.mailbox.list();
      }
      expect(mails.map((mail) => mail.subject)).toEqual(['【Mimamori】メールアドレスの確認']);
      const page = await visitor.get('/dev/mailbox');
      expect(page.body).toContain('【Mimamori】メールアドレスの確認');

      const mail = await product.mailbox.read(mails[0]?.id ?? '');
      const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
      expect((await visitor.post('/api/verify', { token })).status).toBe(200);
      expect(
        (await visitor.post('/api/signin', { email: 'yamada@example.jp', password: 'abcd1234' })).status,
      ).toBe(200);
      expect(await visitor.get('/api/user_info')).toMatchObject({
        status: 200,
        body: { mails: ['yamada@example.jp'] },
      });

      // Listening on loopback, Discord is the product's own /dev/discord: linking a webhook
      // posts the test message there, and the link completes without Discord.
      const linked = await visitor.post('/api/account/discord', {
        webhook_url:
          'https://discord.com/api/webhooks/100000000000000001/mimamori-local-stand-in-mimamori-local-stand-in',
      });
      expect(linked.status).toBe(200);
      // Quoted, so "not_complete" (the test message was not accepted) does not pass.
      expect(JSON.stringify(linked.body)).toContain('"complete"');
      const discord = await visitor.get('/dev/discord');
      expect(discord.status).toBe(200);
      expect(String(discord.body)).toContain('Mimamori との連携が完了しました。');

      // On loopback the product suggests its own webhook receiver, the one loopback URL the SSRF
      // guard lets through; a test delivery lands on /dev/webhooks.
      const listed = await visitor.get('/api/webhooks');
      const tryUrl = (listed.body as { try_url: string | null }).try_url ?? '';
      expect(tryUrl).toBe(new URL('/dev/webhooks/in/demo', product.url).href);
      const made = await visitor.post('/api/webhooks', { url: tryUrl });
      expect(made.status).toBe(201);
      const tested = await visitor.post('/api/webhooks/test', {
        id: (made.body as { webhook: { id: string } }).webhook.id,
      });
      expect(tested.body).toMatchObject({ outcome: 'answered', status: 200 });
      expect(String((await visitor.get('/dev/webhooks')).body)).toContain(
        '&quot;type&quot;: &quot;test&quot;',
      );

      // So are the chat platforms: Chatwork linked with a token and a room posts its test
      // message to the product's own /dev/chatwork.
      const chat = await visitor.post('/api/v2/chat-links', {
        platform: 'chatwork',
        fields: { apiToken: 'localstandintoken0123456789abcdef', roomId: '4242' },
      });
      expect(chat.status).toBe(201);
      const chatTest = await visitor.post('/api/v2/chat-links/test', {
        id: (chat.body as { link: { id: string } }).link.id,
      });
      expect(chatTest.body).toEqual({ outcome: 'sent', reason: '' });
      expect(String((await visitor.get('/dev/chatwork')).body)).toContain('Mimamori のテストメッセージです');

      // Without a Stripe key billing runs on the local stand-in: the trial is at "Stripe", and the
      // card screens offer the test card form, which registers a card end to end.
      expect(product.stripeStandInUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      let billing = await visitor.get('/api/billing');
      for (let i = 0; i < 100 && billing.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        billing = await visitor.get('/api/billing');
      }
      expect(billing).toMatchObject({
        status: 200,
        body: { status: 1, currency: 'JPY', has_pi: false, card_form: { kind: 'test_cards' } },
      });
      const intent = await visitor.post('/api/billing/setup_intent', {});
      const carded = await visitor.post('/api/billing/card', {
        setup_intent_id: (intent.body as { setup_intent_id: string }).setup_intent_id,
        test_card: 'pm_card_visa',
      });
      expect(carded).toMatchObject({
        status: 200,
        body: { status: 1, has_pi: true, card: { last4: '4242' } },
      });
      // Stopped and started again on the same data folder, the stand-in pages show what they had.
      await shutdown.run('restart');
      const again = createShutdown({ logger, timeoutMs: 5_000 });
      try {
        const restarted = await startStandalone({
          host: '127.0.0.1',
          port: 0,
          dataDir,
          logger,
          shutdown: again,
        });
        const after = createHttpVisitor(restarted.url);
        expect(String((await after.get('/dev/discord')).body)).toContain('Mimamori との連携が完了しました。');
        expect(String((await after.get('/dev/webhooks')).body)).toContain(
          '&quot;type&quot;: &quot;test&quot;',
        );
        expect(String((await after.get('/dev/chatwork')).body)).toContain('Mimamori のテストメッセージです');
      } finally {
        await again.run('test finished');
      }
    } finally {
      await shutdown.run('test finished');
      await rm(dataDir, { recursive: true, force: true });
    }
    // PGlite migrating seven schemas takes seconds when the machine is busy (about 40 s in all
    // at a load average of 20 on two cores).
  }, 60_000);
});
