import { type Client, makeGenericClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import { accountV1 } from '@mimamori/contracts';
import { service as healthService } from 'grpc-health-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountServiceWith } from './account-service-test-double.ts';
import { createGrpcClient, unary } from './grpc-client.ts';
import { GrpcError } from './grpc-error.ts';
import { createGrpcServer, type GrpcServer } from './grpc-server.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';

const userInfo: accountV1.UserInfo = {
  userId: 'u-1',
  mails: ['a@example.com'],
  num: { min60: 5, min10: 0, min1: 0, randomIp: 0, ss: 1, mail: 1, lineNotify: 0 },
  subscription: { price: 1200, status: 6, suspendAt: new Date('2025-01-31T00:00:00Z'), sInfo: undefined },
  hasPi: true,
  tdedinets: [{ edinet: 'E01234', tdnet: '7203', name1: 'Toyota' }],
  cikIsins: [],
  lineUrl: '',
  lineNeedSetting: false,
  deletedUser: false,
};

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

// A tiny AccountService whose session token picks the behaviour under test.
function testImplementation(hooks: { held: Deferred; release: Promise<void> }) {
  return {
    getUserInfo: (call, callback) => {
      switch (call.request.sessionToken) {
        case 'ok':
          return callback(null, { userInfo });
        case 'refused':
          throw new GrpcError(status.UNAUTHENTICATED, 'session expired');
        case 'broken':
          throw new Error('connection to postgres://admin:s3cret@db failed');
        case 'hold':
          hooks.held.resolve();
          return void hooks.release.then(() => callback(null, { userInfo }));
        case 'slow':
          return void call.once('cancelled', () => callback(null, { userInfo }));
        default:
          return callback({ code: status.NOT_FOUND, details: 'plain grpc-js error' });
      }
    },
    createAccount: async (call, callback) => {
      if (call.request.email === 'taken@example.com')
        throw new GrpcError(status.ALREADY_EXISTS, 'email_taken');
      callback(null, { userId: `user-of-${call.request.email}` });
    },
  } satisfies Partial<accountV1.AccountServiceServer>;
}

describe('gRPC server and client', () => {
  let server: GrpcServer;
  let address: string;
  let logLines: Record<string, unknown>[];
  let hooks: { held: Deferred; release: Promise<void> };
  let releaseHeld: () => void;
  const clients: Client[] = [];

  beforeEach(async () => {
    logLines = [];
    const logger = createLogger({
      service: 'account',
      level: 'debug',
      destination: { write: (line) => void logLines.push(JSON.parse(line)) },
    });
    const release = deferred();
    releaseHeld = release.resolve;
    hooks = { held: deferred(), release: release.promise };
    server = createGrpcServer({ logger, metrics: createMetrics({ service: 'account' }) });
    server.addService(accountV1.AccountServiceService, accountServiceWith(testImplementation(hooks)));
    address = `127.0.0.1:${await server.start({ host: '127.0.0.1', port: 0 })}`;
  });

  afterEach(async () => {
    releaseHeld();
    for (const client of clients.splice(0)) client.close();
    await server.shutdown(1000);
  });

  function accountClient(deadlineMs?: number) {
    const client = createGrpcClient(
      accountV1.AccountServiceClient,
      address,
      deadlineMs ? { deadlineMs } : {},
    );
    clients.push(client);
    return client;
  }

  function healthClient() {
    const Health = makeGenericClientConstructor(healthService as never, 'Health');
    const client = createGrpcClient(Health, address) as unknown as Client & {
      check(
        request: { service: string },
        callback: (error: ServiceError | null, response: { status: string }) => void,
      ): void;
      watch(request: { service: string }): NodeJS.EventEmitter & { cancel(): void };
    };
    clients.push(client);
    return client;
  }

  function check(client: ReturnType<typeof healthClient>, service: string) {
    return new Promise<string>((resolve, reject) =>
      client.check({ service }, (error, response) => (error ? reject(error) : resolve(response.status))),
    );
  }

  it('round-trips the generated AccountService messages', async () => {
    const client = accountClient();
    const response = await unary(client, 'getUserInfo', { sessionToken: 'ok' });
    expect(response.userInfo).toEqual({ ...userInfo, usedNum: undefined, locale: undefined });
    expect(response.userInfo?.subscription?.suspendAt).toBeInstanceOf(Date);
    await expect(
      unary(client, 'createAccount', { email: 'a@example.com', password: 'pw', lang: 'ja' }),
    ).resolves.toEqual({
      userId: 'user-of-a@example.com',
    });
  });

  it('passes a GrpcError code and message to the client, also from async handlers', async () => {
    const client = accountClient();
    await expect(unary(client, 'getUserInfo', { sessionToken: 'refused' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
      details: 'session expired',
    });
    await expect(
      unary(client, 'createAccount', { email: 'taken@example.com', password: 'pw', lang: 'en' }),
    ).rejects.toMatchObject({ code: status.ALREADY_EXISTS, details: 'email_taken' });
  });

  it('answers INTERNAL without details for anything else, and logs the details', async () => {
    const client = accountClient();
    const error = await unary(client, 'getUserInfo', { sessionToken: 'broken' }).catch(
      (e: ServiceError) => e,
    );
    expect(error).toMatchObject({ code: status.INTERNAL, details: 'internal error' });
    expect(JSON.stringify(error)).not.toContain('s3cret');
    expect(logLines).toContainEqual(
      expect.objectContaining({
        msg: 'grpc handler failed',
        rpc: 'mimamori.account.v1.AccountService/GetUserInfo',
        err: expect.objectContaining({ message: expect.stringContaining('connection to postgres') }),
      }),
    );
    // A plain grpc-js status object is not a GrpcError either.
    await expect(unary(client, 'getUserInfo', { sessionToken: 'other' })).rejects.toMatchObject({
      code: status.INTERNAL,
    });
  });

  it('maps a missed deadline to DEADLINE_EXCEEDED, from the client default or per call', async () => {
    await expect(unary(accountClient(30), 'getUserInfo', { sessionToken: 'slow' })).rejects.toMatchObject({
      code: status.DEADLINE_EXCEEDED,
    });
    await expect(
      unary(accountClient(), 'getUserInfo', { sessionToken: 'slow' }, { deadlineMs: 30 }),
    ).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
  });

  it('reports SERVING for the server and each service, NOT_SERVING when told', async () => {
    const health = healthClient();
    expect(await check(health, '')).toBe('SERVING');
    expect(await check(health, 'mimamori.account.v1.AccountService')).toBe('SERVING');
    server.setServing(false);
    expect(await check(health, '')).toBe('NOT_SERVING');
    expect(await check(health, 'mimamori.account.v1.AccountService')).toBe('NOT_SERVING');
  });

  it('turns NOT_SERVING on shutdown and lets in-flight calls finish', async () => {
    const health = healthClient();
    const watch = health.watch({ service: 'mimamori.account.v1.AccountService' });
    const statuses: string[] = [];
    const notServing = deferred();
    watch.on('data', (message: { status: string }) => {
      statuses.push(message.status);
      if (message.status === 'NOT_SERVING') notServing.resolve();
    });
    watch.on('error', () => {});

    const inFlight = unary(accountClient(), 'getUserInfo', { sessionToken: 'hold' });
    await hooks.held.promise;
    const stopped = server.shutdown(10_000);
    await notServing.promise;
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
    watch.cancel();

    releaseHeld();
    await expect(inFlight).resolves.toMatchObject({ userInfo: { userId: 'u-1' } });
    await stopped;
    await expect(
      unary(accountClient(), 'getUserInfo', { sessionToken: 'ok' }, { deadlineMs: 2000 }),
    ).rejects.toMatchObject({
      code: status.UNAVAILABLE,
    });
  });

  it('refuses a service with a method left unimplemented', () => {
    const incomplete = { getUserInfo: testImplementation(hooks).getUserInfo };
    expect(() => server.addService(accountV1.AccountServiceService, incomplete)).toThrowError(
      "/mimamori.account.v1.AccountService/CreateAccount: no handler for method 'createAccount'",
    );
  });
});
