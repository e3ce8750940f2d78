import type { Migration } from '@mimamori/db';

export const NOTIFIER_SCHEMA = 'notifier';

export const notifierMigrations: Migration[] = [
  {
    version: 1,
    name: 'deliveries',
    sql: `
      -- One row per message per channel; its id says what it is about, so a redelivered event
      -- finds the delivery it already made.
      CREATE TABLE deliveries (
        id text PRIMARY KEY,
        channel text NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      );
    `,
  },
];
