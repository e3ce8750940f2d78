import type { ChatAdapter, ChatPlatform, ChatPlatformSettings, InboundResult } from '@mimamori/chat';
import Fastify, { type FastifyInstance } from 'fastify';
import { memoryStandInStore } from './memory-store.ts';
import type { StandIn, StandInStore } from './stand-in.ts';

/**
 * For the stand-ins' tests: one loopback server with the platform's stand-in under
 * `/dev/<platform>` and, in the product's place, `/hooks/<platform>` handing the raw body to the
 * adapter as the gateway does, answering 401 to a rejected callback and replying to each code
 * (`linkedCodes` are the codes the product would know).
 */
export interface TestProduct {
  base: string;
  store: StandInStore;
  settings: ChatPlatformSettings;
  /** What each inbound callback came to, oldest first. */
  inbound: InboundResult[];
  linkedCodes: Set<string>;
  /** The stand-in page's form value, read from the page as a browser would. */
  nonce(): Promise<string>;
  /** Presses a button on the page: a form post, as the browser sends it. */
  act(fields: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestProduct(options: {
  platform: ChatPlatform;
  adapter: ChatAdapter;
  standIn: StandIn;
  settings: (base: string) => ChatPlatformSettings;
  now?: () => number;
  /** A page of the stand-in that always has a form (the page's nonce); `/dev/<platform>` unless told. */
  formPage?: string;
}): Promise<TestProduct> {
  const app: FastifyInstance = Fastify();
  const store = memoryStandInStore();
  const settings: ChatPlatformSettings = {};
  const inbound: InboundResult[] = [];
  const linkedCodes = new Set<string>();
  let base = '';

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(`/hooks/${options.platform}`, async (request, reply) => {
      const result = await options.adapter.inbound?.(
        {
          headers: request.headers as Record<string, string | undefined>,
          rawBody: request.body as Buffer,
          nowSeconds: Math.floor((options.now ?? Date.now)() / 1000),
        },
        settings,
      );
      if (!result) return reply.code(404).send();
      inbound.push(result);
      if (result.kind === 'rejected') return reply.code(401).send();
      for (const event of result.events) {
        if (event.kind === 'link') await result.reply?.(event, linkedCodes.has(event.code));
      }
      return reply.send();
    });
  });
  options.standIn(app, `/dev/${options.platform}`, {
    store,
    productUrl: () => base,
    settings,
    ...(options.now ? { now: options.now } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  Object.assign(settings, options.settings(base));

  const nonce = async () => {
    const page = await (await fetch(`${base}${options.formPage ?? `/dev/${options.platform}`}`)).text();
    return /name="nonce" value="([^"]+)"/.exec(page)?.[1] ?? '';
  };
  return {
    base,
    store,
    settings,
    inbound,
    linkedCodes,
    nonce,
    act: async (fields) =>
      fetch(`${base}/dev/${options.platform}/act`, {
        method: 'POST',
        body: new URLSearchParams({ nonce: await nonce(), ...fields }),
        redirect: 'manual',
      }),
    close: () => app.close(),
  };
}
