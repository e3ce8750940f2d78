import type { FastifyRequest } from 'fastify';

/** Thrown for a body field of the wrong type; answered as 400 bad_request. */
export class BadRequestBody extends Error {
  readonly statusCode = 400;
}

function fields(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestBody('body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A string field; missing reads as ''. */
export function textField(request: FastifyRequest, name: string): string {
  const value = fields(request)[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new BadRequestBody(`${name} must be a string`);
  return value;
}

/** A string field that may be left out (then nothing changes). */
export function optionalTextField(request: FastifyRequest, name: string): string | undefined {
  const value = fields(request)[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new BadRequestBody(`${name} must be a string`);
  return value;
}

/** A whole-number field; missing reads as 0. */
export function integerField(request: FastifyRequest, name: string): number {
  const value = fields(request)[name];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new BadRequestBody(`${name} must be an integer`);
  return value;
}

export function booleanField(request: FastifyRequest, name: string): boolean {
  const value = fields(request)[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new BadRequestBody(`${name} must be a boolean`);
  return value;
}
