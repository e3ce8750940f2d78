/**
 * The one port every chat platform sits behind (docs/channels.md). The notifier sends updates,
 * failure alerts, recovery notices and filing notices through it; the account service sends the
 * link's test message; the gateway hands each platform's inbound callbacks (LINE's webhook,
 * Telegram's updates, Slack's OAuth return) to it. Each platform is one adapter
 * (`src/<platform>/`), and each has a loopback stand-in in `@mimamori/chat-stand-ins` that
 * enforces the platform's documented limits. Discord predates the port and keeps its own path.
 */

export const CHAT_PLATFORMS = ['slack', 'teams', 'line', 'chatwork', 'telegram'] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];

export function isChatPlatform(value: string): value is ChatPlatform {
  return (CHAT_PLATFORMS as readonly string[]).includes(value);
}

/**
 * What a linked channel holds to be posted to, opened (secrets in clear, in memory only; sealed
 * at rest by the account service as one JSON string). The keys are the adapter's own, e.g.
 * Slack `{ botToken, channelId, channelName }`, Teams `{ url }`, LINE `{ to }`, Chatwork
 * `{ apiToken, roomId }`, Telegram `{ chatId }`.
 */
export type ChatCredentials = Readonly<Record<string, string>>;

/** A linked channel as the adapters see it. */
export interface ChatDestination {
  platform: ChatPlatform;
  credentials: ChatCredentials;
}

/**
 * Where the platforms are, for this run: the real APIs in production, the loopback stand-ins in
 * the single-process product and in tests. Product-wide secrets (Slack's app, LINE's and
 * Telegram's bots) come from the environment; a platform whose settings are missing is off.
 */
export interface ChatPlatformSettings {
  slack?: {
    apiBase: string;
    oauthBase: string;
    clientId: string;
    clientSecret: string;
    signingSecret: string;
  };
  /** Teams has no product-wide secret: `apiBase` replaces the pasted URL's origin (stand-in), or is empty. */
  teams?: { apiBase: string };
  line?: {
    apiBase: string;
    channelAccessToken: string;
    channelSecret: string;
    botBasicId: string;
    addFriendUrl: string;
  };
  chatwork?: { apiBase: string };
  telegram?: {
    apiBase: string;
    botToken: string;
    botUsername: string;
    webhookSecret: string;
    deepLinkBase: string;
  };
}

/** `silence`: a site's page has not changed for the days its owner asked about (docs/product.md#silence-alerts). */
/** `digest`: the updates held during quiet hours, sent when they end (docs/product.md#quiet-hours). */
export type ChatMessageKind =
  | 'update'
  | 'failure'
  | 'recovery'
  | 'silence'
  | 'filing'
  | 'digest'
  | 'test'
  | 'broken';

/** A picture of an update: its bytes for platforms that take uploads, its public URL for those that take only URLs. */
export interface ChatImage {
  role: 'before' | 'after';
  /** PNG or JPEG bytes as stored. */
  data: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  filename: string;
  /**
   * An unguessable HTTPS URL under PUBLIC_URL that serves the picture until it expires or the
   * site is deleted (docs/channels.md#images); null when the product has no public URL.
   */
  publicUrl: string | null;
}

/**
 * What one message says, platform-neutral and already in the reader's language. Adapters lay it
 * out in their platform's format and cut it to the platform's limits; they never drop the title
 * or the link.
 */
export interface ChatMessage {
  kind: ChatMessageKind;
  lang: 'ja' | 'en';
  /** One line: the update's summary line, "Site X is failing", the filing's title. */
  title: string;
  /** Labelled facts: site, area, URL, time, company. Values are plain text. */
  fields: ReadonlyArray<{ label: string; value: string }>;
  /** The change itself (diff text) or the alert's explanation; plain text, may be long. */
  body: string;
  /** The history page, the filing, the settings page. */
  link: { label: string; url: string } | null;
  images: readonly ChatImage[];
}

