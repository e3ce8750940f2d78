import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadLetterProbe, describeBusContract } from './bus-contract.ts';
import { openDeadLetters } from './dead-letter-admin.ts';
import { deadLetterStream } from './event-bus.ts';
import { createJetStreamBus } from './jetstream-bus.ts';
import { namespacedBus } from './namespaced-bus.ts';

const servers = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
let admin: NatsConnection;

beforeAll(async () => {
  admin = await connect({ servers });
});

afterAll(async () => {
  await admin?.close();
});

/** Removes what a test left on the shared server: its streams and its dead letters. */
async function removeStreams(streams: string[]) {
  const jsm = await jetstreamManager(admin);
  for (const stream of streams) {
    await jsm.streams.delete(stream).catch(() => false);
    await jsm.consumers.delete(deadLetterStream, deadLetterProbe(stream)).catch(() => false);
    await jsm.streams.purge(deadLetterStream, { filter: `deadletter.${stream}.>` }).catch(() => undefined);
  }
}

describeBusContract(
  'JetStream',
  ({ retryDelay }) => createJetStreamBus({ servers, retryDelay }),
  removeStreams,
);

describe('JetStream bus beyond the contract', () => {
  it('keeps the ack of a handler that finished during close', async () => {
    const stream = `S${randomBytes(5).toString('hex')}`;
    const subject = `${stream.toLowerCase()}.x`;
    const spec = { stream, durable: 'graceful', ackWaitMs: 400, maxDeliver: 5 };
    try {
      const bus = await createJetStreamBus({ servers });
      await bus.declareStreams([{ name: stream, subjects: [`${stream.toLowerCase()}.>`] }]);
      let started = false;
      await bus.consume(spec, async () => {
        started = true;
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await bus.publish(subject, new TextEncoder().encode('in-flight'), { msgId: 'in-flight' });
      while (!started) await new Promise((resolve) => setTimeout(resolve, 10));
      await bus.close();

      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const next = await createJetStreamBus({ servers });
      const seen: string[] = [];
      await next.consume(spec, async (message) => {
        seen.push(message.msgId);
      });
      await next.publish(subject, new TextEncoder().encode('marker'), { msgId: 'marker' });
      while (!seen.includes('marker')) await new Promise((resolve) => setTimeout(resolve, 10));
      await next.close();
      expect(seen).toEqual(['marker']);
    } finally {
      await removeStreams([stream]);
    }
  });

  it('runs one handler for a message the server hands over again while it is handled, and settles both', async () => {
    // The server may deliver a message again long before its ack wait (nats-server 2.9 did,
    // after a crawler was killed with a pull request open); a nak from outside makes it do so
    // on cue: the copy is read off the pull request's inbox and nak'd through its ack subject.
    const stream = `S${randomBytes(5).toString('hex')}`;
    const subject = `${stream.toLowerCase()}.x`;
    const bus = await createJetStreamBus({ servers });
    const replies: string[] = [];
    const snoop = admin.subscribe('_INBOX.>', {
      callback: (_error, message) => {
        if (message.reply?.startsWith(`$JS.ACK.${stream}.`)) replies.push(message.reply);
      },
    });
    try {
      await bus.declareStreams([
        { name: stream, subjects: [`${stream.toLowerCase()}.>`], retention: 'workqueue' },
      ]);
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const runs: number[] = [];
      await bus.consume(
        { stream, durable: 'once', ackWaitMs: 10_000, maxDeliver: 5, concurrency: 2 },
        async (message) => {
          runs.push(message.deliveryCount);
          await released;
        },
      );
      await bus.publish(subject, new TextEncoder().encode('slow'), { msgId: 'slow' });
      while (runs.length === 0 || replies.length === 0)
        await new Promise((resolve) => setTimeout(resolve, 10));
      admin.publish(replies[0] as string, '-NAK');
      while (replies.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      // Room for a second handler to start, were it going to.
      await new Promise((resolve) => setTimeout(resolve, 500));
      release();

      const jsm = await jetstreamManager(admin);
      let left = (await jsm.streams.info(stream)).state.messages;
      for (let tries = 0; left > 0 && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        left = (await jsm.streams.info(stream)).state.messages;
      }
      expect(left).toBe(0);
      expect(runs).toEqual([1]);
      expect(replies).toHaveLength(2);
    } finally {
      snoop.unsubscribe();
      await bus.close();
      await removeStreams([stream]);
    }
  });

  it('isolates a namespaced bus and deletes its streams when closed', async () => {
    const namespace = `t${randomBytes(4).toString('hex')}`;
    const bus = namespacedBus(await createJetStreamBus({ servers }), namespace);
    await bus.declareStreams([{ name: 'ACCOUNTS', subjects: ['accounts.>'] }]);
    const seen: string[] = [];
    await bus.consume(
      { stream: 'ACCOUNTS', durable: 'reader', ackWaitMs: 1_000, maxDeliver: 3 },
      async (message) => {
        seen.push(message.subject);
      },
    );
    const ack = await bus.publish('accounts.created', new Uint8Array([1]), { msgId: 'one' });
    expect(ack.stream).toBe('ACCOUNTS');
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['accounts.created']);

    const jsm = await jetstreamManager(admin);
    expect((await jsm.streams.info(`${namespace}_ACCOUNTS`)).config.subjects).toEqual([
      `${namespace}.accounts.>`,
    ]);
    await bus.close();
    await expect(jsm.streams.info(`${namespace}_ACCOUNTS`)).rejects.toThrow();
  });

  it('lists dead letters of a stream and redrives them under their event id', async () => {
    const stream = `S${randomBytes(5).toString('hex')}`;
    const subject = `${stream.toLowerCase()}.created`;
    const bus = await createJetStreamBus({ servers, retryDelay: () => 50 });
    const deadLetters = await openDeadLetters(servers);
    try {
      await bus.declareStreams([{ name: stream, subjects: [`${stream.toLowerCase()}.>`] }]);
      let broken = true;
      const handled: string[] = [];
      await bus.consume({ stream, durable: 'fragile', ackWaitMs: 1_000, maxDeliver: 2 }, async (message) => {
        if (broken) throw new Error('downstream unavailable');
        handled.push(`${message.msgId} ${message.headers['x-origin']}`);
      });
      await bus.publish(subject, new TextEncoder().encode('payload'), {
        msgId: 'event-7',
        headers: { 'x-origin': 'test' },
      });
      let listed = await deadLetters.list({ stream });
      while (listed.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        listed = await deadLetters.list({ stream });
      }
      expect(listed).toMatchObject([
        { stream, subject, consumer: 'fragile', deliveries: 2, eventId: 'event-7' },
      ]);
      expect(listed[0]?.reason).toContain('downstream unavailable');

      broken = false;
      expect(await deadLetters.redrive({ stream })).toHaveLength(1);
      while (handled.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(handled).toEqual(['event-7 test']);
      expect(await deadLetters.list({ stream })).toEqual([]);
    } finally {
      await bus.close();
      await deadLetters.close();
      await removeStreams([stream]);
    }
  });
});
