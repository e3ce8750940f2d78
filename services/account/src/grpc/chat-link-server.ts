import type { chatLinkV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import type { AccountDeps } from '../domain/account-deps.ts';
import {
  type ChatLinkDeps,
  type ChatLinkRecord,
  completeChatLinkByCode,
  completeChatLinkByOauth,
  deleteChatLink,
  linkChatByFields,
  listChatLinks,
  MAX_CHAT_LINKS,
  markChatLinkDead,
  moveChatLink,
  startChatLink,
  testChatLink,
} from '../domain/chat-links.ts';
import { requireUser } from '../domain/sessions.ts';
import { answering } from './problem-status.ts';

/**
 * The account's chat links over gRPC. The user's methods act for the session's user only; the
 * platform's (a verified inbound callback, the notifier's dead answer) name the link or chat.
 */
export function chatLinkServer(
  deps: ChatLinkDeps & Pick<AccountDeps, 'accounts' | 'clock'>,
): chatLinkV1.ChatLinkServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const user = (request: { sessionToken: string }) => requireUser(request.sessionToken, deps);
  return {
    listChatLinks: rpc(async (request: chatLinkV1.ListChatLinksRequest) => {
      const listed = await listChatLinks(deps, await user(request));
      return { links: listed.links.map(toChatLink), platforms: listed.platforms, maxLinks: MAX_CHAT_LINKS };
    }),
    startChatLink: rpc(async (request: chatLinkV1.StartChatLinkRequest) => {
      const started = await startChatLink(deps, await user(request), request);
      return { ...started };
    }),
    linkChatByFields: rpc(async (request: chatLinkV1.LinkChatByFieldsRequest) => ({
      link: toChatLink(await linkChatByFields(deps, await user(request), request)),
    })),
    completeChatLinkByCode: rpc(async (request: chatLinkV1.CompleteChatLinkByCodeRequest) => ({
      linked: await completeChatLinkByCode(deps, request),
    })),
    completeChatLinkByOauth: rpc(async (request: chatLinkV1.CompleteChatLinkByOauthRequest) => ({
      link: toChatLink(await completeChatLinkByOauth(deps, await user(request), request)),
    })),
    testChatLink: rpc(async (request: chatLinkV1.TestChatLinkRequest) => {
      const outcome = await testChatLink(deps, await user(request), request.linkId);
      return { outcome: outcome.kind, reason: outcome.kind === 'sent' ? '' : outcome.reason };
    }),
    deleteChatLink: rpc(async (request: chatLinkV1.DeleteChatLinkRequest) => {
      await deleteChatLink(deps, await user(request), request.linkId);
      return {};
    }),
    markChatLinkDead: rpc(async (request: chatLinkV1.MarkChatLinkDeadRequest) => ({
      broken: await markChatLinkDead(deps, request),
    })),
    moveChatLink: rpc(async (request: chatLinkV1.MoveChatLinkRequest) => ({
      moved: await moveChatLink(deps, request),
    })),
  };
}

function toChatLink(record: ChatLinkRecord): chatLinkV1.ChatLink {
  return {
    id: record.id,
    platform: record.platform,
    targetId: record.targetId,
    label: record.label,
    status: record.status,
    brokenReason: record.brokenReason,
    brokenAt: record.brokenAt ?? undefined,
    createdAt: record.createdAt,
  };
}
