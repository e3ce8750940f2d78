import type { webhookV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import type { AccountDeps } from '../domain/account-deps.ts';
import { requireUser } from '../domain/sessions.ts';
import {
  createWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  testWebhook,
  type WebhookDeps,
  type WebhookRecord,
} from '../domain/webhooks.ts';
import { answering } from './problem-status.ts';

/** The account's signed webhooks over gRPC; each call acts for the session's user only. */
export function webhookServer(
  deps: WebhookDeps & Pick<AccountDeps, 'accounts' | 'clock'>,
): webhookV1.WebhookServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const user = (request: { sessionToken: string }) => requireUser(request.sessionToken, deps);
  return {
    listWebhooks: rpc(async (request: webhookV1.ListWebhooksRequest) => ({
      webhooks: (await deps.webhooks.list(await user(request))).map(toWebhook),
    })),
    createWebhook: rpc(async (request: webhookV1.CreateWebhookRequest) => {
      const made = await createWebhook(deps, await user(request), {
        url: request.url,
        targetId: request.targetId,
      });
      return { webhook: toWebhook(made.webhook), secret: made.secret };
    }),
    rotateWebhookSecret: rpc(async (request: webhookV1.RotateWebhookSecretRequest) => {
      const made = await rotateWebhookSecret(deps, await user(request), request.webhookId);
      return { webhook: toWebhook(made.webhook), secret: made.secret };
    }),
    deleteWebhook: rpc(async (request: webhookV1.DeleteWebhookRequest) => {
      await deleteWebhook(deps, await user(request), request.webhookId);
      return {};
    }),
    testWebhook: rpc(async (request: webhookV1.TestWebhookRequest) => {
      const answer = await testWebhook(deps, await user(request), request.webhookId);
      return answer.kind === 'answered'
        ? { outcome: 'answered', status: answer.status, bodyExcerpt: answer.bodyExcerpt, reason: '' }
        : { outcome: answer.kind, status: 0, bodyExcerpt: '', reason: answer.reason };
    }),
  };
}

function toWebhook(record: WebhookRecord): webhookV1.Webhook {
  return {
    id: record.id,
    url: record.url,
    targetId: record.targetId,
    createdAt: record.createdAt,
    secretRotatedAt: record.secretRotatedAt,
  };
}
