import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1, targetV1 } from '@mimamori/contracts';
import {
  editConflict,
  heldSitesResumed,
  importBody,
  importOutcome,
  patternCheck,
  patternCheckBody,
  savedTarget,
  siteDeleted,
  siteIdQuery,
  siteList,
  sitePaused,
  siteRefBody,
  siteRefusals,
  siteResumed,
  siteSeen,
  storedTarget,
  targetSettingsBody,
  targetUpdateBody,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import { validatePythonRegex } from '@mimamori/watch-engine';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { sendAccountFailure } from './account-failure.ts';
import { sendApiError } from './api-error.ts';
import { changedFields, isEditConflict, sendEditConflict } from './edit-conflict.ts';
import { requestShapeProblem, sendShapeProblem } from './request-shape.ts';
import { answerAsCaller } from './session-caller.ts';
import { importOutcomeJson, savedJson, settingsJson, settingsMessage, targetRowJson } from './target-json.ts';

export interface TargetRouteDeps {
  account: accountV1.AccountServiceClient;
  target: targetV1.TargetServiceClient;
}

const httpByGrpc: Partial<Record<number, number>> = {
  [grpcStatus.INVALID_ARGUMENT]: 400,
  [grpcStatus.NOT_FOUND]: 404,
  [grpcStatus.ABORTED]: 409,
  [grpcStatus.FAILED_PRECONDITION]: 409,
};

const { signedOut, notFound, busy, badRequest } = siteRefusals;

/**
 * Monitored sites: the dashboard's list and its pause/resume/delete (the product's
 * paths and payload names), the registration and edit of a v2 site, and the v1 bulk import. The session's
 * user and plan limits come from the account service; the target service acts for that user only.
 */
export function targetRoutes(app: FastifyInstance, deps: TargetRouteDeps) {
  const { target } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const asCaller = (
    request: FastifyRequest,
    reply: FastifyReply,
    work: (caller: targetV1.Caller) => Promise<unknown>,
  ) => answerAsCaller(deps.account, request, reply, ({ caller }) => work(caller), sendTargetFailure);
  const security = [{ session: [] }];

  api.get(
    '/api/v2/targets',
    {
      schema: {
        summary: 'The site list: v1 and v2 sites in registration order',
        security,
        response: { 200: siteList, 401: signedOut },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async (caller) => {
        const { rows } = await unary(target, 'listTargets', { caller });
        return reply.send({ targets: rows.map((row) => targetRowJson(row)), at: new Date().toISOString() });
      }),
  );

  api.post(
    '/api/v2/pattern/check',
    {
      attachValidation: true,
      schema: {
        summary: 'Check a rule’s regular expression as it is typed, as Register will',
        security,
        body: patternCheckBody,
        response: { 200: patternCheck, 400: badRequest, 401: signedOut },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async () => {
        if (requestShapeProblem(request)) return sendApiError(reply, 400, 'bad_request');
        const checked = validatePythonRegex(request.body.pattern);
        return reply.send(checked.ok ? { ok: true } : { ok: false, code: checked.code });
      }),
  );

  for (const [version, prefix] of [
    [1, '/api'],
    [2, '/api/v2'],
  ] as const) {
    const options = <Answers extends Record<number, z.ZodType>>(summary: string, answers: Answers) => ({
      attachValidation: true,
      schema: {
        summary: `${summary} (v${version})`,
        security,
        body: siteRefBody[version],
        response: { 400: badRequest, 401: signedOut, ...answers },
      },
    });
    const targetRef = (caller: targetV1.Caller, request: FastifyRequest): targetV1.TargetRef | null => {
      if (requestShapeProblem(request)) return null;
      const named = request.body as z.infer<(typeof siteRefBody)[typeof version]>;
      return { caller, version, targetId: 'target_id' in named ? named.target_id : named.target_v2_id };
    };

    api.post(
      `${prefix}/pause`,
      options('Pause a site', { 200: sitePaused, 404: notFound, 409: busy }),
      (request, reply) =>
        asCaller(request, reply, async (caller) => {
          const ref = targetRef(caller, request);
          if (!ref) return sendApiError(reply, 400, 'bad_request');
          const { result } = await unary(target, 'pauseTarget', { target: ref });
          return reply.send({
            status: 'paused',
            changed: result?.changed ?? false,
            target: targetRowJson(result?.row),
          });
        }),
    );
    api.post(
      `${prefix}/resume`,
      options('Resume a site', { 200: siteResumed, 404: notFound, 409: siteRefusals.resume }),
      (request, reply) =>
        asCaller(request, reply, async (caller) => {
          const ref = targetRef(caller, request);
          if (!ref) return sendApiError(reply, 400, 'bad_request');
          const { result } = await unary(target, 'resumeTarget', { target: ref });
          return reply.send({
            status: 'resumed',
            changed: result?.changed ?? false,
            target: targetRowJson(result?.row),
          });
        }),
    );
    api.post(
      `${prefix}/seen`,
      options("Clear a site's NEW flag (its history was opened)", { 200: siteSeen, 404: notFound }),
      (request, reply) =>
        asCaller(request, reply, async (caller) => {
          const ref = targetRef(caller, request);
          if (!ref) return sendApiError(reply, 400, 'bad_request');
          const { row } = await unary(target, 'markTargetSeen', { target: ref });
          return reply.send({ status: 'seen', target: targetRowJson(row) });
        }),
    );
    api.post(
      `${prefix}/delete`,
      options('Delete a site', { 200: siteDeleted, 404: notFound, 409: busy }),
      (request, reply) =>
        asCaller(request, reply, async (caller) => {
          const ref = targetRef(caller, request);
          if (!ref) return sendApiError(reply, 400, 'bad_request');
          await unary(target, 'deleteTarget', { target: ref });
          return reply.send({ status: 'deleted' });
        }),
    );
  }

  api.post(
    '/api/v2/resume_held',
    {
      schema: {
        summary:
          'After a hold is lifted: resume the sites the hold paused, in list order, as far as free slots go',
        security,
        response: { 200: heldSitesResumed, 401: signedOut, 409: siteRefusals.resumeHeld },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async (caller) => {
        const { resumed, stillPaused } = await unary(target, 'resumeHeldTargets', { caller });
        return reply.send({ status: 'resumed', resumed, still_paused: stillPaused });
      }),
  );

  api.get(
    '/api/v2/target',
    {
      attachValidation: true,
      schema: {
        summary: 'One v2 site’s settings for the edit screen (secrets never returned)',
        security,
        querystring: siteIdQuery,
        response: { 200: storedTarget, 400: badRequest, 401: signedOut, 404: notFound },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async (caller) => {
        if (requestShapeProblem(request)) return sendApiError(reply, 400, 'bad_request');
        const found = await unary(target, 'getTarget', { caller, targetId: request.query.id });
        return reply.send({
          id: found.targetId,
          ver: found.version,
          revision: found.revision,
          settings: settingsJson(found.settings),
          row: targetRowJson(found.row),
        });
      }),
  );

  api.post(
    '/api/v2/target/register',
    {
      attachValidation: true,
      schema: {
        summary: 'Register a v2 site (201)',
        security,
        body: targetSettingsBody,
        response: {
          201: savedTarget,
          400: siteRefusals.settings,
          401: signedOut,
          409: siteRefusals.register,
        },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async (caller) => {
        const problem = requestShapeProblem(request);
        if (problem) return sendShapeProblem(reply, problem);
        const { saved } = await unary(target, 'registerTarget', {
          caller,
          settings: settingsMessage(request.body),
        });
        return reply.code(201).send(savedJson(saved));
      }),
  );

  api.post(
    '/api/v2/target/update',
    {
      attachValidation: true,
      schema: {
        summary: 'Replace a v2 site’s settings',
        security,
        body: targetUpdateBody,
        response: {
          200: savedTarget,
          400: siteRefusals.settings,
          401: signedOut,
          404: notFound,
          409: editConflict.or(busy),
        },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async (caller) => {
        const problem = requestShapeProblem(request);
        if (problem) return sendShapeProblem(reply, problem);
        const targetId = request.body.target_v2_id;
        try {
          const { saved } = await unary(target, 'updateTarget', {
            caller,
            targetId,
            settings: settingsMessage(request.body),
            expectedRevision: request.body.revision,
          });
          return reply.send(savedJson(saved));
        } catch (error) {
          if (!isEditConflict(error)) throw error;
          // Nothing was saved: the answer names what the other save changed, read as the edit screen reads it.
          const now = await unary(target, 'getTarget', { caller, targetId });
          const saved = settingsJson(now.settings);
          return sendEditConflict(
            reply,
            now.revision,
            saved ? changedFields(comparableSettings(request.body), comparableSettings(saved)) : [],
          );
        }
      }),
  );

  api.post(
    '/api/v1/import',
    {
      attachValidation: true,
      schema: {
        summary:
          'Create v1 (whole-page) sites from a URL list: plain lines, CSV (url, label) or urlwatch urls.yaml',
        security,
        body: importBody,
        response: { 200: importOutcome, 400: siteRefusals.import, 401: signedOut },
      },
    },
    (request, reply) =>
      asCaller(request, reply, async (caller) => {
        const problem = requestShapeProblem(request);
        if (problem) return sendShapeProblem(reply, problem);
        const outcome = await unary(target, 'importTargets', { caller, ...request.body });
        return reply.send(importOutcomeJson(outcome));
      }),
  );
}

/**
 * A site's settings as sent and as saved, in one shape for comparing: an area by its id, name and
 * selector (the sent one carries defaults and its text at registration), the secrets left out.
 */
function comparableSettings(settings: {
  areas: readonly { area_id: string; label: string; locator?: { selector: string } | null }[];
}): Record<string, unknown> {
  const plain: Record<string, unknown> = { ...settings };
  for (const field of NOT_COMPARED) delete plain[field];
  return {
    ...plain,
    areas: settings.areas.map(({ area_id, label, locator }) => ({
      area_id,
      label,
      selector: locator?.selector ?? '',
    })),
  };
}

/** Secrets (write-only) and step lists whose sent and saved shapes differ are not named in a conflict. */
const NOT_COMPARED = [
  'discord_webhook_url',
  'has_discord_webhook',
  'cookies',
  'has_cookies',
  'clear_cookies',
  'user_agent',
  'viewport',
  'login',
  'actions',
  'quiet_hours',
  'target_v2_id',
  'revision',
];

/**
 * The target service answers `<code>|<field>|<reason>`; the code becomes the API error code
 * (`interval_too_short` shows 'specify 1 minute or more'), with the field and the watch
 * engine's reason beside it.
 */
function sendTargetFailure(reply: FastifyReply, error: unknown) {
  const { code, details } = error as { code?: number; details?: string };
  const httpStatus = code === undefined ? undefined : httpByGrpc[code];
  const match = /^([a-z_]{3,60})\|([^|]{0,300})\|([a-z_]{0,60})$/.exec(details ?? '');
  if (httpStatus && match) {
    const [, problem = '', field = '', reason = ''] = match;
    return reply
      .code(httpStatus)
      .type('application/json')
      .send({
        error: {
          code: problem,
          message_key: `errors.${problem}`,
          ...(field ? { field } : {}),
          ...(reason ? { reason } : {}),
        },
      });
  }
  return sendAccountFailure(reply, error);
}
