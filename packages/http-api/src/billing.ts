import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';
import { quotaCounts } from './user-info.ts';

// Billing on Stripe (docs/billing.md). The account service checks every value and names what it
// refuses; here a field of the wrong type is a bad_request, and a missing one reads as empty.
const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();

/** One price per currency in the currency's smallest unit: whole yen, US cents (docs/product.md#prices). */
export const currencyPrices = z.object({ JPY: z.number().int(), USD: z.number().int() });

export const planCatalogueEntry = z.object({
  plan: z.number().int().describe('2 custom, 3 Basic 5, 4 Basic 5 1-minute, 5 Basic 25, 6..10, 11 Advanced'),
  name_key: z.string().describe('Catalogue key of the plan name in the SPA, e.g. plans.basic5'),
  sites: z.number().int(),
  num: quotaCounts.describe('The limits the plan gives (the custom plan: its base, before add-ons)'),
  prices: z
    .object({ month: currencyPrices, year: currencyPrices })
    .nullable()
    .describe('Null when no price is configured: the plan is not sold'),
});
export type PlanCatalogueEntry = z.infer<typeof planCatalogueEntry>;

export const addonCatalogueEntry = z.object({
  addon: z.string().describe('sites_5, 10min, 1min, ss, mail or line'),
  prices: z.object({ month: currencyPrices, year: currencyPrices }).nullable(),
});

/** GET /api/plans: the sold plans and custom-plan add-ons with their prices, the same for everyone. */
export const planCatalogue = z
  .object({
    plans: z.array(planCatalogueEntry),
    addons: z.array(addonCatalogueEntry),
  })
  .meta({ id: 'PlanCatalogue' });
export type PlanCatalogue = z.infer<typeof planCatalogue>;

export const planChoice = z.object({
  plan: z.number().int(),
  cycle: z.string().describe('month or year'),
  options: z
    .array(z.string())
    .describe('Custom-plan add-ons: sites:<units of 5>, 10min, 1min, ss, mail:<count>, line'),
});
export type PlanChoice = z.infer<typeof planChoice>;

/** Only what Stripe returns for display; never the number. */
export const cardOnFile = z.object({
  brand: z.string().describe('visa, mastercard, …'),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type CardOnFile = z.infer<typeof cardOnFile>;

export const TEST_CARDS = ['pm_card_visa', 'pm_card_mastercard', 'pm_card_chargeCustomerFail'] as const;
export type TestCard = (typeof TEST_CARDS)[number];

/**
 * How the browser registers a card: Stripe's Payment Element with the publishable key, or, where
 * there is none (the local stand-in, tests), the clearly marked test form offering Stripe's test cards.
 */
export const cardForm = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('payment_element'), publishable_key: z.string() }),
  z.object({
    kind: z.literal('test_cards'),
    cards: z
      .array(z.enum(TEST_CARDS))
      .describe(
        'pm_card_visa (4242), pm_card_mastercard (4444), pm_card_chargeCustomerFail (attaches, declines)',
      ),
  }),
]);
export type CardForm = z.infer<typeof cardForm>;

/** GET /api/billing: the account's billing as the product records it (never a webhook's copy). */
export const billingState = z
  .object({
    status: z.number().int().describe('1 trial, 2 active, 6 renewal failed, 7 on hold, 9 ended'),
    suspend_at: z.iso
      .datetime()
      .nullable()
      .describe('Status 1: the trial ends; status 6: the account is held unless paid'),
    currency: z.string().describe('JPY or USD, fixed at signup'),
    plan: planChoice,
    booked: planChoice.nullable().describe('A change booked for the next renewal'),
    cancel_at_period_end: z.boolean(),
    period_end: z.iso.datetime().nullable(),
    has_pi: z.boolean().describe('A card is on file'),
    card: cardOnFile.nullable(),
    card_form: cardForm,
    at: z.iso
      .datetime()
      .describe('Billing’s clock when this was read: days left are counted from it, not the browser’s clock'),
  })
  .meta({ id: 'BillingState' });
export type BillingState = z.infer<typeof billingState>;

export const setupIntent = z
  .object({
    setup_intent_id: z.string(),
    client_secret: z.string().describe("For the Payment Element's confirmSetup"),
  })
  .describe('A SetupIntent for the card form');
export type SetupIntent = z.infer<typeof setupIntent>;

