import { describe, expect, it } from 'vitest';
import { createInProcessBus } from './in-process-bus.ts';
import { type CatalogEntry, startConsumers } from './subject-catalog.ts';

const entry = (subject: string, more: Partial<CatalogEntry> = {}): CatalogEntry => ({
  stream: 'ACCOUNTS',
  durable: `notifier-${subject}`,
  subject,
  maxDeliver: 3,
  ackWaitMs: 1_000,
  handler: async () => undefined,
  ...more,
});

async function busWithAccounts() {
  const bus = createInProcessBus();
  await bus.declareStreams([{ name: 'ACCOUNTS', subjects: ['accounts.>'] }]);
  return bus;
}

describe('subject catalog', () => {
  it('starts one consumer per subject and stops them all with one call', async () => {
    const bus = await busWithAccounts();
    const handled: string[] = [];
    const stop = await startConsumers(bus, [
      entry('accounts.created', { handler: async (message) => void handled.push(message.subject) }),
      entry('accounts.deleted', { handler: async (message) => void handled.push(message.subject) }),
    ]);
    await bus.publish('accounts.created', new Uint8Array(), { msgId: '1' });
    await bus.publish('accounts.deleted', new Uint8Array(), { msgId: '2' });
    while (handled.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(handled.sort()).toEqual(['accounts.created', 'accounts.deleted']);
    await stop();
    await bus.publish('accounts.created', new Uint8Array(), { msgId: '3' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled).toHaveLength(2);
    await bus.close();
  });

  it('refuses a subject with two handlers', async () => {
    const bus = await busWithAccounts();
    await expect(
      startConsumers(bus, [entry('accounts.created'), entry('accounts.created', { durable: 'other' })]),
    ).rejects.toThrow('subject accounts.created has 2 handlers');
  });

  it('refuses a subject without a handler', async () => {
    const bus = await busWithAccounts();
    const missing = { ...entry('accounts.created'), handler: undefined } as unknown as CatalogEntry;
    await expect(startConsumers(bus, [missing])).rejects.toThrow('subject accounts.created has no handler');
  });

  it('refuses a durable reused for another subject', async () => {
    const bus = await busWithAccounts();
    await expect(
      startConsumers(bus, [
        entry('accounts.created', { durable: 'd' }),
        entry('accounts.deleted', { durable: 'd' }),
      ]),
    ).rejects.toThrow('durable d on ACCOUNTS is used for accounts.created and accounts.deleted');
  });

  it('refuses an undeclared stream before starting anything', async () => {
    const bus = await busWithAccounts();
    let handled = 0;
    await bus.publish('accounts.created', new Uint8Array(), { msgId: '1' });
    await expect(
      startConsumers(bus, [
        entry('accounts.created', { handler: async () => void handled++ }),
        entry('targets.created', { stream: 'TARGETS' }),
      ]),
    ).rejects.toThrow('stream TARGETS is not declared');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled).toBe(0);
  });
});
