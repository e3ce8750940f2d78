import { z } from 'zod';
import { csrfFailed, refusal, signedOut, statusAnswer } from './api-error.ts';
import { editRevision, savedRevision } from './edit-conflict.ts';

// The account service checks every value and names what it refuses (password_too_short, …);
// here a field of the wrong type is a bad_request, and a missing one reads as empty.
const text = (description?: string) => {
  const field = z.string().nullish();
  return description ? field.describe(description) : field;
};
const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();

const emailProblems = ['invalid_email', 'email_confusable'];
const passwordProblems = ['password_too_short', 'password_too_long', 'invalid_password'];
const profileProblems = [
  'invalid_name',
  'name_too_long',
  'invalid_lang',
  'invalid_timezone',
  'invalid_currency',
  'currency_fixed',
];

export const signUpBody = body({
  email: text('E-mail address'),
  password: text('At least 8 half-width alphanumerics and symbols'),
  agree: z.boolean().nullish().describe('Agreement to the terms'),
  lang: text('ja or en'),
  timezone: text('Etc/GMT zone from the browser offset, optional'),
  plan: z.number().int().nullish().describe('Plan the trial covers (3 to 11); Basic 5 (3) when left out'),
});
export const signInBody = body({ email: text(), password: text() });
export const verifyBody = body({ token: text('The token of the /verify?token= link') });
export const resetRequestBody = body({ email: text(), lang: text('ja or en') });
export const resetBody = body({ token: text(), password: text() });
export const accountUpdateBody = body({
  user_id: text('When sent, must be the signed-in user'),
  name: text(),
  lang: text('ja or en'),
  timezone: text('IANA zone, e.g. Asia/Tokyo or Etc/GMT-9'),
  currency: text('JPY or USD'),
  revision: editRevision,
});
/** The profile fields the account screen saves; the user is the session's. */
export type AccountUpdate = Omit<NonNullable<z.input<typeof accountUpdateBody>>, 'user_id'>;
export const emailBody = body({ email: text() });
export const passwordBody = body({ current_password: text(), new_password: text() });
export const mailIdBody = body({ mail_id: text() });
export const discordBody = body({ webhook_url: text('https://discord.com/api/webhooks/<id>/<token>') });
export const supportBody = body({
  type: text('navigation, login_action, area, notification or other'),
  notes: text('At most 2,000 characters'),
});
/** What X sends the browser back with. */
export const xCallbackQuery = z.object({ code: z.string().optional(), state: z.string().optional() });
export const followUpQuery = z.object({ token: z.string().optional() });
export const followUpBody = body({ token: text(), notes: text() });

export const discordState = z.enum(['not_set', 'linking', 'complete', 'not_complete']);
export type DiscordState = z.infer<typeof discordState>;

export const additionalMail = z.object({
  id: z.string(),
  index: z.number().int(),
  email: z.string(),
  verified: z.boolean().describe('Used for notifications only once verified.'),
});
export type AdditionalMail = z.infer<typeof additionalMail>;

/** The account screen's data, snake_case like the rest of the API. */
export const accountSettings = z
  .object({
    user_id: z.string(),
    name: z.string(),
    email: z.string().describe('Empty for an X user who gave none.'),
    email_verified: z.boolean(),
    mails: z.array(additionalMail),
    lang: z.string().describe('ja or en'),
    timezone: z.string(),
    currency: z.string().describe('JPY or USD'),
    has_password: z.boolean(),
    x_linked: z.boolean(),
    discord_state: discordState,
    plan: z.number().int(),
    cycle: z.string().describe('month or year'),
    subscription_status: z
      .number()
      .int()
      .describe('1 trial, 2 active, 6 renewal failed, 7 on hold, 9 cancelled'),
    trial_ends_at: z.iso.datetime().nullable(),
    delete_at: z.iso.datetime().nullable(),
    revision: savedRevision.describe('Of the fields /api/account/update saves'),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettings = z.infer<typeof accountSettings>;

export const supportRequestCreated = z.object({ request_id: z.string() }).describe('Recorded');
export const supportFollowUp = z.object({ type: z.string(), notes: z.string() }).describe('The request');
export type SupportFollowUp = z.infer<typeof supportFollowUp>;

export const accountAnswers = {
  verificationSent: statusAnswer('verification_sent'),
  signedIn: statusAnswer('signed_in'),
  signedOut: statusAnswer('signed_out'),
  verified: z
    .object({ status: z.string().describe('verified or already_verified') })
    .describe('Verified now or earlier'),
  resetRequested: statusAnswer('reset_requested'),
  passwordReset: statusAnswer('password_reset'),
  passwordChanged: statusAnswer('password_changed'),
  followUpReceived: statusAnswer('follow_up_received'),
};

/** The account routes' error answers, each naming the codes it may carry. */
export const accountRefusals = {
  signedOut,
  csrf: csrfFailed,
  signUp: refusal('Refused', [
    ...emailProblems,
    ...passwordProblems,
    'terms_not_agreed',
    'invalid_timezone',
    'invalid_plan',
    'bad_request',
  ]),
  credentials: refusal('E-mail or password do not match', ['credentials_mismatch']),
  notVerified: refusal('Address not verified yet', ['email_not_verified']),
  throttled: refusal('Too many failed attempts; try later', ['too_many_attempts']),
  verificationLink: refusal('The verification URL may be invalid', ['verification_link_invalid']),
  password: refusal('Refused', passwordProblems),
  resetLink: refusal('URL invalid or expired', ['reset_link_invalid']),
  update: refusal('Refused, nothing changed', [...profileProblems, 'no_changes', 'bad_request']),
  forbidden: refusal('Another user’s id, or CSRF', ['forbidden', 'csrf_failed']),
  email: refusal('Refused', [...emailProblems, 'no_changes']),
  passwordChange: refusal('Refused', ['current_password_mismatch', 'no_changes', ...passwordProblems]),
  mailAdd: refusal('Refused', emailProblems),
  mailConflict: refusal('Refused', ['mail_already_added', 'mail_quota_exceeded']),
  mailNotFound: refusal('Not this account’s', ['mail_not_found']),
  discord: refusal('Not a Discord webhook URL', ['invalid_discord_webhook']),
  support: refusal('Refused', ['invalid_support_type', 'notes_too_long', 'invalid_notes']),
  supportLink: refusal('The link expired', ['support_link_expired']),
};
