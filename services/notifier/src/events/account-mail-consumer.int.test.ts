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
    });
    await expect(consumer.handler(event)).rejects.toThrow();
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes('moved@example.jp'))).toHaveLength(0);
    await mail.close();
  });
});
