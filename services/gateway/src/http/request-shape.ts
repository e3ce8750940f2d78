import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import type { z } from 'zod';

/**
 * A request whose body or query does not have the declared shape; answered 400 bad_request.
 * Keeps the path of zod's first issue, which some routes name in `field`.
 */
export class RequestShapeError extends Error {
  readonly statusCode = 400;
  readonly field: string;
  constructor(field: string) {
    super(`request does not have the declared shape at '${field}'`);
    this.field = field;
  }
}

/**
 * Parses a request part with the route's zod schema; the parsed value (defaults filled) replaces
 * it. A POST without a body reads as an empty object, so a missing field is named as missing.
 */
export function requestShapeCompiler({ schema }: FastifyRouteSchemaDef<z.ZodType>) {
  return (data: unknown) => {
    const parsed = schema.safeParse(data ?? {});
    if (parsed.success) return { value: parsed.data };
    return { error: new RequestShapeError(parsed.error.issues[0]?.path.join('.') ?? '') };
  };
}

/**
 * Routes that check the session first take their request unchecked (`attachValidation`) and ask
 * here after: a signed-out caller hears 401 before a malformed request hears 400.
 */
export function requestShapeProblem(request: FastifyRequest): RequestShapeError | null {
  const error = request.validationError;
  if (!error) return null;
  return error instanceof RequestShapeError ? error : new RequestShapeError('');
}

/** 400 bad_request naming the first field at fault. */
export function sendShapeProblem(reply: FastifyReply, problem: RequestShapeError) {
  return reply
    .code(400)
    .type('application/json')
    .send({ error: { code: 'bad_request', message_key: 'errors.bad_request', field: problem.field } });
}
