import { isIP } from 'node:net';
import type { ChatPlatform, ChatPlatformSettings } from '@mimamori/chat';
import type { StandIn, StandInStore } from '@mimamori/chat-stand-ins';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendApiError } from './api-error.ts';

export interface ChatStandInSetup {
  standIns: Partial<Record<ChatPlatform, StandIn>>;
  /** The gateway's stand-in store: in the data folder in the single-process product, so a restart keeps it. */
  store: StandInStore;
  /** The product's settings, read at each use (the stand-ins' address comes with listening). */
  settings: () => ChatPlatformSettings;
  productUrl: () => string;
}

/**
 * The chat platforms' loopback stand-ins, each under `/dev/<platform>`, in the single-process mode
 * listening on loopback only (as /dev/discord): what the product posts to Slack, Teams, LINE,
 * Chatwork or Telegram is kept and shown there, and a person plays the other side. Served to
 * loopback peers only. The product's own services and the stand-in pages' forms post here as the
 * platforms' clients would, without the SPA's CSRF token.
 */
export function chatStandInRoutes(app: FastifyInstance, setup: ChatStandInSetup): void {
  for (const [platform, standIn] of Object.entries(setup.standIns)) {
    if (!standIn) continue;
    app.register(async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        if (!fromLoopback(request)) return sendApiError(reply, 404, 'not_found');
      });
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, otherSiteMayPost: true };
      });
      standIn(scope, `/dev/${platform}`, {
        store: setup.store,
        productUrl: setup.productUrl,
        get settings() {
          return setup.settings();
        },
      });
    });
  }
}

function fromLoopback(request: FastifyRequest): boolean {
  const address = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}
