import type { auditV1 } from '@mimamori/contracts';
import { type AuditQuery, auditCsvQuery, auditPage, auditQuery, auditRefusals } from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendApiError } from './api-error.ts';
import { accountWork } from './auth-routes.ts';
import { requestShapeProblem, sendShapeProblem } from './request-shape.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const security = [{ session: [] }];
const { signedOut, badFilter, session: sessionOnly } = auditRefusals;

/**
 * The workspace's audit log (docs/product.md#audit-log): a page of entries with filters, and the
 * same entries as CSV. The account service reads the session's own workspace only, and only for
 * a browser session (ADR 0036).
 */
export function auditRoutes(app: FastifyInstance, deps: { audit: auditV1.AuditServiceClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { audit } = deps;
  const sessionToken = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';
  /** 401 before 400: a signed-out caller learns nothing of what the route takes. */
  const checked = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (!sessionToken(request)) {
      sendApiError(reply, 401, 'unauthenticated');
      return false;
    }
    const problem = requestShapeProblem(request);
    if (problem) {
      sendShapeProblem(reply, problem);
      return false;
    }
    return true;
  };

  api.get(
    '/api/audit',
    {
      attachValidation: true,
      schema: {
        summary:
          'The workspace’s audit log, newest first, 50 a page, filtered by person, kind, site and time',
        security,
        querystring: auditQuery,
        response: { 200: auditPage, 400: badFilter, 401: signedOut, 403: sessionOnly },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        if (!checked(request, reply)) return;
        const answer = await unary(audit, 'listAuditEntries', {
          sessionToken: sessionToken(request),
          filter: filterOf(request.query),
          page: request.query.page ?? 1,
        });
        return reply.header('cache-control', 'private, no-store').send({
          entries: answer.entries.map(entryJson),
          page: answer.page,
          page_size: answer.pageSize,
          total: answer.total,
          people: answer.people.map((person) => ({ person_id: person.personId, label: person.label })),
          retention_days: answer.retentionDays,
        });
      }),
  );

  api.get(
    '/api/audit/csv',
    {
      attachValidation: true,
      schema: {
        summary: 'The filtered audit log as CSV (UTF-8 with BOM; headers in Japanese or English)',
        security,
        querystring: auditCsvQuery,
        response: {
          200: { description: 'The entries (CSV)', content: { 'text/csv': { schema: z.string() } } },
          400: badFilter,
          401: signedOut,
          403: sessionOnly,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        if (!checked(request, reply)) return;
        const answer = await unary(audit, 'exportAuditCsv', {
          sessionToken: sessionToken(request),
          filter: filterOf(request.query),
          lang: request.query.lang ?? '',
        });
        const ascii = answer.filename.replace(/[^\w.-]/g, '_');
        return reply
          .header('content-disposition', `attachment; filename="${ascii}"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .type('text/csv; charset=utf-8')
          .send(Buffer.from(answer.csv).toString('utf8'));
      }),
  );
}

function filterOf(query: Omit<AuditQuery, 'page'>): auditV1.AuditFilter {
  return {
    personId: query.person ?? '',
    kind: query.kind ?? '',
    subjectId: query.subject ?? '',
    from: query.from ? new Date(query.from) : undefined,
    until: query.until ? new Date(query.until) : undefined,
  };
}

function entryJson(entry: auditV1.AuditEntry) {
  return {
    id: entry.id,
    at: (entry.at ?? new Date(0)).toISOString(),
    actor: {
      person_id: entry.actorPersonId || null,
      label: entry.actorLabel,
      token: entry.actorToken || null,
    },
    action: entry.action,
    subject: { kind: entry.subjectKind, id: entry.subjectId, label: entry.subjectLabel },
    ip: entry.clientAddress,
    user_agent: entry.userAgent,
    details: entry.details,
  };
}
