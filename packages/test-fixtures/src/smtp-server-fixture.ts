import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpServerFixture {
  /** `smtp://127.0.0.1:<port>`, for a sender's configuration. */
  url: string;
  port: number;
  /** Every message accepted so far, parsed, in the order they were accepted. */
  messages: ParsedMail[];
  /** The user name of every AUTH the server saw; any password is accepted. */
  logins: string[];
  /** Resolves once at least `count` messages were accepted; rejects after `timeoutMs`. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Resolves once a client has connected (at any time since start); rejects after `timeoutMs`. */
  waitForConnection(timeoutMs?: number): Promise<void>;
  /**
   * Resolves once at least `count` messages have begun arriving (their DATA started), accepted
   * or not yet: with `acceptDelayMs`, the last of them is then in flight.
   */
  waitForIncoming(count: number, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once at least `count` messages were received whole, accepted or still held by
   * `acceptDelayMs`: from then on the server keeps the last one whatever its sender does.
   */
  waitForReceived(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface SmtpServerFixtureOptions {
  /**
   * How long the server takes to accept each message after receiving it, so a test can act
   * while a send is in flight.
   */
  acceptDelayMs?: number;
}

/**
 * A real SMTP server on loopback, plaintext (no STARTTLS: nothing to trust on 127.0.0.1) with
 * optional AUTH. A message is parsed with mailparser before the server answers 250, so once a
 * sender's `send` resolves the message is already in `messages`.
 */
export async function startSmtpServer(options: SmtpServerFixtureOptions = {}): Promise<SmtpServerFixture> {
  const messages: ParsedMail[] = [];
  const logins: string[] = [];
  let connections = 0;
  let incoming = 0;
  let received = 0;
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of waiters) waiter();
  };

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1_000,
    onConnect(_session, callback) {
      connections += 1;
      changed();
      callback();
    },
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      incoming += 1;
      changed();
      simpleParser(stream).then(
        async (mail) => {
          received += 1;
          changed();
          if (options.acceptDelayMs) await sleep(options.acceptDelayMs);
          messages.push(mail);
          changed();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A sender that disconnects mid-message (a test stopping a process) is a normal event here.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  function waitUntil<T>(ready: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
    const now = ready();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        finish();
        resolve(value);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`SMTP fixture: timed out after ${timeoutMs} ms waiting for ${what()}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
    });
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    logins,
    waitForMessages: (count, timeoutMs = 10_000) =>
      waitUntil(
        () => (messages.length >= count ? messages.slice() : undefined),
        timeoutMs,
        () =>
          `${count} message(s), received ${messages.length}: ${JSON.stringify(messages.map((m) => m.subject))}`,
      ),
    waitForConnection: (timeoutMs = 10_000) =>
      waitUntil(
        () => (connections > 0 ? true : undefined),
        timeoutMs,
        () => 'a client to connect',
      ).then(() => undefined),
    waitForIncoming: (count, timeoutMs = 10_000) =>
      waitUntil(
        () => (incoming >= count ? true : undefined),
        timeoutMs,
        () => `${count} incoming message(s), saw ${incoming}`,
      ).then(() => undefined),
    waitForReceived: (count, timeoutMs = 10_000) =>
      waitUntil(
        () => (received >= count ? true : undefined),
        timeoutMs,
        () => `${count} message(s) received whole, saw ${received}`,
      ).then(() => undefined),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
