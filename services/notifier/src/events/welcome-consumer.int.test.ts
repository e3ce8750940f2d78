import type { BusMessage } from '@mimamori/bus';
import { type Db, migrate, openPostgres } from '@mimamori/db';
import { accountCreated } from '@mimamori/events';
import { openMailTransport } from '@mimamori/mail';
import { createLogger } from '@mimamori/runtime';
import { createFreshDatabase, type FreshDatabase, startSmtpServer } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryStore } from '../store/delivery-store.ts';
import { NOTIFIER_SCHEMA, notifierMigrations } from '../store/migrations.ts';
import { welcomeConsumer } from './welcome-consumer.ts';

let database: FreshDatabase;
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

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

function delivery(payload: Parameters<typeof accountCreated.encode>[0]): BusMessage {
  return {
    subject: accountCreated.subject,
    data: accountCreated.encode(payload),
    msgId: payload.eventId,
    headers: {},
    deliveryCount: 1,
    ack() {},
    nak() {},
    term() {},
    working() {},
  };
}

describe('welcome mail consumer', () => {
  it('sends one mail in the account language even when the event is delivered twice', async () => {
    const mail = openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>');
    const consumer = welcomeConsumer({
      deliveries: createDeliveryStore(db),
      mail,
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    const event = delivery({
      eventId: 'account-created:u-1',
      userId: 'u-1',
      email: 'hanako@example.jp',
      lang: 'ja',
      createdAt: new Date(),
    });

    await consumer.handler(event);
    await consumer.handler(event);

    const received = smtp.messages.filter((m) => m.to && JSON.stringify(m.to).includes('hanako@example.jp'));
    expect(received).toHaveLength(1);
    expect(received[0]?.subject).toBe('Mimamori へようこそ');
    expect(received[0]?.text).toContain('アカウントができました');
    const { rows } = await db.query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM ${NOTIFIER_SCHEMA}.deliveries WHERE id = 'welcome:u-1:email'`,
    );
    expect(rows).toEqual([{ status: 'sent', attempts: 2 }]);
    await mail.close();
  });

  it('retries a delivery whose send failed, and then sends it', async () => {
    const failing = openMailTransport('smtp://127.0.0.1:1', 'Mimamori <no-reply@mimamori.local>');
    const logger = createLogger({ service: 'test', level: 'silent' });
    const deliveries = createDeliveryStore(db);
    const event = delivery({
      eventId: 'account-created:u-2',
      userId: 'u-2',
      email: 'ken@example.com',
      lang: 'en',
      createdAt: new Date(),
    });

    await expect(welcomeConsumer({ deliveries, mail: failing, logger }).handler(event)).rejects.toThrow();
    const mail = openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>');
    await welcomeConsumer({ deliveries, mail, logger }).handler(event);

    const received = smtp.messages.filter((m) => JSON.stringify(m.to).includes('ken@example.com'));
    expect(received.map((m) => m.subject)).toEqual(['Welcome to Mimamori']);
    await failing.close();
    await mail.close();
  });
});
