import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';

// Signed webhooks (docs/webhooks.md, docs/product.md#webhooks): the account's URLs that receive
// each update as signed JSON, account-wide or for one site.

const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();
const text = (description: string) => z.string().nullish().describe(description);

export const webhookCreateBody = body({
  url: text('http(s) URL on a public address; no user:password'),
  target_id: text('The site it is for; empty or left out for every site of the account'),
});
export const webhookIdBody = body({ id: text('The webhook id') });

export const webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    target_id: z.string().describe('Empty for account-wide (every site).'),
    created_at: z.iso.datetime(),
    secret_rotated_at: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhook>;

export const webhookList = z
  .object({
    webhooks: z.array(webhook),
    try_url: z
      .string()
      .nullable()
      .describe(
        'The single-process product’s own test receiver (its /dev/webhooks page shows each delivery with its signature checked), when it listens on this machine only; null elsewhere.',
      ),
  })
  .describe('The account’s webhooks, oldest first');
export type WebhookList = z.infer<typeof webhookList>;

export const webhookWithSecret = z
  .object({
    webhook,
    secret: z.string().describe('The signing secret (whsec_…), answered this once: it is never shown again.'),
  })
  .describe('The webhook and its new signing secret');
export type WebhookWithSecret = z.infer<typeof webhookWithSecret>;

export const webhookTestResult = z
  .object({
    outcome: z.enum(['answered', 'refused', 'unreachable']).describe('refused: the address is not public'),
    status: z.number().int().describe('The receiver’s HTTP status; 0 without an answer.'),
    body_excerpt: z.string().describe('The first 500 characters of the receiver’s answer.'),
    reason: z.string().describe('Why it was refused or unreachable.'),
  })
  .describe('What the receiver answered to a signed test delivery');
export type WebhookTestResult = z.infer<typeof webhookTestResult>;

export const webhookDeleted = z.object({ status: z.literal('deleted') }).describe('Deleted');

export const webhookRefusals = {
  signedOut,
  csrf: csrfFailed,
  create: refusal('Refused (…_forbidden = not a public address, …_unreachable = its name does not resolve)', [
    'invalid_webhook_url',
    'webhook_address_forbidden',
    'webhook_address_unreachable',
    'webhook_quota_exceeded',
  ]),
  notFound: refusal('Not this account’s', ['webhook_not_found', 'not_found']),
};
