import type { ChangedField, EditConflict } from '@mimamori/http-api';
import type { FastifyReply } from 'fastify';

/** A value in one spelling whatever its keys' order, so a sent and a saved value compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/**
 * The fields whose saved value differs from the one sent, with the saved value: what another
 * save changed since the edit started, or what this save would have replaced. Only fields both
 * sides name are compared; a write-only field (a secret) is never in `saved`, so never echoed.
 */
export function changedFields(
  sent: Readonly<Record<string, unknown>>,
  saved: Readonly<Record<string, unknown>>,
): ChangedField[] {
  return Object.keys(saved)
    .filter((field) => sent[field] !== undefined && canonical(sent[field]) !== canonical(saved[field]))
    .map((field) => ({ field, value: saved[field] }));
}

/** 409 edit_conflict (docs/api.md#edit-conflicts): nothing was saved; the saved revision and what differs. */
export function sendEditConflict(reply: FastifyReply, revision: number, changed: ChangedField[]) {
  const answer: EditConflict = {
    error: { code: 'edit_conflict', message_key: 'errors.edit_conflict' },
    conflict: { revision, changed },
  };
  return reply.code(409).type('application/json').send(answer);
}

/** The target and account services refuse a stale save with this code (gRPC ABORTED). */
export function isEditConflict(error: unknown): boolean {
  const { details } = error as { details?: string };
  return typeof details === 'string' && details.startsWith('edit_conflict');
}
