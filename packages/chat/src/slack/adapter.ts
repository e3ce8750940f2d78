import type {
  ChatAdapter,
  ChatCredentials,
  ChatImage,
  ChatMessage,
  ChatOutcome,
  ChatPlatformSettings,
  InboundEvent,
  InboundResult,
} from '../port.ts';
import { retryAfterMs } from '../retry-after.ts';
import { type SlackLayout, slackLayout } from './layout.ts';
import { slackErrorOutcome } from './outcome.ts';
import { SlackRequestVerifier } from './signature.ts';

type SlackSettings = NonNullable<ChatPlatformSettings['slack']>;

/**
 * The bot scopes asked for: post (`chat:write`), upload the pictures (`files:write`), read public
 * channels' names and ids (`channels:read`: not called yet, asked now so that checking a linked
 * channel later needs no second consent), and `incoming-webhook`, only so that Slack's consent
 * page shows a channel picker and `oauth.v2.access` says which channel the person picked.
 */
export const SLACK_SCOPES = ['chat:write', 'files:write', 'channels:read', 'incoming-webhook'] as const;

const TIMEOUT_MS = 10_000;

/** One Web API call's answer, read. */
type SlackAnswer =
  | { kind: 'ok'; body: Record<string, unknown> }
  | { kind: 'error'; error: string }
  | { kind: 'retry'; afterMs: number | null; reason: string };

/**
 * Slack through its Web API with plain fetch (ADR 0022): the three calls the product makes
 * (`oauth.v2.access`, `chat.postMessage`, the external file upload) do not need the SDK, whose
 * own retry queue would hold a delivery for minutes where the notifier schedules retries itself.
 * Each adapter remembers the event signatures it has seen (replays): a process makes one.
 */
