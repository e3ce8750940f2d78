import { createLogger } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FilingsStandIn, startFilingsStandIn } from '../../../filings/test/filings-stand-in.ts';
import { createGateway } from '../../src/gateway.ts';
import { type AccountHarness, startAccountHarness } from '../accounts/account-harness.ts';
import { TestBrowser } from '../accounts/test-browser.ts';

const PASSWORD = 'abcd1234';

/** An ISIN with its ISO 6166 check digit (docs/filings.md): the Luhn sum over the expanded digits. */
function isinWithCheckDigit(first11: string): string {
  const digits = [...first11].map((char) => Number.parseInt(char, 36).toString()).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return `${first11}${(10 - (sum % 10)) % 10}`;
}

/**
 * The dashboard's eight filings paths through the gateway to the real filings service (its own
 * schema in a fresh PostgreSQL database, gRPC), whose sources are the local stand-in replaying
 * the EDINET code list, the SEC's tickers and GlobeNewswire.
 */
describe('gateway filings routes', () => {
  let standIn: FilingsStandIn;
  let harness: AccountHarness;

  async function member(email: string, lang: 'ja' | 'en'): Promise<TestBrowser> {
    const browser = await harness.browser();
    const signUp = await browser.post('/api/signup', { email, password: PASSWORD, agree: true, lang });
    expect(signUp.status, signUp.text).toBe(202);
    await harness.db.query(
      'UPDATE account.users SET email_verified_at = now() WHERE lower(email) = lower($1)',
      [email],
    );
    const signIn = await browser.post('/api/signin', { email, password: PASSWORD });
    expect(signIn.status, signIn.text).toBe(200);
    return browser;
  }

  beforeAll(async () => {
    standIn = await startFilingsStandIn();
    harness = await startAccountHarness({ filings: standIn.settings() });
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await standIn?.close();
  });

  it('searches, follows and unfollows Japanese companies; user_info lists them', async () => {
    const alice = await member('alice-filings@example.com', 'ja');
    const short = await alice.post('/api/tdedi/search', { query: 'とよ' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      error: { code: 'query_too_short', message_key: 'errors.query_too_short' },
    });

    // Kana, width and case folded: ﾄﾖﾀ, とよた and TOYOTA find the same company.
    for (const query of ['とよた', 'ﾄﾖﾀ', 'toyota', '7203']) {
      const found = await alice.post('/api/tdedi/search', { query });
      expect(found.status, found.text).toBe(200);
      expect(found.body, query).toEqual([{ edinet: 'E02144', tdnet: '7203', name1: 'トヨタ自動車株式会社' }]);
    }

    const option = { edinet: 'E02144', tdnet: '7203', name1: 'トヨタ自動車株式会社' };
    const registered = await alice.post('/api/tdedi/register', option);
    expect(registered.status, registered.text).toBe(200);
    expect(registered.body).toEqual([option]);
    // Following it again answers the same single item.
    expect((await alice.post('/api/tdedi/register', option)).body).toEqual([option]);
    expect((await alice.get('/api/user_info')).body).toMatchObject({ tdedinets: [option], cik_isins: [] });

    const unknown = await alice.post('/api/tdedi/register', { edinet: 'E00000', tdnet: '', name1: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'not_found' } });
    expect((await alice.post('/api/tdedi/register', {})).status).toBe(400);

    const deleted = await alice.post('/api/tdedi/delete', option);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual([]);
    expect((await alice.post('/api/tdedi/delete', option)).status).toBe(404);
    expect((await alice.get('/api/user_info')).body).toMatchObject({ tdedinets: [] });
  });

  it('follows SEC registrants and ISINs; the ISIN is checked before GlobeNewswire is asked', async () => {
    const bob = await member('bob-filings@example.com', 'en');
    const found = await bob.post('/api/cik/search', { query: 'apple' });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toEqual([{ label: 'Apple Inc.', cik: '320193', ticker: 'AAPL' }]);
    expect((await bob.post('/api/cik/search', { query: '0000320193' })).body).toEqual(found.body);

    const cik = await bob.post('/api/cik/register', { label: 'Apple Inc.', cik: '320193', ticker: 'AAPL' });
    expect(cik.status, cik.text).toBe(200);
    expect(cik.body).toEqual([
      { id: expect.any(String), label: 'Apple Inc.', cik: '320193', ticker: 'AAPL', isin: '' },
    ]);
    expect((await bob.post('/api/cik/register', { cik: '999999999' })).status).toBe(404);

    const asked = () =>
      standIn.server.requests.filter((request) => request.path.startsWith('/RssFeed/')).length;
    const before = asked();
    const invalid = await bob.post('/api/isin/search', { isin: 'US0378331006' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: { code: 'isin_invalid', message_key: 'errors.isin_invalid' },
    });
    const length = await bob.post('/api/isin/search', { isin: 'US037833100' });
    expect(length.status).toBe(400);
    expect(length.body).toMatchObject({ error: { code: 'isin_length' } });
    expect(asked()).toBe(before);

    const isin = await bob.post('/api/isin/search', { isin: 'US0378331005' });
    expect(isin.status, isin.text).toBe(200);
    expect(isin.body).toEqual([{ label: 'Apple Inc.', isin: 'US0378331005' }]);
    expect(asked()).toBe(before + 1);
    expect((await bob.post('/api/isin/search', { isin: 'DE0007164600' })).body).toEqual([]);

    standIn.globeNewswire = 'busy';
    const busy = await bob.post('/api/isin/search', { isin: 'US0378331005' });
    standIn.globeNewswire = 'ok';
    expect(busy.status).toBe(429);
    expect(busy.body).toMatchObject({ error: { code: 'rate_limited', message_key: 'errors.rate_limited' } });

    const isinFollow = await bob.post('/api/isin/register', { label: 'Apple Inc.', isin: 'US0378331005' });
    expect(isinFollow.status, isinFollow.text).toBe(200);
    expect(isinFollow.body).toHaveLength(2);
    expect((await bob.post('/api/isin/register', { isin: 'US0378331006' })).body).toMatchObject({
      error: { code: 'isin_invalid' },
    });
    const info = (await bob.get('/api/user_info')).body;
    expect(info.cik_isins).toEqual(isinFollow.body);
    expect(info.tdedinets).toEqual([]);

    // Another account sees none of Bob's items and cannot delete them.
    const carol = await member('carol-filings@example.com', 'en');
    expect((await carol.get('/api/user_info')).body).toMatchObject({ tdedinets: [], cik_isins: [] });
    const items = info.cik_isins as { id: string }[];
    const foreign = await carol.post('/api/cikisin/delete', items[0]);
    expect(foreign.status).toBe(404);
    expect((await bob.get('/api/user_info')).body.cik_isins).toEqual(items);

    const removed = await bob.post('/api/cikisin/delete', items[0]);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual([items[1]]);
    expect((await bob.post('/api/cikisin/delete', items[0])).status).toBe(404);
  });

  it('refuses a follow beyond the limit (409) and a burst of searches (429)', async () => {
    const dave = await member('dave-filings@example.com', 'en');
    for (let i = 0; i < 100; i++) {
      const isin = isinWithCheckDigit(`US${String(100_000_000 + i)}`);
      const followed = await dave.post('/api/isin/register', { label: `Issuer ${i}`, isin });
      expect(followed.status, followed.text).toBe(200);
    }
    const over = await dave.post('/api/isin/register', { isin: isinWithCheckDigit('US200000000') });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error: { code: 'follow_limit' } });
    expect((await dave.get('/api/user_info')).body.cik_isins).toHaveLength(100);

    // The burst is 20 searches; then the bucket refills one every 3 s, far slower than these
    // follow one another, so a refusal comes within a few more whatever the machine's load.
    const statuses: number[] = [];
    let refused: unknown;
    while (statuses.length < 80 && refused === undefined) {
      const answer = await dave.post('/api/cik/search', { query: 'apple' });
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer.body;
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(refused).toMatchObject({ error: { code: 'rate_limited', message_key: 'errors.rate_limited' } });
    // Another user's searches are their own.
    const erin = await member('erin-filings@example.com', 'en');
    expect((await erin.post('/api/cik/search', { query: 'apple' })).status).toBe(200);
  });

  it('answers 401 signed out and 503 where the filings service is not configured', async () => {
    const stranger = await harness.browser();
    expect((await stranger.post('/api/tdedi/search', { query: 'toyota' })).status).toBe(401);
    expect((await stranger.get('/api/filings/sources')).status).toBe(401);
    const frank = await member('frank-filings@example.com', 'ja');
    // Where filings come from: the stand-in's real sources, no demo (and no demo mark on answers).
    expect((await frank.get('/api/filings/sources')).body).toEqual({
      demo: false,
      sources: ['tdnet', 'edinet', 'sec', 'globenewswire'],
    });
    expect((await frank.post('/api/tdedi/search', { query: 'toyota' })).body).toEqual([
      { edinet: 'E02144', tdnet: '7203', name1: 'トヨタ自動車株式会社' },
    ]);

    const without = await createGateway({
      logger: createLogger({ service: 'gateway-test', level: 'silent' }),
      account: harness.account,
      isShuttingDown: () => false,
    });
    try {
      const browser = new TestBrowser(without.app);
      for (const [name, value] of frank.cookies) browser.cookies.set(name, value);
      const answer = await browser.post('/api/tdedi/search', { query: 'toyota' });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ error: { code: 'filings_unavailable' } });
      expect((await browser.get('/api/filings/sources')).status).toBe(503);
      expect((await browser.get('/api/user_info')).body).toMatchObject({ tdedinets: [], cik_isins: [] });
    } finally {
      await without.close();
    }
  });

  it('describes the eight paths in /api/openapi.json', async () => {
    const document = (await (await harness.browser()).get('/api/openapi.json')).body as {
      paths: Record<string, { post?: { responses?: Record<string, unknown> } }>;
    };
    for (const path of [
      '/api/tdedi/search',
      '/api/tdedi/register',
      '/api/tdedi/delete',
      '/api/cik/search',
      '/api/cik/register',
      '/api/isin/search',
      '/api/isin/register',
      '/api/cikisin/delete',
    ])
      expect(Object.keys(document.paths[path]?.post?.responses ?? {}), path).toEqual(
        expect.arrayContaining(['200', '401', '503']),
      );
  });
});
