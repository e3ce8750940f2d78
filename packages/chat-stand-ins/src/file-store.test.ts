import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileStandInStore, STAND_IN_KEPT } from './file-store.ts';
import { memoryStandInStore } from './memory-store.ts';
import type { StandInStore } from './stand-in.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stand-ins-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const message = (text: string, files: { filename: string; data: string }[] = []) => ({
  at: '2026-12-06T09:00:00.000Z',
  chat: 'C0123',
  body: { text },
  files: files.map((file) => ({
    filename: file.filename,
    contentType: 'image/png',
    data: Buffer.from(file.data),
  })),
});

describe.each([
  ['in a folder', () => fileStandInStore(dir)],
  ['in memory', () => memoryStandInStore()],
])('the stand-ins’ store %s', (_name, make: () => StandInStore) => {
  it('lists each platform’s records newest first, pictures included, and keeps state apart', async () => {
    const store = make();
    await store.add('slack', message('first', [{ filename: 'after.png', data: 'after-bytes' }]));
    const second = await store.add('slack', message('second'));
    await store.add('line', message('elsewhere'));
    expect(second.id).toBe(2);
    const slack = await store.list('slack');
    expect(slack.map((record) => (record.body as { text: string }).text)).toEqual(['second', 'first']);
    expect(slack[1]?.files[0]?.data.toString()).toBe('after-bytes');
    expect(slack[1]?.files[0]?.filename).toBe('after.png');
    expect((await store.list('line')).map((record) => record.chat)).toEqual(['C0123']);
    expect(await store.readState('slack', { codes: [] })).toEqual({ codes: [] });
    await store.writeState('slack', { codes: ['abc'] });
    expect(await store.readState('slack', { codes: [] })).toEqual({ codes: ['abc'] });
    expect(await store.readState('line', null)).toBeNull();
  });
});

describe('the stand-ins’ store in a folder', () => {
  it('keeps the newest 100 per platform', async () => {
    const store = fileStandInStore(dir);
    for (let index = 1; index <= STAND_IN_KEPT + 5; index++) await store.add('teams', message(`m${index}`));
    const kept = await store.list('teams');
    expect(kept).toHaveLength(STAND_IN_KEPT);
    expect(kept[0]?.id).toBe(STAND_IN_KEPT + 5);
    expect(kept.at(-1)?.id).toBe(6);
  });
  it('finds the same records, pictures and state after a restart, and numbers on from them', async () => {
    const before = fileStandInStore(dir);
    await before.add('discord', message('kept', [{ filename: 'before.png', data: 'before-bytes' }]));
    await before.writeState('discord', { blocked: ['U1'] });
    const after = fileStandInStore(dir);
    const [record] = await after.list('discord');
    expect([(record?.body as { text: string } | undefined)?.text, record?.files[0]?.data.toString()]).toEqual(
      ['kept', 'before-bytes'],
    );
    expect(await after.readState('discord', {})).toEqual({ blocked: ['U1'] });
    expect((await after.add('discord', message('next'))).id).toBe(2);
  });

  it('stays bounded on disk: old pictures go, and the record file is rewritten to the kept ones', async () => {
    const store = fileStandInStore(dir);
    for (let index = 1; index <= 2 * STAND_IN_KEPT; index++)
      await store.add('line', message(`m${index}`, [{ filename: 'a.png', data: `p${index}` }]));
    expect(await readdir(join(dir, 'line', 'files'))).toHaveLength(STAND_IN_KEPT);
    const lines = (await readFile(join(dir, 'line', 'records.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(STAND_IN_KEPT);
    const reopened = await fileStandInStore(dir).list('line');
    expect(reopened.map((record) => record.id)).toEqual(
      (await store.list('line')).map((record) => record.id),
    );
    expect(reopened[0]?.files[0]?.data.toString()).toBe(`p${2 * STAND_IN_KEPT}`);
  });

  it('skips a record cut short by a crash and refuses a platform name that is a path', async () => {
    const store = fileStandInStore(dir);
    await store.add('chatwork', message('whole'));
    await appendFile(join(dir, 'chatwork', 'records.jsonl'), '{"id":2,"at":"2026');
    const reopened = fileStandInStore(dir);
    expect((await reopened.list('chatwork')).map((record) => record.id)).toEqual([1]);
    await expect(reopened.list('../etc')).rejects.toThrow(/not a stand-in platform name/);
  });
});
