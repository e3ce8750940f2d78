import type {
  ChatAdapter,
  ChatCredentials,
  ChatMessage,
  ChatOutcome,
  ChatPlatform,
  ChatPlatformSettings,
} from '@mimamori/chat/port';
import type { AccountMail } from './account-mail.ts';
import type { AccountPort } from './account-port.ts';
import { AccountProblem } from './account-problem.ts';
import type { Clock } from './clock.ts';

/**
 * One chat link of an account (docs/product.md#chat-links): a Slack channel, Teams chat, LINE
 * chat, Chatwork room or Telegram chat that gets the account's messages (account-wide) or one
 * site's. Its credentials are one JSON object, sealed; `digests` are SHA-256s of each credential
 * `key=value`, so a platform's inbound "this chat is gone" finds its links without opening them.
 */
export interface ChatLinkRecord {
  id: string;
  userId: string;
  platform: ChatPlatform;
  /** Empty for account-wide. */
  targetId: string;
  label: string;
  sealedCredentials: string;
  digests: string[];
  status: 'linked' | 'broken';
  brokenReason: string;
  brokenAt: Date | null;
  createdAt: Date;
  version: number;
}

/** A one-time code handed out for a code or OAuth link, kept as its hash. */
export interface ChatLinkCodeRecord {
  codeHash: string;
  userId: string;
  platform: ChatPlatform;
  targetId: string;
  /** The broken link this code relinks in place; empty for a new link. */
  relinkId: string;
  expiresAt: Date;
}

export interface ChatLinkStore {
  list(userId: string): Promise<ChatLinkRecord[]>;
  find(userId: string, id: string): Promise<ChatLinkRecord | null>;
  insert(record: ChatLinkRecord): Promise<void>;
  /** New credentials for a link: linked again, its breakage forgotten. False when not the user's. */
  relink(
    userId: string,
    id: string,
    next: Pick<ChatLinkRecord, 'label' | 'sealedCredentials' | 'digests'>,
  ): Promise<boolean>;
  delete(userId: string, id: string): Promise<boolean>;
  /**
   * A linked link becomes broken and its mail is queued, in one transaction; false (and no mail)
   * when it was broken already or is gone, so a second dead answer mails nobody.
   */
  markBroken(
    userId: string,
    id: string,
    reason: string,
    at: Date,
    mail: AccountMail | null,
  ): Promise<boolean>;
  /** The platform's links whose credentials hold every one of these digests. */
  findByDigests(platform: ChatPlatform, digests: string[]): Promise<ChatLinkRecord[]>;
  insertCode(code: ChatLinkCodeRecord): Promise<void>;
  /** Uses a code once: the unexpired, unused one with this hash (and this user, when given), or null. */
  takeCode(
    codeHash: string,
    platform: ChatPlatform,
    now: Date,
    userId?: string,
  ): Promise<ChatLinkCodeRecord | null>;
}

/** What the chat link use cases reach outside: the platforms, sealing and codes. */
export interface ChatLinkOutside {
  adapters: Record<ChatPlatform, ChatAdapter | undefined>;
  settings: ChatPlatformSettings;
  seal(credentials: string, userId: string, linkId: string): string;
  open(sealed: string, userId: string, linkId: string): string;
  digest(platform: ChatPlatform, key: string, value: string): string;
  newCode(): string;
  hashCode(code: string): string;
}

export interface ChatLinkDeps {
  chatLinks: ChatLinkStore;
  chat: ChatLinkOutside;
  accounts: Pick<AccountPort, 'loadAccount'>;
  clock: Clock;
  newId(): string;
}

/** docs/product.md#chat-links: at most this many per account, site ones included. */
export const MAX_CHAT_LINKS = 20;
/** How long a code or OAuth state can be used. */
export const CHAT_LINK_CODE_TTL_MS = 15 * 60_000;
const MAX_LABEL = 100;

export interface PlatformOffer {
  platform: ChatPlatform;
  linking: 'fields' | 'code' | 'oauth';
  fields: { name: string; secret: boolean }[];
}

