import { createHash, randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { accountV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';
import { createExpiredRowsStore } from './store/expired-rows-store.ts';

let testHost: TestServiceHost;
let db: Db;
let accounts: accountV1.AccountServiceClient;

beforeAll(async () => {
  testHost = await startTestServiceHost('account-api-access');
  db = testHost.db;
  const running = await runService(
    createAccountService({
      db,
      logger: testHost.logger,
      secretBox: createSecretBox(generateSecretKey('test')),
    }),
    testHost.host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
}, 60_000);

afterAll(async () => {
  accounts?.close();
  await testHost?.close();
});

async function signedIn() {
  const { userId } = await unary(accounts, 'createAccount', {
    email: `t${randomUUID().slice(0, 8)}@example.jp`,
    password: 'abcd1234',
    lang: 'ja',
  });
  const sessionToken = randomUUID();
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [hashSessionToken(sessionToken), userId],
  );
  return { sessionToken, userId };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

describe('API tokens and feed tokens in the account service', () => {
  it('keeps only a token’s hash, and lets the token stand in for a session once authorised', async () => {
    const { sessionToken, userId } = await signedIn();
    const made = await unary(accounts, 'createApiToken', {
      sessionToken,
      name: 'deploy',
      scopes: ['read'],
      expiresInDays: 30,
    });
    const { rows } = await db.query<Record<string, unknown>>(
      'SELECT * FROM account.api_tokens WHERE user_id = $1',
      [userId],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(made.secret);
    expect(rows[0]?.token_hash).toBe(sha256(made.secret));
    expect(await unary(accounts, 'authorizeApiToken', { token: made.secret, scope: 'read' })).toMatchObject({
      userId,
    });
    const info = await unary(accounts, 'getUserInfo', { sessionToken: made.secret });
    expect(info.userInfo?.userId).toBe(userId);
    await expect(unary(accounts, 'listApiTokens', { sessionToken: made.secret })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
      details: 'session_required',
    });
    // Its account ended: the token goes with it.
    await db.query('UPDATE account.users SET deleted_at = now() WHERE id = $1', [userId]);
    await expect(
      unary(accounts, 'authorizeApiToken', { token: made.secret, scope: 'read' }),
    ).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
  });

  it('keeps the feed token sealed, finds its owner by it, and forgets the old one on rotation', async () => {
    const { sessionToken, userId } = await signedIn();
    const { feedToken } = await unary(accounts, 'getFeedToken', { sessionToken });
    expect((await unary(accounts, 'getFeedToken', { sessionToken })).feedToken).toBe(feedToken);
    const { rows } = await db.query<{ token_hash: string; sealed_token: string }>(
      'SELECT token_hash, sealed_token FROM account.feed_tokens WHERE user_id = $1',
      [userId],
    );
    expect(rows[0]?.sealed_token).not.toContain(feedToken);
    expect(rows[0]?.token_hash).not.toContain(feedToken);
    expect((await unary(accounts, 'getFeedOwner', { feedToken })).userInfo?.userId).toBe(userId);
    const rotated = await unary(accounts, 'rotateFeedToken', { sessionToken });
    expect(rotated.feedToken).not.toBe(feedToken);
    await expect(unary(accounts, 'getFeedOwner', { feedToken })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      details: 'feed_not_found',
    });
    expect((await unary(accounts, 'getFeedOwner', { feedToken: rotated.feedToken })).userInfo?.userId).toBe(
      userId,
    );
  });

  it('lists an expired token for a month, then the sweep removes it', async () => {
    const { sessionToken, userId } = await signedIn();
    for (const name of ['old', 'recent', 'live'])
      await unary(accounts, 'createApiToken', { sessionToken, name, scopes: ['read'], expiresInDays: 1 });
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await db.query(`UPDATE account.api_tokens SET expires_at = $2 WHERE user_id = $1 AND name = 'old'`, [
      userId,
      ago(31),
    ]);
    await db.query(`UPDATE account.api_tokens SET expires_at = $2 WHERE user_id = $1 AND name = 'recent'`, [
      userId,
      ago(29),
    ]);
    await createExpiredRowsStore(db).pruneExpired(now, ago(1));
    const listed = await unary(accounts, 'listApiTokens', { sessionToken });
    expect(listed.tokens.map((token) => token.name).sort()).toEqual(['live', 'recent']);
  });
});