export function slackAdapter(): ChatAdapter {
  const verifier = new SlackRequestVerifier();
  return {
    platform: 'slack',
    enabled: (settings) => Boolean(settings.slack),
    linking: {
      kind: 'oauth',
      authorizeUrl(state, redirectUri, settings) {
        const slack = required(settings);
        const url = new URL(`${trimSlash(slack.oauthBase)}/oauth/v2/authorize`);
        url.searchParams.set('client_id', slack.clientId);
        url.searchParams.set('scope', SLACK_SCOPES.join(','));
        url.searchParams.set('redirect_uri', redirectUri);
        url.searchParams.set('state', state);
        return url.toString();
      },
      async exchange(code, redirectUri, settings) {
        const slack = settings.slack;
        if (!slack) return { ok: false, reason: 'chat_platform_off' };
        const answer = await call(
          slack,
          'oauth.v2.access',
          null,
          { code, redirect_uri: redirectUri },
          {
            authorization: `Basic ${Buffer.from(`${slack.clientId}:${slack.clientSecret}`).toString('base64')}`,
          },
        );
        // Codes, as the link's error page names them (slack_invalid_code, …).
        if (answer.kind === 'retry') return { ok: false, reason: 'platform_unreachable' };
        if (answer.kind === 'error') return { ok: false, reason: `slack_${answer.error}` };
        const body = answer.body;
        const team = (body.team ?? {}) as { id?: unknown; name?: unknown };
        const hook = (body.incoming_webhook ?? {}) as { channel?: unknown; channel_id?: unknown };
        if (
          typeof body.access_token !== 'string' ||
          typeof hook.channel_id !== 'string' ||
          typeof team.id !== 'string'
        ) {
          return { ok: false, reason: 'slack_answer_incomplete' };
        }
        const channelName =
          typeof hook.channel === 'string' ? hook.channel.replace(/^#/, '') : hook.channel_id;
        const teamName = typeof team.name === 'string' ? team.name : team.id;
        return {
          ok: true,
          credentials: {
            botToken: body.access_token,
            channelId: hook.channel_id,
            channelName,
            teamId: team.id,
            teamName,
          },
          label: `#${channelName} (${teamName})`,
        };
      },
    },
    async send(destination, message, settings) {
      const slack = settings.slack;
      // Slack's settings were taken away with links still there: they wait for them to come back.
      if (!slack) return { kind: 'retry', afterMs: null, reason: 'Slack is not set up in this run' };
      const { botToken, channelId } = destination.credentials;
      if (!botToken || !channelId) return { kind: 'dead', reason: 'slack_credentials_incomplete' };
      const layout = slackLayout(message);
      const answer =
        message.images.length === 0
          ? await call(slack, 'chat.postMessage', botToken, {
              channel: channelId,
              text: layout.text,
              blocks: JSON.stringify(layout.blocks),
              unfurl_links: 'false',
              unfurl_media: 'false',
            })
          : await postWithPictures(slack, botToken, channelId, layout, message);
      return outcome(answer);
    },
    async inbound(request, settings) {
      const slack = settings.slack;
      if (!slack) return { kind: 'rejected', reason: 'Slack is not set up' };
      const verdict = verifier.verify(
        slack.signingSecret,
        request.headers,
        request.rawBody,
        request.nowSeconds,
      );
      if (!verdict.ok) return { kind: 'rejected', reason: verdict.reason };
      return readEvent(request.rawBody);
    },
  };
}

/**
 * A message with its pictures is one message: each picture is uploaded (`files.getUploadURLExternal`,
 * then the bytes to the URL it gave), and `files.completeUploadExternal` shares them in the channel
 * with the message's blocks. Two messages (text, then pictures) would meet Slack's one message a
 * second per channel, and a retry of the second would post the first again.
 */
async function postWithPictures(
  slack: SlackSettings,
  token: string,
  channelId: string,
  layout: SlackLayout,
  message: ChatMessage,
): Promise<SlackAnswer> {
  const files: { id: string; title: string }[] = [];
  for (const image of message.images) {
    const uploaded = await upload(slack, token, image);
    if (uploaded.kind !== 'ok') return uploaded;
    files.push({ id: String(uploaded.body.file_id), title: pictureTitle(image, message.lang) });
  }
  return call(slack, 'files.completeUploadExternal', token, {
    files: JSON.stringify(files),
    channel_id: channelId,
    blocks: JSON.stringify(layout.blocks),
  });
}

async function upload(slack: SlackSettings, token: string, image: ChatImage): Promise<SlackAnswer> {
  const target = await call(slack, 'files.getUploadURLExternal', token, {
    filename: image.filename,
    length: String(image.data.length),
  });
  if (target.kind !== 'ok') return target;
  const { upload_url: uploadUrl, file_id: fileId } = target.body;
  if (typeof uploadUrl !== 'string' || typeof fileId !== 'string') {
    return { kind: 'error', error: 'no_upload_url' };
  }
  try {
    const response = await fetch(uploadUrl, {
      method: 'POST',
      headers: { 'content-type': image.contentType },
      body: new Uint8Array(image.data),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    const passing = passingTrouble(response);
    if (passing) return passing;
    if (!response.ok) return { kind: 'error', error: `upload_failed_${response.status}` };
  } catch (error) {
    return { kind: 'retry', afterMs: null, reason: `Slack upload: ${describe(error)}` };
  }
  return target;
}

function pictureTitle(image: ChatImage, lang: ChatMessage['lang']): string {
  if (image.role === 'before') return lang === 'ja' ? '変更前' : 'Before';
  return lang === 'ja' ? '変更後' : 'After';
}

/** One Web API method, form-encoded, the token as a bearer (docs.slack.dev "Web API basics"). */
async function call(
  slack: SlackSettings,
  method: string,
  token: string | null,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<SlackAnswer> {
  let response: Response;
  try {
    response = await fetch(`${trimSlash(slack.apiBase)}/${method}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: new URLSearchParams(params).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: 'retry', afterMs: null, reason: `Slack ${method}: ${describe(error)}` };
  }
  const passing = passingTrouble(response);
  if (passing) {
    await response.arrayBuffer().catch(() => undefined);
    return passing;
  }
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    return { kind: 'retry', afterMs: null, reason: `Slack ${method}: answer ${response.status} not JSON` };
  }
  if (body.ok === true) return { kind: 'ok', body };
  return { kind: 'error', error: typeof body.error === 'string' ? body.error : `http_${response.status}` };
}

/** 429 (after Slack's Retry-After) and 5xx: Slack's passing trouble. */
function passingTrouble(response: Response): SlackAnswer | null {
  if (response.status === 429) {
    return {
      kind: 'retry',
      afterMs: retryAfterMs(response.headers.get('retry-after')),
      reason: 'Slack rate limit',
    };
  }
  if (response.status >= 500)
    return { kind: 'retry', afterMs: null, reason: `Slack answered ${response.status}` };
  return null;
}

function outcome(answer: SlackAnswer): ChatOutcome {
  if (answer.kind === 'ok') return { kind: 'sent' };
  if (answer.kind === 'retry') return { kind: 'retry', afterMs: answer.afterMs, reason: answer.reason };
  return slackErrorOutcome(answer.error);
}

/**
 * A verified Events API request: the `url_verification` challenge Slack sends when the events URL
 * is saved, and the two events that end the link. `app_uninstalled` and `tokens_revoked` come in
 * either order and both end every link of the workspace; a revoked user token alone ends
 * nothing, as the product holds only the bot's.
 */
function readEvent(rawBody: Buffer): InboundResult {
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { kind: 'accepted', events: [] };
  }
  if (payload.type === 'url_verification' && typeof payload.challenge === 'string') {
    return {
      kind: 'accepted',
      events: [],
      response: { contentType: 'text/plain', body: payload.challenge },
    };
  }
  if (payload.type !== 'event_callback' || typeof payload.team_id !== 'string') {
    return { kind: 'accepted', events: [] };
  }
  const event = (payload.event ?? {}) as { type?: unknown; tokens?: { bot?: unknown } };
  const match: ChatCredentials = { teamId: payload.team_id };
  const events: InboundEvent[] = [];
  if (event.type === 'app_uninstalled') {
    events.push({ kind: 'dead', match, reason: 'slack_app_uninstalled' });
  } else if (
    event.type === 'tokens_revoked' &&
    Array.isArray(event.tokens?.bot) &&
    event.tokens.bot.length > 0
  ) {
    events.push({ kind: 'dead', match, reason: 'slack_tokens_revoked' });
  }
  return { kind: 'accepted', events };
}

function required(settings: ChatPlatformSettings): SlackSettings {
  if (!settings.slack) throw new Error('Slack is not set up (no SLACK_* settings)');
  return settings.slack;
}

function trimSlash(base: string): string {
  return base.replace(/\/+$/, '');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