/** The platforms this run can link: an adapter exists and its product-wide settings are given. */
export function platformOffers(chat: Pick<ChatLinkOutside, 'adapters' | 'settings'>): PlatformOffer[] {
  return Object.values(chat.adapters)
    .filter((adapter): adapter is ChatAdapter => adapter?.enabled(chat.settings) === true)
    .map((adapter) => ({
      platform: adapter.platform,
      linking: adapter.linking.kind,
      fields: adapter.linking.kind === 'fields' ? adapter.linking.fields.map((field) => ({ ...field })) : [],
    }));
}

function adapterFor(chat: ChatLinkOutside, platform: string): ChatAdapter {
  const adapter = (chat.adapters as Record<string, ChatAdapter | undefined>)[platform];
  if (!adapter?.enabled(chat.settings)) throw new AccountProblem('invalid', 'chat_platform_off');
  return adapter;
}

export async function listChatLinks(deps: ChatLinkDeps, userId: string) {
  return { links: await deps.chatLinks.list(userId), platforms: platformOffers(deps.chat) };
}

async function roomForOneMore(deps: ChatLinkDeps, userId: string, relinkId: string): Promise<void> {
  if (relinkId) {
    if (!(await deps.chatLinks.find(userId, relinkId)))
      throw new AccountProblem('not_found', 'chat_link_not_found');
    return;
  }
  if ((await deps.chatLinks.list(userId)).length >= MAX_CHAT_LINKS) {
    throw new AccountProblem('invalid', 'chat_link_quota_exceeded');
  }
}

/** Stores a link the platform vouched for: a new one, or new credentials for `relinkId`. */
async function saveLink(
  deps: ChatLinkDeps,
  userId: string,
  input: {
    platform: ChatPlatform;
    targetId: string;
    relinkId: string;
    credentials: ChatCredentials;
    label: string;
  },
): Promise<ChatLinkRecord> {
  const id = input.relinkId || deps.newId();
  const sealed = {
    label: input.label.trim().slice(0, MAX_LABEL),
    sealedCredentials: deps.chat.seal(JSON.stringify(input.credentials), userId, id),
    digests: Object.entries(input.credentials).map(([key, value]) =>
      deps.chat.digest(input.platform, key, value),
    ),
  };
  if (input.relinkId) {
    if (!(await deps.chatLinks.relink(userId, id, sealed))) {
      throw new AccountProblem('not_found', 'chat_link_not_found');
    }
  } else {
    await deps.chatLinks.insert({
      id,
      userId,
      platform: input.platform,
      targetId: input.targetId,
      ...sealed,
      status: 'linked',
      brokenReason: '',
      brokenAt: null,
      createdAt: deps.clock.now(),
      version: 1,
    });
  }
  const saved = await deps.chatLinks.find(userId, id);
  if (!saved) throw new AccountProblem('not_found', 'chat_link_not_found');
  return saved;
}

export async function linkChatByFields(
  deps: ChatLinkDeps,
  userId: string,
  input: { platform: string; targetId: string; fields: Record<string, string>; relinkId: string },
): Promise<ChatLinkRecord> {
  const adapter = adapterFor(deps.chat, input.platform);
  if (adapter.linking.kind !== 'fields') throw new AccountProblem('invalid', 'chat_link_kind_mismatch');
  await roomForOneMore(deps, userId, input.relinkId);
  const checked = await adapter.linking.validate(input.fields, deps.chat.settings);
  if (!checked.ok)
    throw new AccountProblem('invalid', `chat_field_invalid:${checked.field}:${checked.reason}`);
  return saveLink(deps, userId, {
    platform: adapter.platform,
    targetId: await scopeOf(deps, userId, input),
    relinkId: input.relinkId,
    credentials: checked.credentials,
    label: checked.label,
  });
}

/** A relink keeps its link's scope; a new link takes the one asked for. */
async function scopeOf(deps: ChatLinkDeps, userId: string, input: { targetId: string; relinkId: string }) {
  if (!input.relinkId) return input.targetId;
  return (await deps.chatLinks.find(userId, input.relinkId))?.targetId ?? input.targetId;
}

