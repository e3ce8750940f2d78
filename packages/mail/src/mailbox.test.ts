import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { FROM, freshDir, PNG } from './mail-test-data.ts';
import { createMailbox } from './mailbox.ts';
import { openMailTransport } from './open-mail-transport.ts';

describe('local mailbox', () => {
  it('keeps a Japanese mail with an image as a real .eml and reads it back', async () => {
    const dir = await freshDir();
    const mailbox = await createMailbox(dir, { from: FROM });

    const { messageId } = await mailbox.send({
      to: ['hanako@example.jp'],
      subject: '【見守り】価格表が更新されました',
      text: '監視中のページに変更がありました。\n変更前: 1,200円\n変更後: 1,500円',
      html: '<p>監視中のページに<b>変更</b>がありました。</p><img src="cid:after@mimamori">',
      attachments: [{ filename: 'after.png', content: PNG, contentType: 'image/png', cid: 'after@mimamori' }],
    });

    const [entry, ...others] = await mailbox.list();
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      messageId,
      from: FROM,
      to: ['hanako@example.jp'],
      subject: '【見守り】価格表が更新されました',
      attachmentCount: 1,
    });

    // On disk it is an RFC 822 message any mail parser reads.
    const raw = await readFile(join(dir, `${entry?.id}.eml`));
    expect(raw.toString('latin1')).toMatch(/^Subject: =\?UTF-8\?/m);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('【見守り】価格表が更新されました');

    const message = await mailbox.read(entry?.id ?? '');
    expect(message).toMatchObject({
      messageId,
      subject: '【見守り】価格表が更新されました',
      to: 'hanako@example.jp',
    });
    expect(message?.from).toMatch(/^"?Mimamori"? <no-reply@mimamori\.local>$/);
    expect(message?.date).toBeInstanceOf(Date);
    expect(message?.text?.trim()).toBe(
      '監視中のページに変更がありました。\n変更前: 1,200円\n変更後: 1,500円',
    );
    expect(message?.html).toContain('<b>変更</b>');
    // The inline image is shown from the message itself, not fetched through cid:.
    expect(message?.html).toContain('src="data:image/png;base64,');
    expect(message?.attachments).toHaveLength(1);
    expect(message?.attachments[0]).toMatchObject({
      filename: 'after.png',
      contentType: 'image/png',
      size: PNG.length,
    });
    expect(message?.attachments[0]?.content).toEqual(PNG);
  });

  it('lists newest first and keeps every one of concurrent sends', async () => {
    const mailbox = await createMailbox(await freshDir(), { from: FROM });
    await mailbox.send({ to: ['a@example.jp'], subject: 'first', text: '1' });
    await Promise.all(
      ['second', 'third', 'fourth'].map((subject) =>
        mailbox.send({ to: ['a@example.jp'], subject, text: subject }),
      ),
    );
    await mailbox.send({ to: ['a@example.jp'], subject: 'last', text: '5' });

    const subjects = (await mailbox.list()).map((entry) => entry.subject);
    expect(subjects).toHaveLength(5);
    expect(subjects[0]).toBe('last');
    expect(subjects[4]).toBe('first');
    expect(subjects.slice(1, 4).sort()).toEqual(['fourth', 'second', 'third']);
  });

  it('answers null for an unknown id and for an id that tries to leave the folder', async () => {
    const dir = await freshDir();
    const mailbox = await createMailbox(dir, { from: FROM });
    await mailbox.send({ to: ['a@example.jp'], subject: 'x', text: 'x' });

    expect(await mailbox.read('20260101T000000000Z-00000000')).toBeNull();
    expect(await mailbox.read('../index')).toBeNull();
    expect(await mailbox.read('index')).toBeNull();
  });

  it('is what openMailTransport gives for mailbox:<folder>, the folder made on the first send', async () => {
    const dir = join(await freshDir(), 'nested', 'mailbox');
    const transport = openMailTransport(`mailbox:${dir}`, FROM);
    await transport.send({ to: ['b@example.jp'], subject: 'hello', text: 'hi' });
    await transport.close();

    const files = await readdir(dir);
    expect(files.filter((file) => file.endsWith('.eml'))).toHaveLength(1);
    expect(
      (await createMailbox(dir, { from: FROM }).then((mailbox) => mailbox.list())).map((e) => e.subject),
    ).toEqual(['hello']);
  });

  it('refuses a mail without recipients', async () => {
    const mailbox = await createMailbox(await freshDir(), { from: FROM });
    await expect(mailbox.send({ to: [], subject: 'x', text: 'x' })).rejects.toThrow(/at least one recipient/);
    expect(await mailbox.list()).toEqual([]);
  });
});
