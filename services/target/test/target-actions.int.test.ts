import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROW_KEYS, targetBody } from './target-bodies.ts';
import type { TargetBrowser } from './target-browser.ts';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

let harness: TargetHarness;
/** Advanced: its quota includes proxies, so only the missing pool can refuse one. */
const PROXY_PLAN = 11;

beforeAll(async () => {
  harness = await startTargetHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function register(browser: TargetBrowser, overrides: Record<string, unknown> = {}) {
  const response = await browser.post('/api/v2/target/register', targetBody(overrides));
  expect(response.status).toBe(201);
  return response.body as { target_v2_id: string; paused: boolean; paused_for_quota: boolean };
}

async function rows(browser: TargetBrowser) {
  const response = await browser.get('/api/v2/targets');
  expect(response.status).toBe(200);
  return response.body.targets as Record<string, unknown>[];
}

describe('quota: Basic 5 (five sites at 10 minutes or slower, no proxy)', () => {
  it('saves a sixth site paused, blocks its resume, and lets it resume once a slot is free', async () => {
    const { browser } = await harness.signedIn('quota@example.com');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const saved = await register(browser, { label: `site ${i}` });
      expect(saved).toMatchObject({ paused: false, paused_for_quota: false });
      ids.push(saved.target_v2_id);
    }
    const sixth = await register(browser, { label: 'site 5' });
    expect(sixth).toMatchObject({ paused: true, paused_for_quota: true });

    const list = await rows(browser);
    expect(list.map((row) => [row.no, row.valid, row.resumable])).toEqual([
      [1, true, false],
      [2, true, false],
      [3, true, false],
      [4, true, false],
      [5, true, false],
      [6, false, false],
    ]);
    const refused = await browser.post('/api/v2/resume', { target_v2_id: sixth.target_v2_id });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'no_free_slot' } } });

    const paused = await browser.post('/api/v2/pause', { target_v2_id: ids[0] });
    expect(paused).toMatchObject({
      status: 200,
      body: { status: 'paused', changed: true, target: { valid: false } },
    });
    expect((await rows(browser)).find((row) => row.id === sixth.target_v2_id)).toMatchObject({
      resumable: true,
    });
    const resumed = await browser.post('/api/v2/resume', { target_v2_id: sixth.target_v2_id });
    expect(resumed).toMatchObject({ status: 200, body: { status: 'resumed', target: { valid: true } } });
    // Now the first site, paused by the user, has no slot to come back to.
    expect((await rows(browser)).find((row) => row.id === ids[0])).toMatchObject({
      valid: false,
      resumable: false,
    });
  });

  it('saves paused a site asking for what the plan lacks (a proxy, a 1-minute interval), also on update', async () => {
    const { browser } = await harness.signedIn('features@example.com');
    expect(await register(browser, { proxy: true })).toMatchObject({ paused: true, paused_for_quota: true });
    expect(await register(browser, { interval_minutes: 1 })).toMatchObject({
      paused: true,
      paused_for_quota: true,
    });
    const fine = await register(browser, { interval_minutes: 10 });
    expect(fine.paused).toBe(false);
    const updated = await browser.post('/api/v2/target/update', {
      ...targetBody({ interval_minutes: 5 }),
      target_v2_id: fine.target_v2_id,
    });
    expect(updated).toMatchObject({ status: 200, body: { paused: true, paused_for_quota: true } });
  });

  it('keeps a site the user chose to save paused paused, and resumable', async () => {
    const { browser } = await harness.signedIn('chosen@example.com');
    const saved = await register(browser, { paused: true });
    expect(saved).toMatchObject({ paused: true, paused_for_quota: false });
    expect((await rows(browser))[0]).toMatchObject({ valid: false, resumable: true });
  });
});

describe('the number of sites a user keeps', () => {
  it('refuses a registration and reports import lines beyond 5,000 sites, paused ones included', async () => {
    const { browser, userId } = await harness.signedIn('hoarder@example.com');
    await harness.db.query(
      `INSERT INTO target.targets (id, user_id, version, no, url, interval_minutes, paused, paused_reason)
       SELECT gen_random_uuid(), $1, 1, n, 'https://many.example/' || n, 60, true, 'quota'
         FROM generate_series(1, 4999) AS n`,
      [userId],
    );
    await harness.db.query('INSERT INTO target.user_counters (user_id, last_no) VALUES ($1, 4999)', [userId]);
    const imported = await browser.post('/api/v1/import', {
      text: 'https://one.example/\nhttps://two.example/',
    });
    expect(imported.body).toMatchObject({
      problems: [{ line: 2, code: 'too_many', text: 'https://two.example/' }],
    });
    expect(imported.body.imported).toHaveLength(1);
    const refused = await browser.post('/api/v2/target/register', targetBody());
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'too_many_sites' } } });
  });
});

