import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from './accounts/test-browser.ts';
import { type SecurityHarness, startSecurityHarness } from './security/security-harness.ts';

// docs/api.md#edit-conflicts through the gateway against the real account and target services:
// a save that names the revision it was read at is refused with 409 edit_conflict once another
// save has moved the record on, names what that save changed with its value now, and saves nothing.
let harness: SecurityHarness;
let browser: TestBrowser;
let siteId = '';

beforeAll(async () => {
  harness = await startSecurityHarness();
  ({ browser } = await harness.member('conflicts@example.com'));
  const registered = await browser.post('/api/v2/target/register', {
    ...siteSettings(),
    label: 'Autumn sale',
  });
  expect(registered.status, registered.text).toBe(201);
  siteId = String(registered.body.target_v2_id);
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

function siteSettings() {
  return {
    label: 'Autumn sale',
    url: harness.siteUrl,
    interval_minutes: 60,
    fetch_mode: 'http',
    chat_notify: 'none',
    mail_notify: true,
    areas: [{ area_id: 'price', label: 'Price', content: '¥1,200', locator: { selector: '#price' } }],
    rules: { combine: 'and', groups: [] },
  };
}

type Stored = { revision: number; settings: ReturnType<typeof siteSettings> & Record<string, unknown> };
type Conflict = {
  error: { code: string; message_key: string };
  conflict: { revision: number; changed: { field: string; value: unknown }[] };
};

async function readSite(): Promise<Stored> {
  const answer = await browser.get(`/api/v2/target?id=${siteId}`);
  expect(answer.status).toBe(200);
  return answer.body as unknown as Stored;
}

/** The settings as the edit screen would send them back, from a read. */
function edited(read: Stored, change: Record<string, unknown>) {
  const { label, url, interval_minutes, fetch_mode, chat_notify, mail_notify, rules } = read.settings;
  const areas = read.settings.areas.map(({ area_id, label, content, locator }) => ({
    area_id,
    label,
    content,
    locator,
  }));
  return {
    label,
    url,
    interval_minutes,
    fetch_mode,
    chat_notify,
    mail_notify,
    areas,
    // A site read back without rule groups sends an empty set, as the edit screen does.
    rules: rules ?? { combine: 'and', groups: [] },
    target_v2_id: siteId,
    revision: read.revision,
    ...change,
  };
}

describe('edit conflicts', () => {
  // Each kind of site edit goes through the one update route; each gets its conflict named.
  for (const [kind, mine, theirs, field, expected] of [
    ['site settings', { interval_minutes: 10 }, { label: 'Tab A' }, 'label', 'Tab A'],
    [
      'an area',
      { label: 'Mine' },
      { areas: [{ area_id: 'price', label: 'Sale price', content: '', locator: { selector: '#price' } }] },
      'areas',
      [{ area_id: 'price', label: 'Sale price', selector: '#price' }],
    ],
    [
      'a rule',
      { label: 'Mine too' },
      {
        rules: {
          combine: 'and',
          groups: [
            {
              combine: 'and',
              conditions: [{ areaId: 'price', operand: 'new', operator: 'keyword', value: 'sale' }],
            },
          ],
        },
      },
      'rules',
      null,
    ],
    ['the site’s channels', { interval_minutes: 60 }, { mail_notify: false }, 'mail_notify', false],
  ] as const) {
    it(`refuses a stale save of ${kind} with 409 naming ${field}, and saves nothing`, async () => {
      const start = await readSite();
      const other = await browser.post('/api/v2/target/update', edited(start, theirs));
      expect(other.status, other.text).toBe(200);
      expect(other.body.revision).toBe(start.revision + 1);

      const stale = await browser.post('/api/v2/target/update', edited(start, mine));
      expect(stale.status, stale.text).toBe(409);
      const { error, conflict } = stale.body as unknown as Conflict;
      expect(error).toEqual({ code: 'edit_conflict', message_key: 'errors.edit_conflict' });
      expect(conflict.revision).toBe(start.revision + 1);
      const named = conflict.changed.find((change) => change.field === field);
      expect(named, JSON.stringify(conflict.changed)).toBeDefined();
      if (expected !== null) expect(named?.value).toEqual(expected);
      // What was refused is not saved: the other save stands.
      const after = await readSite();
      expect(after.revision).toBe(start.revision + 1);
      for (const [key, value] of Object.entries(mine))
        expect(after.settings[key as keyof Stored['settings']]).not.toEqual(value);

      // Sent again from the newer revision, the same edit is saved.
      const again = await browser.post('/api/v2/target/update', edited(after, mine));
      expect(again.status, again.text).toBe(200);
    });
  }

  it('refuses a stale pause-state save: a pause in another tab moves the site on', async () => {
    const start = await readSite();
    expect((await browser.post('/api/v2/pause', { target_v2_id: siteId })).status).toBe(200);
    const stale = await browser.post('/api/v2/target/update', edited(start, { label: 'Resumed by mistake' }));
    expect(stale.status).toBe(409);
    expect((stale.body as unknown as Conflict).conflict.changed).toContainEqual({
      field: 'paused',
      value: true,
    });
    expect((await browser.post('/api/v2/resume', { target_v2_id: siteId })).status).toBe(200);
  });

  it('applies a save without a revision over whatever is saved (API clients that send none)', async () => {
    const start = await readSite();
    const { revision: _left, ...unversioned } = edited(start, { label: 'From a script' });
    expect(
      (await browser.post('/api/v2/target/update', { ...edited(start, {}), label: 'Moved on' })).status,
    ).toBe(200);
    const answer = await browser.post('/api/v2/target/update', unversioned);
    expect(answer.status, answer.text).toBe(200);
    expect((await readSite()).settings.label).toBe('From a script');
  });

  it('refuses a stale account settings save with 409 naming the changed field, and saves nothing', async () => {
    const read = await browser.get('/api/account');
    const revision = Number(read.body.revision);
    const lang = read.body.lang === 'en' ? 'ja' : 'en';
    expect(revision).toBeGreaterThan(0);
    const other = await browser.post('/api/account/update', { name: 'Tab A name', revision });
    expect(other.status, other.text).toBe(200);
    expect(other.body.revision).toBe(revision + 1);

    const stale = await browser.post('/api/account/update', { name: 'Tab B name', lang, revision });
    expect(stale.status, stale.text).toBe(409);
    const { error, conflict } = stale.body as unknown as Conflict;
    expect(error.code).toBe('edit_conflict');
    expect(conflict).toEqual({
      revision: revision + 1,
      changed: expect.arrayContaining([{ field: 'name', value: 'Tab A name' }]),
    });
    const after = await browser.get('/api/account');
    expect([after.body.name, after.body.lang, after.body.revision]).toEqual([
      'Tab A name',
      read.body.lang,
      revision + 1,
    ]);

    // A refused value is a 400 that saves nothing and leaves the revision where it was.
    const refused = await browser.post('/api/account/update', {
      name: 'x'.repeat(500),
      revision: revision + 1,
    });
    expect(refused.status).toBe(400);
    expect((await browser.get('/api/account')).body.revision).toBe(revision + 1);
  });

  it('refuses a stale quiet hours save with 409 naming the changed field, and lets another setting through', async () => {
    const read = await browser.get('/api/v2/quiet-hours');
    expect(read.status).toBe(200);
    const revision = Number(read.body.revision);
    const other = await browser.post('/api/v2/quiet-hours', { from: '22:00', until: '07:00', revision });
    expect(other.status, other.text).toBe(200);
    expect(other.body.revision).toBe(revision + 1);

    const stale = await browser.post('/api/v2/quiet-hours', { from: '23:00', until: '07:00', revision });
    expect(stale.status, stale.text).toBe(409);
    const { conflict } = stale.body as unknown as Conflict;
    expect(conflict).toEqual({ revision: revision + 1, changed: [{ field: 'from', value: '22:00' }] });
    expect((await browser.get('/api/v2/quiet-hours')).body.from).toBe('22:00');
    // A save of other settings from the same older revision is not stopped: none of its own changed.
    const name = await browser.post('/api/account/update', { name: 'Later', revision });
    expect(name.status, name.text).toBe(200);
    expect(name.body.revision).toBe(revision + 2);
  });

  it('keeps another user’s site out of reach: a revision does not open it', async () => {
    const { browser: mallory } = await harness.member('mallory-conflicts@example.com');
    const start = await readSite();
    const answer = await mallory.post('/api/v2/target/update', edited(start, { label: 'Mallory' }));
    expect(answer.status).toBe(404);
  });
});
