import { type HttpVisitor, TEST_TIME_SCALE } from '@mimamori/test-fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FilingsStandIn, startFilingsStandIn } from '../services/filings/test/filings-stand-in.ts';
import { writtenTime } from '../services/notifier/src/domain/written-time.ts';
import { linkDiscord, signUpVerified, WEBHOOK_ID } from './rig/account-steps.ts';
import { searchUntilFound } from './rig/search-directory.ts';
import { useSystemRig } from './rig/system-rig.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 16 end to end in cluster mode: every service its own process, real PostgreSQL,
// JetStream, an SMTP server and a Discord receiver; the SEC replayed by the filings stand-in.
// The filings service polls every 10 s of the product's time (the shortest
// FILINGS_POLL_INTERVAL_SECONDS), a few times a second under the rig's time scale.
const POLL_MS = 10_000 / TEST_TIME_SCALE;
const EMAIL = 'filings@example.com';

let sources: FilingsStandIn;
beforeAll(async () => {
  sources = await startFilingsStandIn();
  // Apple's backlog: a filing from an hour before anyone follows, recent enough to be news.
  sources.submissions.push({
    accession: '0000320193-26-000001',
    acceptedAt: new Date(Date.now() - 3_600_000),
    form: '10-K',
  });
  return () => sources.close();
});
const rig = useSystemRig('filings', () => ({
  env: { ...sources.env(['sec']), FILINGS_POLL_INTERVAL_SECONDS: '10' },
}));
let visitor: HttpVisitor;

const polls = () =>
  sources.server.requests.filter((request) => request.path.startsWith('/submissions/')).length;
const filingMails = (form: string) =>
  rig().smtp.messages.filter((mail) => mail.subject === `Mimamori: Apple Inc. filed "${form}"`);
const filingMessages = (form: string) =>
  rig().discord.accepted.filter(
    (message) => message.webhookId === WEBHOOK_ID && message.payload.embeds[0]?.title === form,
  );

/** Waits until the filings service has asked the SEC `count` more times. */
async function pollsAfter(count: number) {
  const seen = polls();
  await waitFor(`${count} more polls`, () => polls() >= seen + count, count * POLL_MS + 60_000);
}

describe('company filings in cluster mode', () => {
  it('signs up with a zone, links Discord and follows Apple; the backlog is not announced', async () => {
    visitor = await signUpVerified(rig(), { email: EMAIL, timezone: 'America/New_York' });
    expect(await linkDiscord(visitor)).toMatchObject({ discord_state: 'complete' });

    const found = await searchUntilFound(visitor, '/api/cik/search', 'AAPL');
    expect(found).toEqual([{ label: 'Apple Inc.', cik: '320193', ticker: 'AAPL' }]);
    const followed = await visitor.post('/api/cik/register', found[0]);
    expect(followed.status).toBe(200);
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      cik_isins: [{ label: 'Apple Inc.', cik: '320193', ticker: 'AAPL', isin: '' }],
    });

    await pollsAfter(2);
    expect(filingMails('10-K')).toEqual([]);
    expect(filingMessages('10-K')).toEqual([]);
  }, 240_000);

  it('a new filing brings one e-mail and one Discord message; later polls send nothing', async () => {
    const acceptedAt = new Date();
    sources.submissions.push({ accession: '0000320193-26-000002', acceptedAt, form: '8-K' });
    const [mail] = await waitFor(
      'the filing e-mail',
      () => filingMails('8-K').length > 0 && filingMails('8-K'),
      90_000,
    );
    const [message] = await rig().discord.waitForAccepted(WEBHOOK_ID, 1, 60_000);

    expect(JSON.stringify(mail?.to)).toContain(EMAIL);
    // The time in the follower's zone as every mail writes it, the company and the document link,
    // in text and HTML.
    const zoned = writtenTime(acceptedAt, 'America/New_York', 'en');
    const documentUrl = `${sources.server.url}/Archives/edgar/data/320193/000032019326000002/0000320193-26-000002.htm`;
    expect(mail?.text).toContain(`Published: ${zoned}`);
    expect(mail?.text).toContain('Company: Apple Inc. (320193)');
    expect(mail?.text).toContain(documentUrl);
    expect(mail?.html).toContain(documentUrl);
    expect(message?.payload.embeds[0]).toMatchObject({ title: '8-K', url: documentUrl });
    expect(rig().discord.problems).toEqual([]);

    await pollsAfter(2);
    expect(filingMails('8-K')).toHaveLength(1);
    expect(filingMessages('8-K')).toHaveLength(1);
  }, 240_000);

  it('restarting the filings service and the notifier in the middle sends nothing twice', async () => {
    sources.submissions.push({ accession: '0000320193-26-000003', acceptedAt: new Date(), form: '8-K/A' });
    // The poller dies abruptly right after the filing is listed; the notifier is replaced while
    // the notice is on its way.
    const seen = polls();
    await waitFor('the poll that lists it', () => polls() > seen, POLL_MS + 60_000);
    await rig().cluster.restart('filings', 'SIGKILL');
    await waitFor('the filing e-mail', () => filingMails('8-K/A').length > 0, 120_000);
    await rig().cluster.restart('notifier');
    await rig().discord.waitForAccepted(WEBHOOK_ID, 2, 90_000);

    await pollsAfter(2);
    expect(filingMails('8-K/A')).toHaveLength(1);
    expect(filingMessages('8-K/A')).toHaveLength(1);
    expect(filingMails('8-K')).toHaveLength(1);
    expect(filingMessages('8-K')).toHaveLength(1);
    expect(filingMails('10-K')).toEqual([]);
  }, 300_000);
});
