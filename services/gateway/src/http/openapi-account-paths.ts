/** OpenAPI paths of the account routes (sign-up, sign-in, reset, settings, support, X sign-in). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

function body(properties: Record<string, unknown>, required: string[] = []) {
  return { required: true, ...json({ type: 'object', properties, required }) };
}

const text = (description: string) => ({ type: 'string', description });

/** An error response naming the codes it may carry (error.code; message key errors.<code>). */
function failure(description: string, codes: string[]) {
  return { description: `${description}: ${codes.join(', ')}`, ...json(ref('ApiError')) };
}

const status = (value: string) => json({ type: 'object', properties: { status: { const: value } } });
const session = [{ session: [] }];
const settings = { description: 'The account', ...json(ref('AccountSettings')) };
const signedOut = failure('Signed out', ['unauthenticated']);
const csrf = failure('CSRF header missing or wrong', ['csrf_failed']);

export const accountSettingsSchema = {
  type: 'object',
  properties: {
    user_id: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string', description: 'Empty for an X user who gave none.' },
    email_verified: { type: 'boolean' },
    mails: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          index: { type: 'integer' },
          email: { type: 'string' },
          verified: { type: 'boolean', description: 'Used for notifications only once verified.' },
        },
      },
    },
    lang: { enum: ['ja', 'en'] },
    timezone: { type: 'string' },
    currency: { enum: ['JPY', 'USD'] },
    has_password: { type: 'boolean' },
    x_linked: { type: 'boolean' },
    discord_state: { enum: ['not_set', 'linking', 'complete', 'not_complete'] },
    plan: { type: 'integer', minimum: 0, maximum: 11 },
    cycle: { enum: ['month', 'year'] },
    subscription_status: {
      type: 'integer',
      description: '1 trial, 2 active, 6 renewal failed, 7 on hold, 9 cancelled',
    },
    trial_ends_at: { type: ['string', 'null'], format: 'date-time' },
    delete_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

const emailProblems = ['invalid_email', 'email_confusable'];
const passwordProblems = ['password_too_short', 'password_too_long', 'invalid_password'];
const profileProblems = [
  'invalid_name',
  'name_too_long',
  'invalid_lang',
  'invalid_timezone',
  'invalid_currency',
];

