import { createHttpVisitor, type HttpVisitor } from '@mimamori/test-fixtures';
import { strFromU8, unzipSync } from 'fflate';
import { expect } from 'vitest';
import { PASSWORD, registerSite, untilChecked } from './account-steps.ts';
import { type Queryable, rowsNaming, scannedTables } from './erasure-scan.ts';
import { priceSiteRegistration } from './price-site.ts';
import { waitFor } from './wait-for.ts';
import type { WatchedPage } from './watched-page.ts';

/** What the scenario needs of a running product, in either run mode. */
export interface DeletionWorld {
  url: string;
  page: WatchedPage;
  /** The text of the newest mail to `to` whose subject matches, once it came. */
  mailText(to: string, subject: RegExp): Promise<string>;
  /** The product's database, read between steps. */
  db: Queryable;
  /** Stored blobs (their keys) that name one of the needles. */
  blobsNaming(needles: readonly string[]): Promise<string[]>;
  /** Lets the grace period pass: the product's clock moved, or its short grace waited out. */
  passGrace(): Promise<void>;
}

/**
 * A user with history exports everything, then deletes the account; once the grace period is
 * over, not one row of any service's table nor one blob names the user, their sites or their
 * address. The scan first finds them, so it is seen to look where they are.
 */
export async function exportThenDelete(world: DeletionWorld, email: string): Promise<void> {
  const visitor = createHttpVisitor(world.url);
  await visitor.get('/healthz');
  expect(
    (await visitor.post('/api/signup', { email, password: PASSWORD, agree: true, lang: 'ja', plan: 4 }))
      .status,
  ).toBe(202);
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(await world.mailText(email, /確認/))?.[1];
  expect((await visitor.post('/api/verify', { token })).status).toBe(200);
  expect((await visitor.post('/api/signin', { email, password: PASSWORD })).status).toBe(200);
  const userId = String(((await visitor.get('/api/user_info')).body as { user_id: string }).user_id);

  // One site kept with an update and its pictures, one deleted before the account (its tombstones).
  const kept = await registerSite(visitor, priceSiteRegistration('Kept shop', world.page.url('/kept')));
  const gone = await registerSite(visitor, priceSiteRegistration('Gone shop', world.page.url('/gone')));
  await untilChecked(visitor, [kept, gone]);
  expect((await visitor.post('/api/v2/delete', { target_v2_id: gone })).status).toBe(200);
  world.page.setPrice('/kept', '¥980 sale');
  await waitFor(
    'the update',
    async () => {
      const { body } = await visitor.get(`/api/v2/history?id=${kept}&filter=update`);
      return JSON.stringify(body).includes('¥980 sale') || undefined;
    },
    90_000,
  );
  expect(
    (await visitor.post('/api/billing/recipient', { name: '株式会社テスト商事', revision: 0 })).status,
  ).toBe(200);

  const archive = await exported(world.url, visitor);
  const account = JSON.parse(strFromU8(archive['account.json'] ?? new Uint8Array())) as unknown;
  expect(JSON.stringify(account)).toContain(email);
  const site = Object.keys(archive).find((path) => path.endsWith(`-${kept}/site.json`)) ?? '';
  expect(strFromU8(archive[site] ?? new Uint8Array())).toContain('Kept shop');
  const history = strFromU8(archive[site.replace('site.json', 'history.json')] ?? new Uint8Array());
  expect(history).toContain('¥980 sale');
  const pictures = Object.keys(archive).filter((path) => path.includes(`-${kept}/images/`));
  expect(pictures.some((path) => path.endsWith('-after.webp'))).toBe(true);
  expect(Object.keys(archive).some((path) => path.includes(gone))).toBe(false);

  const needles = [userId, kept, gone, email];
  expect((await scannedTables(world.db)).length).toBeGreaterThan(20);
  expect(await rowsNaming(world.db, needles)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^account\.users: /),
      expect.stringMatching(/^diff\.updates: /),
    ]),
  );
  expect((await world.blobsNaming([kept])).length).toBeGreaterThan(0);

  expect(
    await visitor.post('/api/account/delete', { password: 'wrong-password', confirmation: '削除' }),
  ).toMatchObject({
    status: 400,
    body: { error: { code: 'current_password_mismatch' } },
  });
  expect(
    await visitor.post('/api/account/delete', { password: PASSWORD, confirmation: 'はい' }),
  ).toMatchObject({
    status: 400,
    body: { error: { code: 'confirmation_mismatch' } },
  });
  const deleted = await visitor.post('/api/account/delete', { password: PASSWORD, confirmation: '削除' });
  expect(deleted.status).toBe(200);
  const purgeAt = new Date((deleted.body as { purge_at: string }).purge_at);
  const mail = await world.mailText(email, /アカウントを削除しました/);
  const jst = new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  expect(mail).toContain(`${jst.format(purgeAt)}`);
  expect(mail).toContain('すべて消去されます');
  expect((await visitor.post('/api/signin', { email, password: PASSWORD })).status).toBe(401);
  // The account's sites go at once (the cancelled account's path), before the grace period ends.
  await waitFor(
    'the sites deleted',
    async () => (await world.blobsNaming([kept])).length === 0 || undefined,
    60_000,
  );

  await world.passGrace();
  await waitFor(
    'nothing left of the account',
    async () => {
      const rows = await rowsNaming(world.db, needles);
      const blobs = await world.blobsNaming(needles);
      return (rows.length === 0 && blobs.length === 0) || undefined;
    },
    60_000,
  ).catch(async (error: Error) => {
    throw new Error(
      `${error.message}: ${JSON.stringify({ rows: await rowsNaming(world.db, needles), blobs: await world.blobsNaming(needles) })}`,
    );
  });
}

/** POST /api/account/export with the visitor's session and CSRF header; the archive's files. */
async function exported(url: string, visitor: HttpVisitor) {
  const response = await fetch(new URL('/api/account/export', url), {
    method: 'POST',
    headers: {
      cookie: [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-csrf-token': visitor.cookies.get('csrf_token') ?? '',
    },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  return unzipSync(new Uint8Array(await response.arrayBuffer()));
}
