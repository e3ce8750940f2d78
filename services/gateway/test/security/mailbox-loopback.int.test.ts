import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountV1 } from '@mimamori/contracts';
import { createMailbox, type Mailbox } from '@mimamori/mail';
import { createGrpcClient, createLogger } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway.ts';

// /dev/mailbox shows every account's verification and reset mail without signing in: it may exist
// only while the product listens on loopback, never on a wildcard or another interface.
let mailDir: string;
let mailbox: Mailbox;
let mailId: string;
// The mailbox pages never call the account service; the client only completes the gateway's deps.
const account = createGrpcClient(accountV1.AccountServiceClient, '127.0.0.1:9');

beforeAll(async () => {
  mailDir = await mkdtemp(join(tmpdir(), 'mailbox-loopback-'));
  mailbox = await createMailbox(mailDir, { from: 'Mimamori <no-reply@mimamori.local>' });
  await mailbox.send({ to: ['yamada@example.jp'], subject: 'Reset your password', text: 'token=secret' });
  mailId = (await mailbox.list())[0]?.id ?? '';
});

afterAll(async () => {
  account.close();
  await rm(mailDir, { recursive: true, force: true });
});

async function mailboxAnswers(host: string): Promise<number[]> {
  const gateway = await createGateway({
    logger: createLogger({ service: 'mailbox-test', level: 'silent' }),
    account,
    mailbox,
    isShuttingDown: () => false,
  });
  try {
    // The listening address, or 127.0.0.1 when the product listens on every interface.
    const url = await gateway.listen({ host, port: 0 });
    const statuses: number[] = [];
    for (const path of ['dev/mailbox', `dev/mailbox/${mailId}`]) {
      statuses.push((await fetch(new URL(path, url))).status);
    }
    return statuses;
  } finally {
    await gateway.close();
  }
}

describe('the local mailbox', () => {
  it('is served when the product listens on a loopback address', async () => {
    expect(mailId).not.toBe('');
    expect(await mailboxAnswers('127.0.0.1')).toEqual([200, 200]);
    expect(await mailboxAnswers('127.0.0.2')).toEqual([200, 200]);
  });

  it('is absent (404) when the product listens on every interface, even to a loopback visitor', async () => {
    expect(await mailboxAnswers('0.0.0.0')).toEqual([404, 404]);
  });
});
