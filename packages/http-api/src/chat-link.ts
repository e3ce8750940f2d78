import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';

// Chat links (docs/product.md#chat-links, docs/channels.md): Slack, Teams, LINE, Chatwork and
// Telegram chats that get the account's messages (account-wide) or one site's.

const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();
const text = (description: string) => z.string().nullish().describe(description);

export const CHAT_PLATFORM_NAMES = ['slack', 'teams', 'line', 'chatwork', 'telegram'] as const;

export const chatLinkFieldsBody = body({
  platform: text('slack, teams, line, chatwork or telegram (a platform that links by pasted fields)'),
  target_id: text('The site it is for; empty or left out for every site of the account'),
  fields: z
    .record(z.string(), z.string())
    .nullish()
    .describe('What the platform gave the user, by the names the list’s platforms[].fields give'),
  relink_id: text('A broken link to link again in place; empty for a new link'),
});

export const chatLinkStartBody = body({
  platform: text('A platform that links by a one-time code (LINE, Telegram) or OAuth (Slack)'),
  target_id: text('The site it is for; empty or left out for every site of the account'),
  relink_id: text('A broken link to link again in place; empty for a new link'),
});

export const chatLinkIdBody = body({ id: text('The chat link id') });

export const chatLink = z
  .object({
    id: z.string(),
    platform: z.enum(CHAT_PLATFORM_NAMES),
    target_id: z.string().describe('Empty for account-wide (every site).'),
    label: z.string().describe('The chat’s name on the platform (channel, room, group).'),
    status: z.enum(['linked', 'broken']),
    broken_reason: z.string().describe('Why it broke; empty while linked.'),
    broken_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'ChatLink' });
export type ChatLink = z.infer<typeof chatLink>;

export const chatPlatformOffer = z
  .object({
    platform: z.enum(CHAT_PLATFORM_NAMES),
    linking: z.enum(['fields', 'code', 'oauth']),
    fields: z.array(z.object({ name: z.string(), secret: z.boolean() })),
  })
  .describe('A platform this product can link, and how');
export type ChatPlatformOffer = z.infer<typeof chatPlatformOffer>;

export const chatLinkList = z
  .object({
    links: z.array(chatLink),
    platforms: z.array(chatPlatformOffer),
    max_links: z.number().int(),
  })
  .describe('The account’s chat links, oldest first, and the platforms it can link; never credentials');
export type ChatLinkList = z.infer<typeof chatLinkList>;

export const chatLinkMade = z.object({ link: chatLink }).describe('The linked chat');
export type ChatLinkMade = z.infer<typeof chatLinkMade>;

export const chatLinkStarted = z
  .object({
    code: z.string().describe('Code platforms: the one-time code the user sends from the chat.'),
    start_url: z.string().describe('Code platforms: the deep link that opens the chat with the code.'),
    authorize_url: z.string().describe('OAuth platforms: where to send the browser.'),
    expires_at: z.iso.datetime(),
  })
  .describe('A link begun; it completes when the platform brings the code back');
export type ChatLinkStarted = z.infer<typeof chatLinkStarted>;

export const chatLinkTestResult = z
  .object({
    outcome: z.enum(['sent', 'retry', 'refused', 'dead']).describe('dead: the link is now broken'),
    reason: z.string(),
  })
  .describe('What the platform answered to the test message');
export type ChatLinkTestResult = z.infer<typeof chatLinkTestResult>;

export const chatLinkDeleted = z.object({ status: z.literal('deleted') }).describe('Deleted');

export const chatLinkRefusals = {
  signedOut,
  csrf: csrfFailed,
  link: refusal('Refused (chat_field_invalid names the field and the platform’s reason in field/reason)', [
    'chat_platform_off',
    'chat_link_quota_exceeded',
    'chat_field_invalid',
    'chat_link_kind_mismatch',
    'chat_platform_unreachable',
  ]),
  notFound: refusal('Not this account’s', ['chat_link_not_found', 'not_found']),
};
