import { z } from 'zod';
import { refusal, signedOut } from './api-error.ts';

// The user's own data (docs/product.md#your-data): all of it as one archive, and deleting the
// account. Both take the browser's session only; an API token is refused (403 session_required).

export const accountDeleteBody = z
  .object({
    password: z
      .string()
      .nullish()
      .describe('The account’s password; an account that signs in with X only has none'),
    confirmation: z.string().nullish().describe('The word the screen asks to type: 削除 or delete'),
  })
  .nullish();
export type AccountDeleteBody = NonNullable<z.input<typeof accountDeleteBody>>;

export const accountDeleted = z
  .object({ purge_at: z.iso.datetime().describe('When everything of the account is erased') })
  .meta({ id: 'AccountDeleted' });
export type AccountDeleted = z.infer<typeof accountDeleted>;

export const accountDataRefusals = {
  signedOut,
  sessionOnly: refusal('Only with the browser’s session, not with a token (or CSRF)', [
    'session_required',
    'csrf_failed',
  ]),
  delete: refusal('Refused', ['current_password_mismatch', 'confirmation_mismatch', 'bad_request']),
  slow: refusal('Too many tries, wait a little', ['rate_limited']),
};
