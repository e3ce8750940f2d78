import { randomBytes } from 'node:crypto';
import { createHttpVisitor, type HttpVisitor } from '@mimamori/test-fixtures';
import type { SystemRig } from './system-rig.ts';
import { waitFor } from './wait-for.ts';

// The steps a person takes through the product's HTTP API in every system test: sign up, open
// the mailed link, sign in, link Discord, register a site, wait for its checks.

export const PASSWORD = 'abcd1234';
/** The account's Discord webhook (Discord's form; the rig's stand-in receives it). */
export const WEBHOOK_ID = '223456789012345678';
export const WEBHOOK_URL = `https://discord.com/api/webhooks/${WEBHOOK_ID}/${randomBytes(48).toString('base64url')}`;

export interface SignUp {
  email: string;
  /** The plan sign-up offers by default unless told (4: Basic 5 with 1-minute slots). */
  plan?: number;
  lang?: 'ja' | 'en';
  timezone?: string;
}

/** Signs up, verifies by the link mailed to `email` and signs in: the visitor holds the session. */
export async function signUpVerified(rig: SystemRig, account: SignUp): Promise<HttpVisitor> {
  const visitor = createHttpVisitor(rig.cluster.url);
  await visitor.get('/healthz');
  const { email, plan, lang = 'en', timezone } = account;
  const signUp = await visitor.post('/api/signup', {
    email,
    password: PASSWORD,
    agree: true,
    lang,
    ...(plan ? { plan } : {}),
    ...(timezone ? { timezone } : {}),
  });
  if (signUp.status !== 202)
    throw new Error(`sign-up answered ${signUp.status}: ${JSON.stringify(signUp.body)}`);
  const token = await waitFor(`the link mailed to ${email}`, () => tokenMailedTo(rig, email), 60_000);
  await expectOk(visitor.post('/api/verify', { token }), 'verify');
  await expectOk(visitor.post('/api/signin', { email, password: PASSWORD }), 'sign-in');
  return visitor;
}

/** The token of the newest link mailed to `address`, if one came. */
export function tokenMailedTo(rig: SystemRig, address: string): string | undefined {
  const mail = rig.smtp.messages.findLast((message) => JSON.stringify(message.to).includes(address));
  return /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
}

/** Links the account's Discord webhook; resolves with the link's answer. */
export async function linkDiscord(visitor: HttpVisitor): Promise<unknown> {
  const linked = await visitor.post('/api/account/discord', { webhook_url: WEBHOOK_URL });
  if (linked.status !== 200) throw new Error(`the Discord link answered ${linked.status}`);
  return linked.body;
}

/** Registers a site running (not saved paused) and resolves with its id. */
export async function registerSite(
  visitor: HttpVisitor,
  registration: Record<string, unknown>,
): Promise<string> {
  const registered = await visitor.post('/api/v2/target/register', registration);
  const body = registered.body as { target_v2_id?: string; paused?: boolean };
  if (registered.status !== 201 || !body.target_v2_id || body.paused) {
    throw new Error(`registration answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  }
  return body.target_v2_id;
}

/** A site's row on the target list, as the dashboard reads it. */
export type SiteRow = { id: string; checked: string | null; failing: { since: string; kind: string } | null };

export async function siteRow(visitor: HttpVisitor, siteId: string): Promise<SiteRow | undefined> {
  const { body } = await visitor.get('/api/v2/targets');
  return (body as { targets: SiteRow[] }).targets.find((row) => row.id === siteId);
}

/** Waits until every one of the sites was checked at least once (the registration check). */
export async function untilChecked(
  visitor: HttpVisitor,
  siteIds: string[],
  timeoutMs = 60_000,
): Promise<void> {
  await waitFor(
    'the registration checks',
    async () => {
      const { body } = await visitor.get('/api/v2/targets');
      const rows = (body as { targets: SiteRow[] }).targets;
      return siteIds.every((id) => rows.find((row) => row.id === id)?.checked) || undefined;
    },
    timeoutMs,
  );
}

async function expectOk(call: Promise<{ status: number; body: unknown }>, what: string): Promise<void> {
  const { status, body } = await call;
  if (status !== 200) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
}
