import { z } from 'zod';

/**
 * Every API error has one shape: a stable machine code and the key of the message the SPA shows
 * (the messages of docs/product.md#check-errors live in the SPA's catalogues). A refused setting names its field, and
 * the watch engine's reason when it gave one.
 */
export const apiError = z.object({
  error: z.object({
    code: z.string().describe('Stable machine code, e.g. unauthenticated, csrf_failed.'),
    message_key: z.string().describe('Key of the message the SPA shows, e.g. errors.unauthenticated.'),
    field: z.string().optional().describe('The field refused, e.g. areas.0.options.'),
    reason: z
      .string()
      .optional()
      .describe("The watch engine's reason (unsupported_lookaround, unknown_area, …) or the selector type."),
  }),
});

export type ApiError = z.infer<typeof apiError>;

/**
 * An error answer and the codes it may carry. The description reads `<what>: code, code`, which
 * the OpenAPI document shows and the e2e tests read to check every code has a message.
 */
export function refusal(description: string, codes: readonly string[]) {
  return apiError.describe(`${description}: ${codes.join(', ')}`);
}

export const signedOut = refusal('Signed out', ['unauthenticated']);
export const csrfFailed = refusal('CSRF header missing or wrong', ['csrf_failed']);

/** An answer that only says what was done, e.g. `{"status": "signed_in"}`. */
export function statusAnswer<const Status extends string>(status: Status) {
  return z.object({ status: z.literal(status) }).describe(`Done: ${status}`);
}