/** What came of one send. */
export type ChatOutcome =
  | { kind: 'sent' }
  /** Try again later: 429 (after the platform's Retry-After), 5xx or no answer. */
  | { kind: 'retry'; afterMs: number | null; reason: string }
  /** The platform refused this message for good (a bad request): the channel itself is fine. */
  | { kind: 'refused'; reason: string }
  /**
   * The channel is dead: revoked token, removed webhook, blocked bot, unfollowed account. The
   * channel is marked broken, the user is told once, and nothing is sent to it again until relinked.
   */
  | { kind: 'dead'; reason: string };

/** A send's context: a key that makes the platform drop a repeat where it can (LINE's X-Line-Retry-Key). */
export interface SendContext {
  deliveryId: string;
}

/** How a user links a platform (docs/channels.md). */
export type ChatLinking =
  /** The user pastes what the platform gave them (Teams' Workflows URL; Chatwork's token and room). */
  | {
      kind: 'fields';
      fields: ReadonlyArray<{ name: string; secret: boolean }>;
      /** Checks the pasted values (and asks the platform where it can); a refusal names the field. */
      validate(
        input: Readonly<Record<string, string>>,
        settings: ChatPlatformSettings,
      ): Promise<
        | { ok: true; credentials: ChatCredentials; label: string }
        | { ok: false; field: string; reason: string }
      >;
    }
  /**
   * The product shows a one-time code or deep link; the platform's inbound callback brings the
   * code back with the chat to post to (LINE: the code sent to the official account; Telegram:
   * `/start <code>`).
   */
  | { kind: 'code'; startUrl(code: string, settings: ChatPlatformSettings): string }
  /** The product sends the user to the platform's consent page and gets a code back (Slack's OAuth v2). */
  | {
      kind: 'oauth';
      authorizeUrl(state: string, redirectUri: string, settings: ChatPlatformSettings): string;
      exchange(
        code: string,
        redirectUri: string,
        settings: ChatPlatformSettings,
      ): Promise<{ ok: true; credentials: ChatCredentials; label: string } | { ok: false; reason: string }>;
    };

/** One inbound callback request, as the gateway received it. */
export interface InboundRequest {
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
  /** Seconds since the epoch, injected so tests can judge staleness. */
  nowSeconds: number;
}

/** What an inbound callback asks the product to do. */
export type InboundEvent =
  /** A one-time code came back with the chat it was sent from: link it. */
  | { kind: 'link'; code: string; credentials: ChatCredentials; label: string }
  /** The platform says this chat is gone (unfollow, leave, uninstall, token revoked). */
  | { kind: 'dead'; match: ChatCredentials; reason: string }
  /** A group became a supergroup (Telegram) and moved: the stored chat follows it. */
  | { kind: 'moved'; match: ChatCredentials; credentials: ChatCredentials };

export type InboundResult =
  /** Forged, stale or replayed: answered 401 and nothing done. */
  | { kind: 'rejected'; reason: string }
  | {
      kind: 'accepted';
      events: InboundEvent[] /** What to answer the platform (some want a reply to /start). */;
      reply?: (event: InboundEvent, linked: boolean) => Promise<void>;
      /**
       * The body the platform expects in the HTTP answer itself (Slack's `url_verification`
       * challenge, which Slack sends when the events URL is saved); absent: an empty 200.
       */
      response?: { contentType: string; body: string };
    };

/** One chat platform. */
export interface ChatAdapter {
  platform: ChatPlatform;
  /** Whether this run has what the platform needs (the product-wide settings above). */
  enabled(settings: ChatPlatformSettings): boolean;
  linking: ChatLinking;
  send(
    destination: ChatDestination,
    message: ChatMessage,
    settings: ChatPlatformSettings,
    context: SendContext,
  ): Promise<ChatOutcome>;
  /** Verifies and reads an inbound callback; absent for platforms that send none (Teams, Chatwork). */
  inbound?(request: InboundRequest, settings: ChatPlatformSettings): Promise<InboundResult>;
}
