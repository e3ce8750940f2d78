import type { Migration } from '@mimamori/db';

export const SCHEDULER_SCHEMA = 'scheduler';

export const schedulerMigrations: Migration[] = [
  {
    version: 1,
    name: 'schedules',
    sql: `
      -- One row per monitored site, kept from targets.* events. A site is due at every
      -- k·interval_ms + phase_ms (epoch milliseconds), so dispatch is a read of an index range.
      CREATE TABLE schedules (
        target_id text PRIMARY KEY,
        user_id text NOT NULL,
        interval_ms bigint NOT NULL CHECK (interval_ms >= 60000),
        phase_ms bigint NOT NULL CHECK (phase_ms >= 0 AND phase_ms < interval_ms),
        -- false while paused (by the user, the quota or an account hold)
        active boolean NOT NULL,
        -- the site's revision of the event that wrote this row; older events are ignored
        revision bigint NOT NULL,
        -- when that event happened; an account hold stops what changed before it
        changed_at timestamptz NOT NULL,
        -- the RunCheck to send, check_id and due_at filled at dispatch
        check_template bytea NOT NULL,
        -- consecutive checks that ended in error, and the time before which none is sent
        failures integer NOT NULL DEFAULT 0,
        backoff_until timestamptz,
        -- the due time of the newest result counted, so a late older result does not count
        last_result_due_at timestamptz
      );
      CREATE INDEX schedules_due ON schedules (interval_ms, phase_ms) WHERE active;
      CREATE INDEX schedules_user ON schedules (user_id);

      -- Deleted sites, so an older event delivered after the delete does not bring one back.
      CREATE TABLE removed_targets (
        target_id text PRIMARY KEY,
        revision bigint NOT NULL,
        removed_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 2,
    name: 'kept_check_state',
    sql: `
      -- What a site's newest successful check leaves for the next ones (ADR 0016), sent with each:
      -- the sign-in session the crawler sealed (the scheduler never opens it), so checks do not
      -- log in again, and the digest of the areas it read, so an unchanged check takes no
      -- screenshot. It goes with its schedule.
      CREATE TABLE kept_check_state (
        target_id text PRIMARY KEY REFERENCES schedules (target_id) ON DELETE CASCADE,
        sealed_session_state text NOT NULL DEFAULT '',
        areas_digest text NOT NULL DEFAULT '',
        -- the due time of the check that left it: an older check never replaces it, and what was
        -- kept before the site's settings last changed is not sent
        check_due_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'account_phase',
    sql: `
      -- The phase moves from a hash of the site to the account's phase plus a short offset of the
      -- site (ADR 0018), computed exactly as phaseOf does: the first 6 bytes of SHA-256, big-endian.
      -- Every site moves now rather than at its next edit; one that moves is checked once early
      -- or late by up to one interval.
      CREATE FUNCTION phase_hash48(value text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT AS $$
        SELECT ('x' || encode(substring(sha256(convert_to(value, 'UTF8')) FROM 1 FOR 6), 'hex'))::bit(48)::bigint
      $$;
      -- 3000 is ACCOUNT_SPREAD_MS; a later change of it needs a migration of its own.
      UPDATE schedules
         SET phase_ms = (phase_hash48(user_id) % interval_ms + phase_hash48(target_id) % least(3000, interval_ms))
                        % interval_ms;
      DROP FUNCTION phase_hash48(text);
    `,
  },
  {
    version: 4,
    name: 'started_at',
    sql: `
      -- When the site last started monitoring (registered monitoring, resumed, or saved from paused
      -- to monitoring): it is checked then and a minute later before its phase takes over
      -- (ADR 0020). Sites already monitoring keep none; they are past their start.
      ALTER TABLE schedules ADD COLUMN started_at timestamptz;
      CREATE INDEX schedules_started ON schedules (started_at) WHERE active AND started_at IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'scaled_minute',
    sql: `
      -- Test runs pass the product's minutes faster (MIMAMORI_TIME_SCALE), so there a 1-minute
      -- interval is shorter than 60,000 ms; the service itself refuses less than one of its minutes.
      ALTER TABLE schedules DROP CONSTRAINT schedules_interval_ms_check;
      ALTER TABLE schedules ADD CONSTRAINT schedules_interval_ms_check CHECK (interval_ms > 0);
    `,
  },
  {
    version: 7,
    name: 'kept_revalidation_state',
    sql: `
      -- What a browser check's full render kept for asking the page's requests again before the
      -- next render (ADR 0031), sealed by the crawler; written only by checks that rendered.
      ALTER TABLE kept_check_state ADD COLUMN sealed_revalidation_state text NOT NULL DEFAULT '';
    `,
  },
];