export const accountPaths = {
  '/api/signup': {
    post: {
      summary:
        'Sign up with a 14-day trial; mails a verification link. Same answer for a registered address.',
      requestBody: body(
        {
          email: text('E-mail address'),
          password: text('At least 8 half-width alphanumerics and symbols'),
          agree: { type: 'boolean', description: 'Agreement to the terms' },
          lang: { enum: ['ja', 'en'] },
          timezone: text('Etc/GMT zone from the browser offset, optional'),
          plan: {
            type: 'integer',
            minimum: 3,
            maximum: 11,
            description: 'Plan the trial covers; Basic 5 (3) when left out',
          },
        },
        ['email', 'password', 'agree'],
      ),
      responses: {
        '202': { description: 'Verification mail sent', ...status('verification_sent') },
        '400': failure('Refused', [
          ...emailProblems,
          ...passwordProblems,
          'terms_not_agreed',
          'invalid_timezone',
          'invalid_plan',
          'bad_request',
        ]),
        '403': csrf,
      },
    },
  },
  '/api/signin': {
    post: {
      summary:
        'Sign in; sets a new httpOnly session cookie (the previous one ends). Throttled per account and address.',
      requestBody: body({ email: { type: 'string' }, password: { type: 'string' } }, ['email', 'password']),
      responses: {
        '200': { description: 'Signed in (Set-Cookie mimamori_session)', ...status('signed_in') },
        '401': failure('E-mail or password do not match', ['credentials_mismatch']),
        '409': failure('Address not verified yet', ['email_not_verified']),
        '429': failure('Too many failed attempts; try later', ['too_many_attempts']),
        '403': csrf,
      },
    },
  },
  '/api/signout': {
    get: {
      summary: 'Sign out: ends the session and clears its cookie',
      responses: { '200': { description: 'Signed out', ...status('signed_out') } },
    },
  },
  '/api/signin/x': {
    get: {
      summary: 'Sign in with X: redirects to the provider (OAuth 2.0 authorization code + PKCE)',
      responses: { '302': { description: 'To the provider, or to /signin?error=x_sign_in_failed' } },
    },
  },
  '/api/signin/x/callback': {
    get: {
      summary: 'The provider sends the browser back here; signs in (creating the account on first use)',
      parameters: [
        { name: 'code', in: 'query', schema: { type: 'string' } },
        { name: 'state', in: 'query', schema: { type: 'string' } },
      ],
      responses: { '302': { description: 'To / signed in, or to /signin?error=x_sign_in_failed' } },
    },
  },
  '/api/verify': {
    post: {
      summary: 'Consume a verification link (sign-up or additional address)',
      requestBody: body({ token: text('The token of the /verify?token= link') }, ['token']),
      responses: {
        '200': {
          description: 'Verified now or earlier',
          ...json({ type: 'object', properties: { status: { enum: ['verified', 'already_verified'] } } }),
        },
        '404': failure('The verification URL may be invalid', ['verification_link_invalid']),
        '403': csrf,
      },
    },
  },
  '/api/reset_pass/request': {
    post: {
      summary: 'Request a password reset link; same answer whether or not the address is registered',
      requestBody: body({ email: { type: 'string' }, lang: { enum: ['ja', 'en'] } }, ['email']),
      responses: { '202': { description: 'Requested', ...status('reset_requested') }, '403': csrf },
    },
  },
  '/api/reset_pass': {
    post: {
      summary: 'Set a new password with a reset link (single use, 1 hour); ends every session',
      requestBody: body({ token: { type: 'string' }, password: { type: 'string' } }, ['token', 'password']),
      responses: {
        '200': { description: 'Password set', ...status('password_reset') },
        '400': failure('Refused', passwordProblems),
        '404': failure('URL invalid or expired', ['reset_link_invalid']),
        '403': csrf,
      },
    },
  },
  '/api/account': {
    get: {
      summary: 'The account screen',
      security: session,
      responses: { '200': settings, '401': signedOut },
    },
  },
  '/api/account/update': {
    post: {
      summary: 'Save profile fields; only those sent change. user_id, when sent, must be the signed-in user',
      security: session,
      requestBody: body({
        user_id: { type: 'string' },
        name: { type: 'string', maxLength: 100 },
        lang: { enum: ['ja', 'en'] },
        timezone: text('IANA zone, e.g. Asia/Tokyo or Etc/GMT-9'),
        currency: { enum: ['JPY', 'USD'] },
      }),
      responses: {
        '200': settings,
        '400': failure('Refused, nothing changed', [...profileProblems, 'no_changes', 'bad_request']),
        '401': signedOut,
        '403': failure('Another user’s id, or CSRF', ['forbidden', 'csrf_failed']),
      },
    },
  },
  '/api/account/email': {
    post: {
      summary: 'Change the sign-in address: mails a link to the new one, which takes effect when opened',
      security: session,
      requestBody: body({ email: { type: 'string' } }, ['email']),
      responses: {
        '202': {
          description: 'Link sent; the account is unchanged until it is opened',
          ...json(ref('AccountSettings')),
        },
        '400': failure('Refused', [...emailProblems, 'no_changes']),
        '401': signedOut,
        '403': csrf,
      },
    },
  },
  '/api/account/password': {
    post: {
      summary:
        'Change the password (an X user without one sets it without current_password); other sessions end',
      security: session,
      requestBody: body({ current_password: { type: 'string' }, new_password: { type: 'string' } }, [
        'new_password',
      ]),
      responses: {
        '200': { description: 'Changed', ...status('password_changed') },
        '400': failure('Refused', ['current_password_mismatch', 'no_changes', ...passwordProblems]),
        '401': signedOut,
        '403': csrf,
      },
    },
  },
  '/api/account/mails': {
    post: {
      summary: 'Add an additional address; mails it a verification link, used once verified',
      security: session,
      requestBody: body({ email: { type: 'string' } }, ['email']),
      responses: {
        '201': settings,
        '400': failure('Refused', emailProblems),
        '409': failure('Refused', ['mail_already_added', 'mail_quota_exceeded']),
        '401': signedOut,
        '403': csrf,
      },
    },
  },
  '/api/account/mails/delete': {
    post: {
      summary: 'Remove one of the account’s additional addresses',
      security: session,
      requestBody: body({ mail_id: { type: 'string' } }, ['mail_id']),
      responses: {
        '200': settings,
        '404': failure('Not this account’s', ['mail_not_found']),
        '401': signedOut,
        '403': csrf,
      },
    },
  },
  '/api/account/discord': {
    post: {
      summary: 'Link a Discord webhook (https://discord.com/api/webhooks/<id>/<token>); sends a test message',
      security: session,
      requestBody: body({ webhook_url: { type: 'string' } }, ['webhook_url']),
      responses: {
        '200': {
          description: 'discord_state complete (test delivered) or not_complete',
          ...json(ref('AccountSettings')),
        },
        '400': failure('Not a Discord webhook URL', ['invalid_discord_webhook']),
        '401': signedOut,
        '403': csrf,
      },
    },
  },
  '/api/account/discord/delete': {
    post: {
      summary: 'Unlink Discord',
      security: session,
      responses: { '200': settings, '401': signedOut, '403': csrf },
    },
  },
  '/api/support': {
    post: {
      summary: 'Send a support request; mails a confirmation with a follow-up link (/req_support, 7 days)',
      security: session,
      requestBody: body(
        {
          type: { enum: ['navigation', 'login_action', 'area', 'notification', 'other'] },
          notes: { type: 'string', maxLength: 2000 },
        },
        ['type'],
      ),
      responses: {
        '201': {
          description: 'Recorded',
          ...json({ type: 'object', properties: { request_id: { type: 'string' } } }),
        },
        '400': failure('Refused', ['invalid_support_type', 'notes_too_long', 'invalid_notes']),
        '401': signedOut,
        '403': csrf,
      },
    },
  },
  '/api/req_support': {
    get: {
      summary: 'The support request behind a follow-up link',
      parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'The request',
          ...json({ type: 'object', properties: { type: {}, notes: {} } }),
        },
        '404': failure('The link expired', ['support_link_expired']),
      },
    },
    post: {
      summary: 'Add details through the follow-up link (once)',
      requestBody: body({ token: { type: 'string' }, notes: { type: 'string' } }, ['token', 'notes']),
      responses: {
        '200': { description: 'Received', ...status('follow_up_received') },
        '404': failure('The link expired', ['support_link_expired']),
        '403': csrf,
      },
    },
  },
  '/static/timezones.json': {
    get: {
      summary: 'Time zone choices',
      responses: {
        '200': {
          description: 'List of {o: offset hours, d: label, a: abbreviation, v: IANA zone}',
          ...json({
            type: 'array',
            items: {
              type: 'object',
              properties: {
                o: { type: 'number' },
                d: { type: 'string' },
                a: { type: 'string' },
                v: { type: 'string' },
              },
            },
          }),
        },
      },
    },
  },
} as const;