describe('pause, resume and delete (docs/product.md#targets)', () => {
  it('acts on v2 sites by target_v2_id and v1 sites by target_id, each path only on its own version', async () => {
    const { browser } = await harness.signedIn('actions@example.com');
    const v2 = (await register(browser)).target_v2_id;
    const imported = await browser.post('/api/v1/import', { text: 'https://v1.example/page\n' });
    const v1 = String((imported.body.imported as { id: string }[])[0]?.id);

    expect((await browser.post('/api/pause', { target_id: v2 })).status).toBe(404);
    expect((await browser.post('/api/v2/pause', { target_v2_id: v1 })).status).toBe(404);

    for (const [prefix, field, id] of [
      ['/api', 'target_id', v1],
      ['/api/v2', 'target_v2_id', v2],
    ] as const) {
      expect(await browser.post(`${prefix}/pause`, { [field]: id })).toMatchObject({
        status: 200,
        body: { status: 'paused', changed: true, target: { id, valid: false, resumable: true } },
      });
      // A repeated pause does nothing and publishes nothing.
      expect(await browser.post(`${prefix}/pause`, { [field]: id })).toMatchObject({
        status: 200,
        body: { changed: false },
      });
      expect(await browser.post(`${prefix}/resume`, { [field]: id })).toMatchObject({
        status: 200,
        body: { status: 'resumed', changed: true, target: { id, valid: true, resumable: false } },
      });
      expect(await browser.post(`${prefix}/delete`, { [field]: id })).toMatchObject({
        status: 200,
        body: { status: 'deleted' },
      });
      expect((await browser.post(`${prefix}/delete`, { [field]: id })).status).toBe(404);
    }
    expect(await rows(browser)).toEqual([]);

    const subjects = ['targets.paused', 'targets.resumed', 'targets.deleted'];
    for (const subject of subjects) {
      const ids = (await harness.events(subject)).map((event) => event.id);
      expect(ids.filter((id) => id.includes(v1))).toHaveLength(1);
      expect(ids.filter((id) => id.includes(v2))).toHaveLength(1);
    }
  });

  it('refuses a second action on a site while one runs, and runs a burst of pauses exactly once', async () => {
    const { browser } = await harness.signedIn('busy@example.com');
    const id = (await register(browser)).target_v2_id;

    // Another action holds the site: the pause is refused at once rather than queued.
    const holder = await harness.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`target-action:${id}`]);
      return browser.post('/api/v2/pause', { target_v2_id: id });
    });
    expect(holder).toMatchObject({ status: 409, body: { error: { code: 'action_in_progress' } } });
    expect((await rows(browser))[0]).toMatchObject({ valid: true });

    const burst = await Promise.all(
      Array.from({ length: 6 }, () => browser.post('/api/v2/pause', { target_v2_id: id })),
    );
    const changed = burst.filter((response) => response.status === 200 && response.body.changed === true);
    expect(changed).toHaveLength(1);
    for (const response of burst) {
      const ignored = response.status === 409 || (response.status === 200 && response.body.changed === false);
      if (response !== changed[0]) expect(ignored).toBe(true);
    }
    expect((await harness.events('targets.paused')).filter((event) => event.id.includes(id))).toHaveLength(1);
  });
});

describe('the site list', () => {
  it('returns v1 and v2 rows together in registration order with the list keys', async () => {
    const { browser } = await harness.signedIn('list@example.com');
    await register(browser, { label: 'first', proxy: false });
    await browser.post('/api/v1/import', { text: 'https://second.example/\n' });
    const list = await rows(browser);
    expect(list).toHaveLength(2);
    for (const row of list) expect(Object.keys(row)).toEqual(expect.arrayContaining(ROW_KEYS));
    expect(
      list.map((row) => [row.no, row.ver, row.label, row.url, row.new, row.proxy, row.updated, row.checked]),
    ).toEqual([
      [1, 2, 'first', 'https://shop.example/sale', false, false, null, null],
      [2, 1, '', 'https://second.example/', false, false, null, null],
    ]);
  });
});

describe('tenant isolation', () => {
  it("never shows or changes another user's sites, answering as if they did not exist", async () => {
    const alice = await harness.signedIn('alice@example.com');
    const bob = await harness.signedIn('bob@example.com');
    const bobsSite = (await register(bob.browser, { label: 'bob only' })).target_v2_id;
    const bobsV1 = String(
      (
        (await bob.browser.post('/api/v1/import', { text: 'https://bob.example/' })).body.imported as {
          id: string;
        }[]
      )[0]?.id,
    );
    await register(alice.browser, { label: 'alice only' });

    expect((await rows(alice.browser)).map((row) => row.label)).toEqual(['alice only']);
    expect((await alice.browser.get(`/api/v2/target?id=${bobsSite}`)).status).toBe(404);
    const update = await alice.browser.post('/api/v2/target/update', {
      ...targetBody({ label: 'x' }),
      target_v2_id: bobsSite,
    });
    expect(update.status).toBe(404);
    for (const action of ['pause', 'resume', 'delete']) {
      expect((await alice.browser.post(`/api/v2/${action}`, { target_v2_id: bobsSite })).status).toBe(404);
      expect((await alice.browser.post(`/api/${action}`, { target_id: bobsV1 })).status).toBe(404);
    }
    expect((await rows(bob.browser)).map((row) => [row.label, row.valid])).toEqual([
      ['bob only', true],
      ['', true],
    ]);
    expect((await alice.browser.get('/api/v2/target?id=not-a-uuid')).status).toBe(404);
  });
});

describe('the proxy option where the crawlers have no proxy pool', () => {
  let bare: TargetHarness;

  beforeAll(async () => {
    bare = await startTargetHarness({ proxyPool: false });
  });

  afterAll(async () => {
    await bare?.close();
  });

  it('refuses a site asking for a proxy, on registration and on update, and counts no proxy in the usage', async () => {
    const { browser } = await bare.signedIn('no-pool@example.com', PROXY_PLAN);
    const refused = await browser.post('/api/v2/target/register', targetBody({ proxy: true }));
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'proxy_unavailable' } } });
    const saved = await browser.post('/api/v2/target/register', targetBody());
    expect(saved.status).toBe(201);
    const update = await browser.post('/api/v2/target/update', {
      ...targetBody({ proxy: true }),
      target_v2_id: (saved.body as { target_v2_id: string }).target_v2_id,
    });
    expect(update).toMatchObject({ status: 400, body: { error: { code: 'proxy_unavailable' } } });
    const usage = (await browser.get('/api/user_info')).body as { used_num: { random_ip: number } };
    expect(usage.used_num.random_ip).toBe(0);
  });
});