export async function startChatLink(
  deps: ChatLinkDeps,
  userId: string,
  input: { platform: string; targetId: string; redirectUri: string; relinkId: string },
): Promise<{ code: string; startUrl: string; authorizeUrl: string; expiresAt: Date }> {
  const adapter = adapterFor(deps.chat, input.platform);
  if (adapter.linking.kind === 'fields') throw new AccountProblem('invalid', 'chat_link_kind_mismatch');
  await roomForOneMore(deps, userId, input.relinkId);
  const code = deps.chat.newCode();
  const expiresAt = new Date(deps.clock.now().getTime() + CHAT_LINK_CODE_TTL_MS);
  await deps.chatLinks.insertCode({
    codeHash: deps.chat.hashCode(code),
    userId,
    platform: adapter.platform,
    targetId: await scopeOf(deps, userId, input),
    relinkId: input.relinkId,
    expiresAt,
  });
  if (adapter.linking.kind === 'code') {
    return {
      code,
      startUrl: adapter.linking.startUrl(code, deps.chat.settings),
      authorizeUrl: '',
      expiresAt,
    };
  }
  return {
    code: '',
    startUrl: '',
    authorizeUrl: adapter.linking.authorizeUrl(code, input.redirectUri, deps.chat.settings),
    expiresAt,
  };
}

/**
 * A verified inbound callback brought a code back with its chat. False when the code is unknown,
 * used or expired, or the account has no room left: the chat's side is told it did not link.
 */
export async function completeChatLinkByCode(
  deps: ChatLinkDeps,
  input: { platform: string; code: string; credentials: ChatCredentials; label: string },
): Promise<boolean> {
  const adapter = adapterFor(deps.chat, input.platform);
  if (adapter.linking.kind !== 'code') throw new AccountProblem('invalid', 'chat_link_kind_mismatch');
  const taken = await deps.chatLinks.takeCode(
    deps.chat.hashCode(input.code.trim()),
    adapter.platform,
    deps.clock.now(),
  );
  if (!taken) return false;
  try {
    await roomForOneMore(deps, taken.userId, taken.relinkId);
    await saveLink(deps, taken.userId, { ...taken, credentials: input.credentials, label: input.label });
  } catch (error) {
    if (error instanceof AccountProblem) return false;
    throw error;
  }
  return true;
}

export async function completeChatLinkByOauth(
  deps: ChatLinkDeps,
  userId: string,
  input: { platform: string; state: string; code: string; redirectUri: string },
): Promise<ChatLinkRecord> {
  const adapter = adapterFor(deps.chat, input.platform);
  if (adapter.linking.kind !== 'oauth') throw new AccountProblem('invalid', 'chat_link_kind_mismatch');
  // The state is the caller's own code: another account's consent never lands here.
  const taken = await deps.chatLinks.takeCode(
    deps.chat.hashCode(input.state),
    adapter.platform,
    deps.clock.now(),
    userId,
  );
  if (!taken) throw new AccountProblem('invalid', 'chat_link_code_invalid');
  await roomForOneMore(deps, userId, taken.relinkId);
  const exchanged = await adapter.linking.exchange(input.code, input.redirectUri, deps.chat.settings);
  if (!exchanged.ok) throw new AccountProblem('invalid', `chat_field_invalid::${exchanged.reason}`);
  return saveLink(deps, userId, { ...taken, credentials: exchanged.credentials, label: exchanged.label });
}

export async function deleteChatLink(deps: ChatLinkDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.chatLinks.delete(userId, id)))
    throw new AccountProblem('not_found', 'chat_link_not_found');
}

/** The link's credentials, opened; null when they no longer open (a key dropped from SECRET_KEYS). */
export function openCredentials(
  deps: Pick<ChatLinkDeps, 'chat'>,
  link: ChatLinkRecord,
): ChatCredentials | null {
  try {
    return JSON.parse(deps.chat.open(link.sealedCredentials, link.userId, link.id)) as ChatCredentials;
  } catch {
    return null;
  }
}

