import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1, billingV1 } from '@mimamori/contracts';
import {
  billingRefusals,
  billingState,
  cancelBody,
  cardBody,
  planCatalogue,
  planChangeBody,
  planChangePreview,
  planPreviewBody,
  projectRequestAnswer,
  projectRequestBody,
  reprocessAnswer,
  setupIntent,
  webhookAnswer,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendAccountFailure } from './account-failure.ts';
import { answer } from './answer.ts';
import { sendApiError } from './api-error.ts';
import { cardFormFor, toBillingJson, toPlanCatalogue } from './billing-json.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, csrf, off, state } = billingRefusals;
const security = [{ session: [] }];
const billing = billingState.describe('The account’s billing');
/** Answers every billing route may give besides its own. */
const common = { 401: signedOut, 403: csrf, 409: state, 503: off };

/** The Project plan is for 1,000 sites or more (docs/product.md#plans). */
const PROJECT_MIN_SITES = 1000;

export interface BillingRouteDeps {
  account: accountV1.AccountServiceClient;
  billing: billingV1.BillingServiceClient;
  /** Stripe's publishable key for the Payment Element; the test card form without it. */
  stripePublishableKey?: string | undefined;
}

/**
 * Billing (docs/billing.md): each call acts on the session's own account, which the account service
 * resolves from the session token. Without Stripe keys the account service refuses billing_off,
 * answered 503; the plan catalogue is answered either way.
 */
