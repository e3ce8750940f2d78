import type { Migration } from '@mimamori/db';

export const DIFF_SCHEMA = 'diff';

export const diffMigrations: Migration[] = [
  {
    version: 1,
    name: 'versions_results_updates',
    sql: `
      -- What the diff service knows of each site: the newest revision announced on targets.*, and
      -- the areas, options, rules and screenshot flag it last read from the target service with
      -- the revision they belong to; a newer announcement makes it read them again.
      CREATE TABLE target_settings (
        target_id text PRIMARY KEY,
        user_id text NOT NULL,
        announced_revision bigint NOT NULL DEFAULT 0,
        read_revision bigint,
        settings jsonb
      );

      -- The recorded versions of each area: the first check's (the data at registration) and one
      -- per update for every area (what the person saw in history then). The newest is the
      -- 'previous' of the next check; the newest N feed 'exclude same as past'.
      CREATE TABLE area_versions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        target_id text NOT NULL,
        user_id text NOT NULL,
        area_id text NOT NULL,
        check_id text NOT NULL,
        update_id text,
        html text,
        text text,
        normalised_text text NOT NULL,
        content_hash text NOT NULL,
        screenshot_blob_key text NOT NULL DEFAULT '',
        page_screenshot_blob_key text NOT NULL DEFAULT '',
        recorded_at timestamptz NOT NULL,
        UNIQUE (target_id, area_id, check_id)
      );
      CREATE INDEX area_versions_newest ON area_versions (target_id, area_id, id DESC);

      -- Every check's outcome: no_change, update or error (with the crawler's or engine's code).
      CREATE TABLE check_results (
        check_id text PRIMARY KEY,
        target_id text NOT NULL,
        user_id text NOT NULL,
        due_at timestamptz,
        completed_at timestamptz NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('no_change', 'update', 'error')),
        error_code text NOT NULL DEFAULT '',
        error_detail text NOT NULL DEFAULT '',
        update_id text
      );
      CREATE INDEX check_results_history ON check_results (target_id, completed_at DESC, check_id DESC);

      -- Updates with the diff a person sees: per area the engine's AreaDiff rows, the text lines,
      -- added and removed; the rules that matched; the before/after images.
      CREATE TABLE updates (
        update_id text PRIMARY KEY,
        check_id text NOT NULL UNIQUE,
        target_id text NOT NULL,
        user_id text NOT NULL,
        notify boolean NOT NULL,
        matched jsonb NOT NULL,
        areas jsonb NOT NULL,
        before_screenshot_blob_key text NOT NULL DEFAULT '',
        after_screenshot_blob_key text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL
      );
      CREATE INDEX updates_target ON updates (target_id);
    `,
  },
  {
    version: 2,
    name: 'checks_carry_settings',
    sql: `
      -- Checks carry their watch settings (ADR 0008), so the copy read from the target service goes.
      DROP TABLE target_settings;

      -- Sites targets.deleted removed: a check of one still under way then is not recorded.
      CREATE TABLE forgotten_targets (
        target_id text PRIMARY KEY,
        forgotten_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 3,
    name: 'history limits',
    sql: `
      -- docs/product.md#history: how much of each site's history is kept, as its newest check
      -- carried it from the plan; the nightly sweep trims the sites listed here.
      CREATE TABLE history_limits (
        target_id text PRIMARY KEY,
        user_id text NOT NULL,
        keep_updates integer NOT NULL CHECK (keep_updates > 0),
        keep_check_days integer NOT NULL CHECK (keep_check_days > 0)
      );
      CREATE INDEX updates_target_newest ON updates (target_id, created_at DESC);
      CREATE INDEX check_results_user ON check_results (user_id);
      CREATE INDEX updates_user ON updates (user_id);
      CREATE INDEX area_versions_user ON area_versions (user_id);
    `,
  },
];
