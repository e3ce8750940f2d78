import { randomUUID } from 'node:crypto';
import { writeEvent } from '@mimamori/bus';
import type { Sql } from '@mimamori/db';
import { accountMailRequested } from '@mimamori/events';
import type { SecretBox } from '@mimamori/secret-box';
import type { AccountMail } from '../domain/account-mail.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

/**
 * Stores the mail's token (by hash) and its AccountMailRequested event in the caller's
 * transaction. The event carries the token sealed for the notifier, bound to the event id.
 */
export async function writeAccountMail(tx: Sql, box: SecretBox, mail: AccountMail): Promise<void> {
  const token = mail.token;
  if (token) {
    await tx.query(
      `INSERT INTO ${ACCOUNT_SCHEMA}.tokens (token_hash, kind, user_id, subject, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [token.hash, token.kind, mail.userId, mail.tokenSubject ?? '', token.issuedAt, token.expiresAt],
    );
  }
  const eventId = `account-mail:${mail.kind}:${token?.hash ?? randomUUID()}`;
  await writeEvent(tx, ACCOUNT_SCHEMA, {
    id: eventId,
    subject: accountMailRequested.subject,
    data: accountMailRequested.encode({
      eventId,
      userId: mail.userId,
      to: mail.to,
      lang: mail.lang,
      kind: mail.kind,
      sealedToken: token ? box.seal(token.token, eventId) : '',
      supportType: mail.supportType ?? '',
      plan: 0,
      billingDate: mail.device?.at,
      timezone: mail.device?.timezone ?? '',
      price: 0,
      currency: '',
      cycle: '',
      chatPlatform: mail.chat?.platform ?? '',
      chatLabel: mail.chat?.label ?? '',
      chatReason: mail.chat?.reason ?? '',
      workspaceName: mail.invitation?.workspaceName ?? '',
      memberRole: mail.invitation?.role ?? '',
      inviterName: mail.invitation?.inviterName ?? '',
      deviceBrowser: mail.device?.browser ?? '',
      deviceOs: mail.device?.os ?? '',
      deviceClientAddress: mail.device?.clientAddress ?? '',
    }),
  });
}