export function billingRoutes(app: FastifyInstance, deps: BillingRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const client = deps.billing;
  const form = cardFormFor(deps.stripePublishableKey);
  const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';
  const work = (request: FastifyRequest, reply: FastifyReply, run: () => Promise<unknown>) =>
    answer(request, reply, `${request.method} ${request.routeOptions.url}`, run, sendBillingFailure);
  const signedIn = (request: FastifyRequest, reply: FastifyReply) => {
    if (session(request)) return true;
    sendApiError(reply, 401, 'unauthenticated');
    return false;
  };

  api.get(
    '/api/plans',
    {
      schema: {
        summary: 'The plans and custom-plan add-ons with their monthly and yearly JPY and USD prices',
        response: { 200: planCatalogue.describe('The catalogue') },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        const { prices } = await unary(client, 'listPrices', {});
        return reply.send(toPlanCatalogue(prices));
      }),
  );

  api.get(
    '/api/billing',
    { schema: { summary: 'The account’s billing', security, response: { 200: billing, ...common } } },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const response = await unary(client, 'getBilling', { sessionToken: session(request) });
        return reply.send(toBillingJson(response.billing, form));
      }),
  );

  api.post(
    '/api/billing/setup_intent',
    {
      schema: {
        summary: 'A SetupIntent for the card form (new card or card update)',
        security,
        response: { 200: setupIntent, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const intent = await unary(client, 'createSetupIntent', { sessionToken: session(request) });
        return reply.send({ setup_intent_id: intent.setupIntentId, client_secret: intent.clientSecret });
      }),
  );

  api.post(
    '/api/billing/card',
    {
      schema: {
        summary:
          'After the card form confirmed the SetupIntent: the card becomes the default, a paused subscription resumes, unpaid invoices are paid again (lifting status 6 or 7). With test_card, the test form confirms it first.',
        security,
        body: cardBody,
        response: { 200: billing, 400: billingRefusals.card, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const setupIntentId = request.body?.setup_intent_id ?? '';
        const testCard = request.body?.test_card;
        const response = testCard
          ? await unary(client, 'confirmTestCard', {
              sessionToken: session(request),
              setupIntentId,
              testCard,
            })
          : await unary(client, 'confirmCard', { sessionToken: session(request), setupIntentId });
        return reply.send(toBillingJson(response.billing, form));
      }),
  );

  api.post(
    '/api/billing/plan',
    {
      schema: {
        summary:
          'Change plan: now (prorated) or booked for the next renewal; during the trial always now. Refused renew_first in status 6 or 7.',
        security,
        body: planChangeBody,
        response: { 200: billing, 400: billingRefusals.plan, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const body = request.body;
        const response = await unary(client, 'changePlan', {
          sessionToken: session(request),
          plan: { plan: body?.plan ?? 0, cycle: body?.cycle ?? '', options: body?.options ?? [] },
          timing: body?.timing ?? '',
          prorationDate: body?.proration_date ?? 0,
        });
        return reply.send(toBillingJson(response.billing, form));
      }),
  );

  api.post(
    '/api/billing/plan/preview',
    {
      schema: {
        summary:
          'What changing to this plan now would charge (the provider’s proration), shown before the change is confirmed; changes nothing',
        security,
        body: planPreviewBody,
        response: { 200: planChangePreview, 400: billingRefusals.plan, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const body = request.body;
        const preview = await unary(client, 'previewPlanChange', {
          sessionToken: session(request),
          plan: { plan: body?.plan ?? 0, cycle: body?.cycle ?? '', options: body?.options ?? [] },
        });
        return reply.send({
          amount_now: Number(preview.amountNow),
          currency: preview.currency,
          trial: preview.trial,
          period_end: preview.periodEnd?.toISOString() ?? null,
          proration_date: Number(preview.prorationDate),
        });
      }),
  );

  api.post(
    '/api/billing/plan/booked/cancel',
    {
      schema: {
        summary: 'Drop the change booked for the next renewal',
        security,
        response: { 200: billing, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const response = await unary(client, 'cancelBookedChange', { sessionToken: session(request) });
        return reply.send(toBillingJson(response.billing, form));
      }),
  );

  api.post(
    '/api/billing/cancel',
    {
      schema: {
        summary:
          'Unsubscribe with the questionnaire: service continues to the period end, undo possible until then',
        security,
        body: cancelBody,
        response: { 200: billing, 400: billingRefusals.cancel, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const response = await unary(client, 'cancel', {
          sessionToken: session(request),
          reasons: request.body?.reasons ?? [],
          comment: request.body?.comment ?? '',
        });
        return reply.send(toBillingJson(response.billing, form));
      }),
  );

  api.post(
    '/api/billing/cancel/undo',
    {
      schema: { summary: 'Undo the unsubscription', security, response: { 200: billing, ...common } },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const response = await unary(client, 'undoCancel', { sessionToken: session(request) });
        return reply.send(toBillingJson(response.billing, form));
      }),
  );

  api.post(
    '/api/billing/reprocess',
    {
      schema: {
        summary: 'Pay the open invoice again with the card on file (status 6 or 7)',
        security,
        response: { 200: reprocessAnswer, ...common },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        const response = await unary(client, 'reprocess', { sessionToken: session(request) });
        return reply.send({ paid: response.paid, billing: toBillingJson(response.billing, form) });
      }),
  );

  api.post(
    '/api/billing/project_request',
    {
      schema: {
        summary: 'Ask for the Project plan (1,000 sites or more): recorded as a support request',
        security,
        body: projectRequestBody,
        response: { 201: projectRequestAnswer, 400: billingRefusals.project, 401: signedOut, 403: csrf },
      },
    },
    (request, reply) =>
      work(request, reply, async () => {
        if (!signedIn(request, reply)) return;
        // A signed-out or deleted account hears 401 before its request is judged.
        const { userInfo } = await unary(deps.account, 'getUserInfo', { sessionToken: session(request) });
        if (!userInfo?.userId || userInfo.deletedUser) return sendApiError(reply, 401, 'unauthenticated');
        const sites = request.body?.sites ?? 0;
        if (!Number.isInteger(sites) || sites < PROJECT_MIN_SITES || sites > 1_000_000)
          return sendApiError(reply, 400, 'invalid_sites');
        const { requestId } = await unary(deps.account, 'createSupportRequest', {
          sessionToken: session(request),
          type: 'other',
          notes: `Project plan: ${sites} sites\n${request.body?.notes ?? ''}`.trimEnd(),
        });
        return reply.code(201).send({ request_id: requestId });
      }),
  );

  // Stripe posts here: no session and no CSRF token; the signature over the raw body authorises it.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/stripe/webhook',
      {
        config: { otherSiteMayPost: true },
        schema: {
          summary:
            'Stripe’s webhook: verified on the raw body (forged or stale refused), applied once per event id',
          response: { 200: webhookAnswer, 400: billingRefusals.webhook, 503: off },
        },
      },
      (request, reply) =>
        work(request, reply, async () => {
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const signature = request.headers['stripe-signature'];
          const { outcome } = await unary(client, 'handleStripeWebhook', {
            rawBody: body,
            signature: typeof signature === 'string' ? signature : '',
          });
          return reply.send({ outcome });
        }),
    );
  });
}

/** billing_off (and an account service without billing at all) is 503; the rest as the account routes. */
function sendBillingFailure(reply: FastifyReply, error: unknown) {
  const { code, details } = error as { code?: number; details?: string };
  if (
    code === grpcStatus.UNIMPLEMENTED ||
    (code === grpcStatus.FAILED_PRECONDITION && details === 'billing_off')
  )
    return sendApiError(reply, 503, 'billing_off');
  return sendAccountFailure(reply, error);
}
