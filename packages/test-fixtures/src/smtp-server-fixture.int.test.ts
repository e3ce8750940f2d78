import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SmtpServerFixture, startSmtpServer } from './smtp-server-fixture.ts';
import { itWithServers } from './with-servers.ts';

// A plain SMTP client, so the fixture is checked against the protocol, not against our sender.
async function sendRaw(port: number, lines: string[]): Promise<string[]> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  const replies: string[] = [];
  let buffered = '';
  let onReply: (() => void) | undefined;
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    // The last line of a reply has a space after its code; earlier ones a dash.
    while (/^\d{3} .*\r\n/m.test(buffered)) {
      const end = buffered.search(/^\d{3} .*\r\n/m);
      const lineEnd = buffered.indexOf('\r\n', end) + 2;
      replies.push(buffered.slice(0, lineEnd));
      buffered = buffered.slice(lineEnd);
      onReply?.();
    }
  });
  const nextReply = (count: number) =>
    new Promise<void>((resolve) => {
      if (replies.length >= count) return resolve();
      onReply = () => {
        if (replies.length >= count) resolve();
      };
    });
  await nextReply(1);
  for (const line of lines) {
    socket.write(`${line}\r\n`);
    await nextReply(replies.length + 1);
  }
  socket.end();
  return replies.map((reply) => reply.slice(0, 3));
}

const MESSAGE = [
  'From: sender@example.jp',
  'To: taro@example.jp',
  'Subject: =?UTF-8?B?5aSJ5pu044GM44GC44KK44G+44GX44Gf?=',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'hello',
  '.',
].join('\r\n');

let server: SmtpServerFixture | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('SMTP server fixture', () => {
  it('accepts a message, parses it, and reports it to a waiting test', async () => {
    server = await startSmtpServer();
    const waiting = server.waitForMessages(1, 10_000);

    const codes = await sendRaw(server.port, [
      'EHLO test',
      'MAIL FROM:<sender@example.jp>',
      'RCPT TO:<taro@example.jp>',
      'DATA',
      MESSAGE,
      'QUIT',
    ]);

    expect(codes).toEqual(['220', '250', '250', '250', '354', '250', '221']);
    const [mail] = await waiting;
    expect(mail?.subject).toBe('変更がありました');
    expect(mail?.text?.trim()).toBe('hello');
    expect(server.url).toBe(`smtp://127.0.0.1:${server.port}`);
  });

  it('rejects a wait that is not met in time, saying what it saw', async () => {
    server = await startSmtpServer();
    await expect(server.waitForMessages(1, 50)).rejects.toThrow(/1 message\(s\), received 0/);
  });

  it('holds the 250 for acceptDelayMs, with the client already connected', async () => {
    server = await startSmtpServer({ acceptDelayMs: 300 });
    const started = performance.now();
    const sending = sendRaw(server.port, [
      'HELO test',
      'MAIL FROM:<a@example.jp>',
      'RCPT TO:<b@example.jp>',
      'DATA',
      MESSAGE,
    ]);

    await server.waitForConnection(10_000);
    expect(await sending).toEqual(['220', '250', '250', '250', '354', '250']);
    // A lower bound only: a timer never fires before its delay, so this cannot flake.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.messages).toHaveLength(1);
  });

  it('tells when a message was received whole while its 250 is still held', async () => {
    server = await startSmtpServer({ acceptDelayMs: 2_000 });
    const sending = sendRaw(server.port, [
      'HELO test',
      'MAIL FROM:<a@example.jp>',
      'RCPT TO:<b@example.jp>',
      'DATA',
      MESSAGE,
    ]);
    await server.waitForReceived(1, 10_000);
    // Received, not yet accepted: a sender killed now leaves the message with the server.
    expect(server.messages).toHaveLength(0);
    expect(await sending).toEqual(['220', '250', '250', '250', '354', '250']);
    expect(server.messages).toHaveLength(1);
  });

  itWithServers('gives each test its own server through itWithServers', async ({ smtp }) => {
    expect(await sendRaw(smtp.port, ['EHLO test', 'QUIT'])).toEqual(['220', '250', '221']);
    expect(smtp.messages).toEqual([]);
  });
});
