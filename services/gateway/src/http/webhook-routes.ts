import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1, targetV1, webhookV1 } from '@mimamori/contracts';
import {
  webhookCreateBody,
  webhookDeleted,
  webhookIdBody,
  webhookList,
  webhookRefusals,
  webhookTestResult,
  webhookWithSecret,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendApiError } from './api-error.ts';
import { accountWork } from './auth-routes.ts';
import { sessionCaller } from './session-caller.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, csrf } = webhookRefusals;
const security = [{ session: [] }];

/**
 * The account's signed webhooks (docs/webhooks.md): list, add, rotate the secret, test-send,
 * delete. The account service acts for the session's user only; a site webhook is added only for
 * a site the caller owns, as the target service says.
 */
export function webhookRoutes(
  app: FastifyInstance,
  deps: {
    account: accountV1.AccountServiceClient;
    webhooks: webhookV1.WebhookServiceClient;
    target?: targetV1.TargetServiceClient | undefined;
    /** The single-process product's own receiver to suggest (its /dev/webhooks); none elsewhere. */
    tryUrl?: (() => string | null) | undefined;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { webhooks } = deps;

  api.get(
    '/api/webhooks',
    {
      schema: {
        summary: 'The account’s webhooks, account-wide and per site; never their secrets',
        security,
        response: { 200: webhookList, 401: signedOut },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(webhooks, 'listWebhooks', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        });
        return reply.send({ webhooks: answer.webhooks.map(toWebhookJson), try_url: deps.tryUrl?.() ?? null });
      }),
  );

  api.post(
    '/api/webhooks',
    {
      schema: {
        summary: 'Add a webhook for every site or one site; answers its signing secret this once',
        security,
        body: webhookCreateBody,
        response: {
          201: webhookWithSecret,
          400: webhookRefusals.create,
          401: signedOut,
          403: csrf,
          404: webhookRefusals.notFound,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const targetId = request.body?.target_id ?? '';
        if (targetId && !(await ownsSite(deps, request, reply, targetId))) return;
        const made = await unary(webhooks, 'createWebhook', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          url: request.body?.url ?? '',
          targetId,
        });
        return reply.code(201).send(withSecret(made));
      }),
  );

  api.post(
    '/api/webhooks/rotate',
    {
      schema: {
        summary: 'A new signing secret, answered this once; the old one signs nothing more',
        security,
        body: webhookIdBody,
        response: { 200: webhookWithSecret, 401: signedOut, 403: csrf, 404: webhookRefusals.notFound },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const made = await unary(webhooks, 'rotateWebhookSecret', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          webhookId: request.body?.id ?? '',
        });
        return reply.send(withSecret(made));
      }),
  );

  api.post(
    '/api/webhooks/test',
    {
      schema: {
        summary: 'Posts a signed test delivery now; answers the receiver’s status and the start of its body',
        security,
        body: webhookIdBody,
        response: { 200: webhookTestResult, 401: signedOut, 403: csrf, 404: webhookRefusals.notFound },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(webhooks, 'testWebhook', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          webhookId: request.body?.id ?? '',
        });
        const outcome =
          answer.outcome === 'answered' || answer.outcome === 'refused' ? answer.outcome : 'unreachable';
        return reply.send({
          outcome,
          status: answer.status,
          body_excerpt: answer.bodyExcerpt,
          reason: answer.reason,
        });
      }),
  );

  api.post(
    '/api/webhooks/delete',
    {
      schema: {
        summary: 'Delete a webhook; updates already on their way to it may still arrive',
        security,
        body: webhookIdBody,
        response: { 200: webhookDeleted, 401: signedOut, 403: csrf, 404: webhookRefusals.notFound },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(webhooks, 'deleteWebhook', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          webhookId: request.body?.id ?? '',
        });
        return reply.send({ status: 'deleted' as const });
      }),
  );
}

/** Whether the site is the caller's; answers 401 or 404 itself when not. */
export async function ownsSite(
  deps: { account: accountV1.AccountServiceClient; target?: targetV1.TargetServiceClient | undefined },
  request: Parameters<typeof sessionCaller>[1],
  reply: FastifyReply,
  targetId: string,
): Promise<boolean> {
  const session = await sessionCaller(deps.account, request, reply);
  if (!session) return false;
  if (!deps.target) {
    sendApiError(reply, 404, 'not_found');
    return false;
  }
  try {
    await unary(deps.target, 'getTarget', { caller: session.caller, targetId });
    return true;
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code === grpcStatus.NOT_FOUND || code === grpcStatus.INVALID_ARGUMENT) {
      sendApiError(reply, 404, 'not_found');
      return false;
    }
    throw error;
  }
}

function toWebhookJson(webhook: webhookV1.Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    target_id: webhook.targetId,
    created_at: (webhook.createdAt ?? new Date(0)).toISOString(),
    secret_rotated_at: (webhook.secretRotatedAt ?? new Date(0)).toISOString(),
  };
}

function withSecret(made: { webhook?: webhookV1.Webhook | undefined; secret: string }) {
  if (!made.webhook) throw new Error('the account service answered no webhook');
  return { webhook: toWebhookJson(made.webhook), secret: made.secret };
}
