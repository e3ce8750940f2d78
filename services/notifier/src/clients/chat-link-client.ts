import type { chatLinkV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';

/** Tells the account service a chat link is dead (MarkChatLinkDead): it breaks the link and mails its owner once. */
export interface ChatLinkBreaker {
  markDead(userId: string, linkId: string, reason: string): Promise<void>;
  close?(): void;
}

export function chatLinkBreaker(connect: () => chatLinkV1.ChatLinkServiceClient): ChatLinkBreaker {
  // Connected on first use: in one process the account service may start after this one is built.
  let client: chatLinkV1.ChatLinkServiceClient | undefined;
  return {
    async markDead(userId, linkId, reason) {
      client ??= connect();
      await unary(client, 'markChatLinkDead', { userId, linkId, platform: '', match: {}, reason });
    },
    close: () => client?.close(),
  };
}
