import { type SmtpServerFixture, startSmtpServer } from '@mimamori/test-fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { FROM, PNG } from './mail-test-data.ts';
import type { MailTransport } from './mail-transport.ts';
import { openMailTransport } from './open-mail-transport.ts';

let smtp: SmtpServerFixture | undefined;
let transport: MailTransport | undefined;
afterEach(async () => {
  await transport?.close();
  await smtp?.close();
  transport = undefined;
  smtp = undefined;
});

describe('SMTP transport against a real SMTP server', () => {
  it('delivers a Japanese mail with an image attachment that a mail parser reads back', async () => {
    smtp = await startSmtpServer();
    transport = openMailTransport(smtp.url, FROM);

    const { messageId } = await transport.send({
      to: ['hanako@example.jp', 'taro@example.jp'],
      subject: '【見守り】「価格表」に変更がありました',
      text: '監視中のページが更新されました。\n変更後: 1,500円',
      html: '<p>監視中のページが<strong>更新</strong>されました。</p>',
      attachments: [{ filename: 'スクリーンショット.png', content: PNG, contentType: 'image/png' }],
    });

    const [mail] = await smtp.waitForMessages(1, 10_000);
    expect(mail?.messageId).toBe(messageId);
    expect(mail?.subject).toBe('【見守り】「価格表」に変更がありました');
    expect(mail?.from?.text).toMatch(/Mimamori.*<no-reply@mimamori\.local>/);
    expect(JSON.stringify(mail?.to)).toContain('hanako@example.jp');
    expect(JSON.stringify(mail?.to)).toContain('taro@example.jp');
    expect(mail?.text?.trim()).toBe('監視中のページが更新されました。\n変更後: 1,500円');
    expect(mail?.html).toContain('<strong>更新</strong>');
    expect(mail?.attachments).toHaveLength(1);
    expect(mail?.attachments[0]?.filename).toBe('スクリーンショット.png');
    expect(mail?.attachments[0]?.contentType).toBe('image/png');
    expect(new Uint8Array(mail?.attachments[0]?.content ?? [])).toEqual(PNG);
  });

  it('logs in with the credentials of the URL', async () => {
    smtp = await startSmtpServer();
    transport = openMailTransport(`smtp://mimamori:s3cret@127.0.0.1:${smtp.port}`, FROM);

    await transport.send({ to: ['ken@example.com'], subject: 'auth', text: 'x' });

    expect(smtp.logins).toEqual(['mimamori']);
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['auth']);
  });

  it('finishes a send in flight before close resolves', async () => {
    smtp = await startSmtpServer({ acceptDelayMs: 500 });
    transport = openMailTransport(smtp.url, FROM);

    const sending = transport.send({ to: ['ken@example.com'], subject: 'in flight', text: 'x' });
    await smtp.waitForConnection(10_000);
    await transport.close();

    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['in flight']);
    await expect(sending).resolves.toMatchObject({ messageId: expect.stringContaining('@mimamori.local') });
  });

  it('rejects when no server answers, without the password in the error', async () => {
    transport = openMailTransport('smtp://mimamori:s3cret@127.0.0.1:1', FROM);

    const failure = transport.send({ to: ['ken@example.com'], subject: 'x', text: 'x' });

    await expect(failure).rejects.toThrow();
    await expect(failure).rejects.not.toThrow(/s3cret/);
  });
});