export const cardBody = body({
  setup_intent_id: z.string().nullish().describe('The SetupIntent the browser confirmed'),
  test_card: z
    .string()
    .nullish()
    .describe('Test form only (card_form test_cards): one of its cards; refused with a live key'),
});
export type CardBody = NonNullable<z.input<typeof cardBody>>;

export const planChangeBody = body({
  plan: z.number().int().nullish().describe('2..11'),
  cycle: z.string().nullish().describe('month or year'),
  options: z.array(z.string()).nullish().describe('Custom plan (2) only'),
  timing: z
    .string()
    .nullish()
    .describe('now (prorated) or renewal (booked for the next renewal); during the trial always now'),
  proration_date: z
    .number()
    .int()
    .nullish()
    .describe('From POST /api/billing/plan/preview: a change now charges what the preview showed'),
});
export type PlanChangeBody = NonNullable<z.input<typeof planChangeBody>>;

/** The plan a change would move to, asked before it is confirmed. */
export const planPreviewBody = body({
  plan: z.number().int().nullish().describe('2..11'),
  cycle: z.string().nullish().describe('month or year'),
  options: z.array(z.string()).nullish().describe('Custom plan (2) only'),
});
export type PlanPreviewBody = NonNullable<z.input<typeof planPreviewBody>>;

/** POST /api/billing/plan/preview: what changing now would charge, before the user confirms it. */
export const planChangePreview = z
  .object({
    amount_now: z
      .number()
      .int()
      .describe(
        'Charged at once if changed now, whole yen or US cents; negative: a credit the next invoices use up; 0 during the trial',
      ),
    currency: z.string().describe('JPY or USD'),
    trial: z.boolean().describe('During the trial: nothing is charged and the trial goes on'),
    period_end: z.iso
      .datetime()
      .nullable()
      .describe('When the period ends after a change now (a new cycle restarts it today)'),
    proration_date: z
      .number()
      .int()
      .describe(
        'Unix seconds the amount is computed for; send it with the change to be charged exactly this',
      ),
  })
  .meta({ id: 'PlanChangePreview' });
export type PlanChangePreview = z.infer<typeof planChangePreview>;

export const CANCELLATION_REASONS = [
  'site_not_supported',
  'no_longer_needed',
  'hard_to_use',
  'too_expensive',
  'switching_service',
  'other',
] as const;

export const cancelBody = body({
  reasons: z
    .array(z.string())
    .nullish()
    .describe(`At least one of ${CANCELLATION_REASONS.join(', ')}`),
  comment: z.string().nullish().describe('Free comment, at most 2,000 characters'),
});
export type CancelBody = NonNullable<z.input<typeof cancelBody>>;

/** The Project plan (1,000 sites or more) is agreed per deal: the request goes to support. */
export const projectRequestBody = body({
  sites: z.number().int().nullish().describe('How many sites, 1,000 or more'),
  notes: z.string().nullish().describe('At most 2,000 characters'),
});
export type ProjectRequestBody = NonNullable<z.input<typeof projectRequestBody>>;
export const projectRequestAnswer = z.object({ request_id: z.string() }).describe('Recorded');

export const reprocessAnswer = z
  .object({ paid: z.boolean().describe('False when the card was declined again'), billing: billingState })
  .describe('Payment tried again');
export type ReprocessAnswer = z.infer<typeof reprocessAnswer>;

export const webhookAnswer = z
  .object({ outcome: z.string().describe('applied, duplicate or ignored') })
  .describe('Received');

const planProblems = ['invalid_plan', 'invalid_options', 'invalid_timing'];

/** The billing routes' error answers, each naming the codes it may carry. */
export const billingRefusals = {
  signedOut,
  csrf: csrfFailed,
  off: refusal('Billing is not configured on this installation', ['billing_off']),
  state: refusal('Not possible in this state', [
    'renew_first',
    'not_cancelling',
    'period_over',
    'no_card',
    'nothing_to_pay',
    'nothing_booked',
    'plan_not_sold',
    'live_mode',
    'card_declined',
  ]),
  card: refusal('Refused', ['invalid_setup_intent', 'invalid_test_card', 'bad_request']),
  plan: refusal('Refused', [...planProblems, 'bad_request']),
  cancel: refusal('Refused', [
    'cancellation_reason_required',
    'invalid_cancellation_reason',
    'notes_too_long',
    'invalid_notes',
    'bad_request',
  ]),
  project: refusal('Refused', ['invalid_sites', 'notes_too_long', 'invalid_notes', 'bad_request']),
  webhook: refusal('Refused: forged, stale or malformed', ['signature', 'stale', 'malformed']),
};
