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
  {
    version: 2,
    name: 'target notices and error streaks',
    sql: `
      -- Each site's notice as the newest targets.* event told it: who is told and how. A deleted
      -- site keeps its row (emptied, deleted) so a late older event cannot bring it back.
      CREATE TABLE target_notices (
        target_id text PRIMARY KEY,
        user_id text NOT NULL,
        revision bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        label text NOT NULL DEFAULT '',
        url text NOT NULL DEFAULT '',
        mail_notify boolean NOT NULL DEFAULT false,
        chat_notify text NOT NULL DEFAULT 'none',
        sealed_discord_webhook text NOT NULL DEFAULT ''
      );

      -- Consecutive failed checks per site, counted in due-time order; the structural-change
      -- hint is mailed once per streak.
      CREATE TABLE error_streaks (
        target_id text PRIMARY KEY,
        errors integer NOT NULL DEFAULT 0,
        started_at timestamptz,
        last_due_at timestamptz NOT NULL,
        hinted boolean NOT NULL DEFAULT false
      );
    `,
  },
  {
    version: 3,
    name: 'delivery claims and retention',
    sql: `
      -- The copy of an event that is sending a delivery holds it until claimed_until (renewed
      -- while it sends); another copy arriving meanwhile waits instead of sending it too.
      ALTER TABLE deliveries ADD COLUMN claim_token text, ADD COLUMN claimed_until timestamptz;
      -- The retention sweep deletes by age.
      CREATE INDEX deliveries_created_at ON deliveries (created_at);
      CREATE INDEX error_streaks_last_due_at ON error_streaks (last_due_at);
    `,
  },
  {
    version: 4,
    name: 'notice area names and site version',
    sql: `
      -- An update mail names each area as the person did and links to the site's history page,
      -- which differs by site version. Notices saved before this say version 2 and no names
      -- until the site's next targets.* event.
      ALTER TABLE target_notices
        ADD COLUMN version integer NOT NULL DEFAULT 2,
        ADD COLUMN area_labels jsonb NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 5,
    name: 'failure alerts',
    sql: `
      -- The failure alert (docs/product.md#failure-alerts) replaces the structural-change hint: a
      -- run of failures is counted by kind, alerted once, and its end told once.
      ALTER TABLE target_notices ADD COLUMN failure_alert_after integer NOT NULL DEFAULT 3;
      ALTER TABLE error_streaks
        DROP COLUMN hinted,
        ADD COLUMN kind_counts jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN last_kind text,
        ADD COLUMN last_area_id text NOT NULL DEFAULT '',
        ADD COLUMN alerted_run timestamptz,
        ADD COLUMN recovered_run timestamptz;
    `,
  },
  {
    version: 6,
    name: 'failure times as the history shows them',
    sql: `
      -- The alert names when the run's first failed check finished and "working again" when the
      -- first good one did, the times the history shows (docs/product.md#failure-alerts). Runs
      -- counted before this have none and fall back to their due times.
      ALTER TABLE error_streaks
        ADD COLUMN failed_since timestamptz,
        ADD COLUMN recovered_at timestamptz;
    `,
  },
  {
    version: 7,
    name: 'silence alerts',
    sql: `
      -- docs/product.md#silence-alerts: a site's days without an update before it says so (0 off),
      -- and per site when its page last changed (or was first checked) and which quiet spell was told.
      ALTER TABLE target_notices ADD COLUMN silence_alert_days smallint NOT NULL DEFAULT 0;
      CREATE TABLE silences (
        target_id text PRIMARY KEY,
        last_change_at timestamptz NOT NULL,
        told_for timestamptz
      );
    `,
  },
  {
    version: 8,
    name: 'quiet hours',
    sql: `
      -- docs/product.md#quiet-hours: whose quiet hours a site keeps ('account', 'none', 'own') and
      -- its own; NULL reads as none.
      ALTER TABLE target_notices
        ADD COLUMN quiet_mode text NOT NULL DEFAULT 'account',
        ADD COLUMN quiet_hours jsonb;
      -- Updates found inside quiet hours, kept until their digest went out on every channel. The
      -- whole update event is kept; the digest is written from it and the site's notice then.
      -- A release pass tags the due rows with their digest (batch) first, so a row held later
      -- goes in the next digest, never into one already sent.
      CREATE TABLE held_updates (
        seq bigserial PRIMARY KEY,
        update_id text NOT NULL UNIQUE,
        user_id text NOT NULL,
        target_id text NOT NULL,
        held_at timestamptz NOT NULL,
        release_at timestamptz NOT NULL,
        event bytea NOT NULL,
        batch text,
        attempts integer NOT NULL DEFAULT 0
      );
      CREATE INDEX held_updates_release_at ON held_updates (release_at);
    `,
  },
];
