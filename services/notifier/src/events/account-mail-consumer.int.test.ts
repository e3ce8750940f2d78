import type { BusMessage } from '@mimamori/bus';
import { type Db, migrate, openPostgres } from '@mimamori/db';
import { accountMailRequested } from '@mimamori/events';
import { openMailTransport } from '@mimamori/mail';
import { createLogger } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { createFreshDatabase, type FreshDatabase, startSmtpServer } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryStore } from '../store/delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from '../store/migrations.ts';
import { accountMailConsumer } from './account-mail-consumer.ts';

let database: FreshDatabase;
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const secretBox = createSecretBox(generateSecretKey('k1'));
const logger = createLogger({ service: 'test', level: 'silent' });

beforeAll(async () => {
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  await migrate(db, NOTIFIER_SCHEMA, notifierMigrations);
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
  await db?.close();
  await database?.drop();
});

function delivery(payload: Parameters<typeof accountMailRequested.encode>[0]): BusMessage {
  return {
    subject: accountMailRequested.subject,
    data: accountMailRequested.encode(payload),
    msgId: payload.eventId,
    headers: {},
    deliveryCount: 1,
    ack() {},
    nak() {},
    term() {},
    working() {},
  };
}

describe('account mail consumer', () => {
  it('opens the sealed token into the link, sends HTML and text once even when delivered twice', async () => {
    const mail = openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>');
    const consumer = accountMailConsumer({
      deliveries: createDeliveryStore(db),
      mail,
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      logger,
    });
    const eventId = 'account-mail:reset_password:abc';
    const event = delivery({
      eventId,
      userId: 'u-1',
      to: 'reset@example.jp',
      lang: 'ja',
      kind: 'reset_password',
      sealedToken: secretBox.seal('the-token', eventId),
      supportType: '',
      plan: 0,
      timezone: '',
      price: 0,
      currency: '',
      cycle: '',
      chatPlatform: '',
      chatLabel: '',
      chatReason: '',
      workspaceName: '',
      memberRole: '',
      inviterName: '',
      deviceBrowser: '',
      deviceOs: '',
      deviceClientAddress: '',
    });
    await consumer.handler(event);
    await consumer.handler(event);

    const received = smtp.messages.filter((m) => JSON.stringify(m.to).includes('reset@example.jp'));
    expect(received).toHaveLength(1);
    expect(received[0]?.subject).toBe('【Mimamori】パスワードの再設定');
    expect(received[0]?.text).toContain('https://mimamori.example/reset_pass?token=the-token');
    expect(received[0]?.html).toContain('href="https://mimamori.example/reset_pass?token=the-token"');
    await mail.close();
  });

  it('refuses a token sealed for another event (it would not open)', async () => {
    const mail = openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>');
    const consumer = accountMailConsumer({
      deliveries: createDeliveryStore(db),
      mail,
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      logger,
    });
    const event = delivery({
      eventId: 'account-mail:verify_email:moved',
      userId: 'u-2',
      to: 'moved@example.jp',
      lang: 'en',
      kind: 'verify_email',
      sealedToken: secretBox.seal('the-token', 'another-event'),
      supportType: '',
      plan: 0,
      timezone: '',
      price: 0,
      currency: '',
      cycle: '',
      chatPlatform: '',
      chatLabel: '',
      chatReason: '',
      workspaceName: '',
      memberRole: '',
      inviterName: '',
      deviceBrowser: '',
      deviceOs: '',
      deviceClientAddress: '',
    });
    await expect(consumer.handler(event)).rejects.toThrow();
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes('moved@example.jp'))).toHaveLength(0);
    await mail.close();
  });

  it.each([
    {
      lang: 'ja',
      kind: 'trial_ending',
      subject: '【Mimamori】無料トライアルは3日後に終了します',
      line: '登録すると2027年1月19日 22:07（日本時間）から「ベーシック5 (1分間隔)」の有料契約（月額¥1,980（税込、うち消費税¥180））に移り、解約するまで自動更新されます。',
      link: 'https://mimamori.example/newcard',
    },
    {
      lang: 'en',
      kind: 'trial_ending',
      subject: 'Mimamori: your free trial ends in 3 days',
      line: 'from Jan 19, 2027, 13:07 (UTC) you are then on the paid Basic 5 (1-minute interval) plan (¥1,980 a month (tax included: ¥180 consumption tax)), renewed automatically until you cancel.',
      link: 'https://mimamori.example/newcard',
    },
    {
      lang: 'ja',
      kind: 'subscribed_again',
      subject: '【Mimamori】ご契約を再開しました',
      line: '2027年1月19日 22:07（日本時間）に自動更新されます。',
      link: 'https://mimamori.example/',
    },
    {
      lang: 'ja',
      kind: 'plan_change_booked',
      subject: '【Mimamori】プランの変更を予約しました',
      line: '2027年1月19日 22:07（日本時間）の更新から、プランは「ベーシック5 (1分間隔)」に変わります。',
      link: 'https://mimamori.example/planchange',
    },
    {
      lang: 'en',
      kind: 'plan_change_booked',
      subject: 'Mimamori: your plan change is booked',
      line: 'From your next renewal on Jan 19, 2027, 13:07 (UTC), your plan will be Basic 5 (1-minute interval).',
      link: 'https://mimamori.example/planchange',
    },
    {
      lang: 'ja',
      kind: 'hold_lifted',
      subject: '【Mimamori】アカウントの保留を解除しました',
      line: '止まっていたサイトは一時停止のままです。ダッシュボードから監視を再開してください。',
      link: 'https://mimamori.example/',
    },
    {
      lang: 'en',
      kind: 'cancellation_undone',
      subject: 'Mimamori: your cancellation is undone',
      line: 'Basic 5 (1-minute interval) renews as usual on Jan 19, 2027, 13:07 (UTC).',
      link: 'https://mimamori.example/account',
    },
  ] as const)('sends the $kind billing mail in $lang once, even when delivered twice', async (expected) => {
    const mail = openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>');
    const consumer = accountMailConsumer({
      deliveries: createDeliveryStore(db),
      mail,
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      logger,
    });
    const to = `${expected.kind}-${expected.lang}@example.jp`;
    const event = delivery({
      eventId: `billing-mail:${expected.kind}:u-3:${expected.lang}`,
      userId: 'u-3',
      to,
      lang: expected.lang,
      kind: expected.kind,
      sealedToken: '',
      supportType: '',
      billingDate: new Date('2027-01-19T13:07:00Z'),
      plan: 4,
      timezone: '',
      price: 1980,
      currency: 'JPY',
      cycle: 'month',
      chatPlatform: '',
      chatLabel: '',
      chatReason: '',
      workspaceName: '',
      memberRole: '',
      inviterName: '',
      deviceBrowser: '',
      deviceOs: '',
      deviceClientAddress: '',
    });
    await consumer.handler(event);
    await consumer.handler(event);

    const received = smtp.messages.filter((m) => JSON.stringify(m.to).includes(to));
    expect(received).toHaveLength(1);
    expect(received[0]?.subject).toBe(expected.subject);
    expect(received[0]?.text).toContain(expected.line);
    expect(received[0]?.text).toContain(expected.link);
    expect(received[0]?.html).toContain(`href="${expected.link}"`);
    await mail.close();
  });
});