const TEST_WORDING = {
  ja: {
    title: 'Mimamori のテストメッセージです',
    body: 'このチャットの連携ができました。サイトの更新や監視の異常はここにも届きます。',
  },
  en: {
    title: 'A test message from Mimamori',
    body: "This chat is linked. Your sites' updates and monitoring alerts will arrive here too.",
  },
} as const;

/** Sends the link's test message now; a dead answer breaks the link (and mails once) as a delivery's would. */
export async function testChatLink(deps: ChatLinkDeps, userId: string, id: string): Promise<ChatOutcome> {
  const link = await deps.chatLinks.find(userId, id);
  if (!link) throw new AccountProblem('not_found', 'chat_link_not_found');
  const adapter = adapterFor(deps.chat, link.platform);
  const credentials = openCredentials(deps, link);
  if (!credentials) return { kind: 'refused', reason: 'credentials_unreadable' };
  const account = await deps.accounts.loadAccount(userId);
  const lang = account?.lang === 'en' ? 'en' : 'ja';
  const message: ChatMessage = {
    kind: 'test',
    lang,
    title: TEST_WORDING[lang].title,
    fields: [],
    body: TEST_WORDING[lang].body,
    link: null,
    images: [],
  };
  const now = deps.clock.now();
  const outcome = await adapter.send({ platform: link.platform, credentials }, message, deps.chat.settings, {
    deliveryId: `test:${link.id}:${now.getTime()}`,
  });
  if (outcome.kind === 'dead') await breakLink(deps, link, outcome.reason);
  return outcome;
}

/** Breaks one link and, the first time only, queues its owner's mail in the owner's language. */
async function breakLink(deps: ChatLinkDeps, link: ChatLinkRecord, reason: string): Promise<boolean> {
  const account = await deps.accounts.loadAccount(link.userId);
  const mail: AccountMail | null = account?.email
    ? {
        kind: 'chat_link_broken',
        userId: link.userId,
        to: account.email,
        lang: account.lang === 'en' ? 'en' : 'ja',
        chat: { platform: link.platform, label: link.label, reason },
      }
    : null;
  return deps.chatLinks.markBroken(link.userId, link.id, reason.slice(0, 200), deps.clock.now(), mail);
}

/**
 * The platform said a chat is gone: by link (a send answered dead) or by what an inbound event
 * named (every link of the platform holding those credentials). Answers how many broke now.
 */
export async function markChatLinkDead(
  deps: ChatLinkDeps,
  input: { userId: string; linkId: string; platform: string; match: Record<string, string>; reason: string },
): Promise<number> {
  let links: ChatLinkRecord[];
  if (input.linkId) {
    const link = input.userId ? await deps.chatLinks.find(input.userId, input.linkId) : null;
    links = link ? [link] : [];
  } else {
    links = await linksMatching(deps, input.platform, input.match);
  }
  let broken = 0;
  for (const link of links) {
    if (link.status === 'linked' && (await breakLink(deps, link, input.reason || 'dead'))) broken += 1;
  }
  return broken;
}

async function linksMatching(
  deps: ChatLinkDeps,
  platform: string,
  match: Record<string, string>,
): Promise<ChatLinkRecord[]> {
  const adapter = adapterFor(deps.chat, platform);
  const entries = Object.entries(match);
  if (entries.length === 0) return [];
  return deps.chatLinks.findByDigests(
    adapter.platform,
    entries.map(([key, value]) => deps.chat.digest(adapter.platform, key, value)),
  );
}

/** A chat moved (a Telegram group became a supergroup): its links hold the new credentials. */
export async function moveChatLink(
  deps: ChatLinkDeps,
  input: { platform: string; match: Record<string, string>; credentials: ChatCredentials },
): Promise<number> {
  let moved = 0;
  for (const link of await linksMatching(deps, input.platform, input.match)) {
    const current = openCredentials(deps, link) ?? {};
    await saveLink(deps, link.userId, {
      platform: link.platform,
      targetId: link.targetId,
      relinkId: link.id,
      credentials: { ...current, ...input.credentials },
      label: link.label,
    });
    moved += 1;
  }
  return moved;
}
