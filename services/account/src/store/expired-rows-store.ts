import type { Db } from '@mimamori/db';
import type { ExpiredRowsPort } from '../domain/expired-rows.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;
// A used or expired link is kept a week so "already used" can still be told apart from invalid.
const LINK_MEMORY = "interval '7 days'";
// An expired API token stays listed a month as expired, so its owner sees why a script stopped.
const API_TOKEN_MEMORY = "interval '30 days'";

export function createExpiredRowsStore(db: Db): ExpiredRowsPort {
  return {
    async pruneExpired(now, failuresBefore) {
      const failures = await db.query(`DELETE FROM ${S}.sign_in_failures WHERE failed_at < $1`, [
        failuresBefore,
      ]);
      const tokens = await db.query(
        `DELETE FROM ${S}.tokens WHERE expires_at < $1::timestamptz - ${LINK_MEMORY}`,
        [now],
      );
      const sessions = await db.query(`DELETE FROM ${S}.sessions WHERE expires_at < $1`, [now]);
      const apiTokens = await db.query(
        `DELETE FROM ${S}.api_tokens WHERE expires_at < $1::timestamptz - ${API_TOKEN_MEMORY}`,
        [now],
      );
      // A chat link's code lives 15 minutes; past it, it can only be refused.
      const chatCodes = await db.query(`DELETE FROM ${S}.chat_link_codes WHERE expires_at < $1`, [now]);
      // A password waiting for its second factor, or a passkey challenge, lives minutes.
      const pending = await db.query(`DELETE FROM ${S}.pending_sign_ins WHERE expires_at < $1`, [now]);
      return (
        failures.rowCount +
        tokens.rowCount +
        sessions.rowCount +
        apiTokens.rowCount +
        chatCodes.rowCount +
        pending.rowCount
      );
    },
  };
}
