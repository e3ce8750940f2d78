import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1, targetV1 } from '@mimamori/contracts';
import { unary, withIncomingHttpContext } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendAccountFailure } from './account-failure.ts';
import { sendApiError } from './api-error.ts';
import { sessionCaller } from './session-caller.ts';
import { settingsJson, settingsMessage, siteRowJson, targetSettingsBody } from './target-json.ts';

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

type Handler = (caller: targetV1.Caller, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Monitored sites: the dashboard's list and its pause/resume/delete (the product's
 * paths and payload names), the registration and edit of a v2 site, and the v1 bulk import. The session's
 * user and plan limits come from the account service; the target service acts for that user only.
 */
export function targetRoutes(app: FastifyInstance, deps: TargetRouteDeps) {
  const { target } = deps;
  const route = (method: 'GET' | 'POST', path: string, handle: Handler) =>
    app.route({
      method,
      url: path,
      handler: (request, reply) =>
        withIncomingHttpContext(request.headers, `${method} ${path}`, async () => {
          const session = await sessionCaller(deps.account, request, reply);
          if (!session) return reply;
          try {
            return await handle(session.caller, request, reply);
          } catch (error) {
            return sendTargetFailure(reply, error);
          }
        }),
    });

  route('GET', '/api/v2/targets', async (caller, _request, reply) => {
    const { rows } = await unary(target, 'listTargets', { caller });
    return reply.send({ targets: rows.map(siteRowJson), at: new Date().toISOString() });
  });

  for (const [version, prefix, idField] of [
    [1, '/api', 'target_id'],
    [2, '/api/v2', 'target_v2_id'],
  ] as const) {
    const body = z.object({ [idField]: z.string().max(100) });
    const ref = (caller: targetV1.Caller, request: FastifyRequest) => {
      const parsed = body.safeParse(request.body ?? {});
      if (!parsed.success) return null;
      return { caller, version, targetId: String(parsed.data[idField] ?? '') };
    };
    route('POST', `${prefix}/pause`, async (caller, request, reply) => {
      const targetRef = ref(caller, request);
      if (!targetRef) return sendApiError(reply, 400, 'bad_request');
      const { result } = await unary(target, 'pauseTarget', { target: targetRef });
      return reply.send({
        status: 'paused',
        changed: result?.changed ?? false,
        target: siteRowJson(result?.row),
      });
    });
    route('POST', `${prefix}/resume`, async (caller, request, reply) => {
      const targetRef = ref(caller, request);
      if (!targetRef) return sendApiError(reply, 400, 'bad_request');
      const { result } = await unary(target, 'resumeTarget', { target: targetRef });
      return reply.send({
        status: 'resumed',
        changed: result?.changed ?? false,
        target: siteRowJson(result?.row),
      });
    });
    route('POST', `${prefix}/seen`, async (caller, request, reply) => {
      const targetRef = ref(caller, request);
      if (!targetRef) return sendApiError(reply, 400, 'bad_request');
      const { row } = await unary(target, 'markTargetSeen', { target: targetRef });
      return reply.send({ status: 'seen', target: siteRowJson(row) });
    });
    route('POST', `${prefix}/delete`, async (caller, request, reply) => {
      const targetRef = ref(caller, request);
      if (!targetRef) return sendApiError(reply, 400, 'bad_request');
      await unary(target, 'deleteTarget', { target: targetRef });
      return reply.send({ status: 'deleted' });
    });
  }

  route('GET', '/api/v2/target', async (caller, request, reply) => {
    const id = (request.query as Record<string, unknown>).id;
    if (typeof id !== 'string') return sendApiError(reply, 400, 'bad_request');
    const found = await unary(target, 'getTarget', { caller, targetId: id });
    return reply.send({
      id: found.targetId,
      ver: found.version,
      settings: settingsJson(found.settings),
      row: siteRowJson(found.row),
    });
  });

  route('POST', '/api/v2/target/register', async (caller, request, reply) => {
    const parsed = targetSettingsBody.safeParse(request.body ?? {});
    if (!parsed.success) return sendBodyProblem(reply, parsed.error);
    const { saved } = await unary(target, 'registerTarget', {
      caller,
      settings: settingsMessage(parsed.data),
    });
    return reply.code(201).send(savedJson(saved));
  });

  const updateBody = targetSettingsBody.extend({ target_v2_id: z.string().max(100) });
  route('POST', '/api/v2/target/update', async (caller, request, reply) => {
    const parsed = updateBody.safeParse(request.body ?? {});
    if (!parsed.success) return sendBodyProblem(reply, parsed.error);
    const { saved } = await unary(target, 'updateTarget', {
      caller,
      targetId: parsed.data.target_v2_id,
      settings: settingsMessage(parsed.data),
    });
    return reply.send(savedJson(saved));
  });

  const importBody = z.object({ text: z.string().max(2_000_000), format: z.string().max(10).default('') });
  route('POST', '/api/v1/import', async (caller, request, reply) => {
    const parsed = importBody.safeParse(request.body ?? {});
    if (!parsed.success) return sendBodyProblem(reply, parsed.error);
    const outcome = await unary(target, 'importTargets', { caller, ...parsed.data });
    return reply.send({
      format: outcome.format,
      imported: outcome.imported.map(siteRowJson),
      problems: outcome.problems,
    });
  });
}

function savedJson(saved: targetV1.SavedTarget | undefined) {
  return {
    target_v2_id: saved?.targetId ?? '',
    paused: saved?.paused ?? false,
    paused_for_quota: saved?.pausedForQuota ?? false,
    target: siteRowJson(saved?.row),
  };
}

/** A body of the wrong shape: 400 naming the first field at fault. */
function sendBodyProblem(reply: FastifyReply, error: z.ZodError) {
  const field = error.issues[0]?.path.join('.') ?? '';
  return reply
    .code(400)
    .type('application/json')
    .send({ error: { code: 'bad_request', message_key: 'errors.bad_request', field } });
}

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
