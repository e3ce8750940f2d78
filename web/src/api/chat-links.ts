import type {
  ChatLink,
  ChatLinkList,
  ChatLinkMade,
  ChatLinkStarted,
  ChatLinkTestResult,
} from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type {
  ChatLink,
  ChatLinkList,
  ChatLinkStarted,
  ChatLinkTestResult,
  ChatPlatformOffer,
} from '@mimamori/http-api';
export type ChatPlatform = ChatLink['platform'];

/** GET /api/v2/chat-links: the account's chat links and the platforms it can link; never credentials. */
export function fetchChatLinks(signal?: AbortSignal): Promise<ChatLinkList> {
  return apiRequest<ChatLinkList>('/api/v2/chat-links', signal ? { signal } : {});
}

/** Links a chat by what the platform gave the user (Chatwork's token and room, Teams' URL). */
export function linkChatByFields(input: {
  platform: ChatPlatform;
  targetId: string;
  fields: Record<string, string>;
  relinkId: string;
}): Promise<ChatLinkMade> {
  return apiRequest('/api/v2/chat-links', {
    method: 'POST',
    body: {
      platform: input.platform,
      fields: input.fields,
      ...(input.targetId ? { target_id: input.targetId } : {}),
      ...(input.relinkId ? { relink_id: input.relinkId } : {}),
    },
  });
}

/** Begins a code link (one-time code and deep link) or an OAuth link (the consent page). */
export function startChatLink(input: {
  platform: ChatPlatform;
  targetId: string;
  relinkId: string;
}): Promise<ChatLinkStarted> {
  return apiRequest('/api/v2/chat-links/start', {
    method: 'POST',
    body: {
      platform: input.platform,
      ...(input.targetId ? { target_id: input.targetId } : {}),
      ...(input.relinkId ? { relink_id: input.relinkId } : {}),
    },
  });
}

export function testChatLink(id: string): Promise<ChatLinkTestResult> {
  return apiRequest('/api/v2/chat-links/test', { method: 'POST', body: { id } });
}

export function deleteChatLink(id: string): Promise<void> {
  return apiRequest('/api/v2/chat-links/delete', { method: 'POST', body: { id } });
}
