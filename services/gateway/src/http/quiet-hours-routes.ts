import type { accountV1, targetsEventsV1 } from '@mimamori/contracts';
import {
  accountQuietHours,
  editConflict,
  type QuietHoursJson,
  quietHoursBody,
  quietHoursRefusals,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountWork } from './auth-routes.ts';
import { changedFields, isEditConflict, sendEditConflict } from './edit-conflict.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, csrf } = quietHoursRefusals;
const security = [{ session: [] }];

/**
 * The account's quiet hours (docs/product.md#quiet-hours): read and replace. The account service
 * acts for the session's user only and refuses malformed times and days.
 */
export function quietHoursRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { account } = deps;

  api.get(
    '/api/v2/quiet-hours',
    {
      schema: {
        summary: 'The account’s quiet hours; none set reads as an empty window and no days',
        security,
        response: { 200: accountQuietHours, 401: signedOut },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(account, 'getQuietHours', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        });
        return reply.send({ ...quietHoursJson(answer.quietHours), revision: answer.revision });
      }),
  );

  api.post(
    '/api/v2/quiet-hours',
    {
      schema: {
        summary:
          'Replace the account’s quiet hours; updates found inside them go out as one digest at their end',
        security,
        body: quietHoursBody,
        response: {
          200: accountQuietHours,
          400: quietHoursRefusals.save,
          401: signedOut,
          403: csrf,
          409: editConflict,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const body = request.body;
        const sessionToken = request.cookies[SESSION_COOKIE] ?? '';
        const quiet = {
          from: body?.from ?? '',
          until: body?.until ?? '',
          allDay: body?.all_day ?? [],
          holidays: body?.holidays ?? false,
          alertsBreakThrough: body?.alerts_break_through ?? true,
        };
        try {
          const answer = await unary(account, 'setQuietHours', {
            sessionToken,
            quietHours: quiet,
            expectedRevision: body?.revision ?? undefined,
          });
          return reply.send({ ...quietHoursJson(answer.quietHours), revision: answer.revision });
        } catch (error) {
          if (!isEditConflict(error)) throw error;
          const now = await unary(account, 'getQuietHours', { sessionToken });
          return sendEditConflict(
            reply,
            now.revision,
            changedFields(quietHoursJson(quiet), quietHoursJson(now.quietHours)),
          );
        }
      }),
  );
}

function quietHoursJson(quiet: targetsEventsV1.QuietHours | undefined): QuietHoursJson {
  return {
    from: quiet?.from ?? '',
    until: quiet?.until ?? '',
    all_day: quiet?.allDay ?? [],
    holidays: quiet?.holidays ?? false,
    alerts_break_through: quiet?.alertsBreakThrough ?? true,
  };
}
