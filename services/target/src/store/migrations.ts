import type { Migration } from '@mimamori/db';

export const TARGET_SCHEMA = 'target';

export const targetMigrations: Migration[] = [
  {
    version: 1,
    name: 'targets',
    sql: `
      -- One row per monitored site, v1 (whole page, from an import) and v2 (areas, rules, login,
      -- actions). Areas, actions and rules are read and written together with the site, so they
      -- live in it as jsonb; secrets in them are sealed.
      CREATE TABLE targets (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        version smallint NOT NULL CHECK (version IN (1, 2)),
        -- The site's number in the user's list (registration order), never reused.
        no integer NOT NULL,
        label text NOT NULL DEFAULT '',
        url text NOT NULL,
        interval_minutes integer NOT NULL CHECK (interval_minutes >= 1),
        screenshot boolean NOT NULL DEFAULT false,
        use_proxy boolean NOT NULL DEFAULT false,
        mail_notify boolean NOT NULL DEFAULT true,
        chat_notify text NOT NULL DEFAULT 'none',
        sealed_discord_webhook text NOT NULL DEFAULT '',
        user_agent_kind text NOT NULL DEFAULT 'none',
        user_agent_value text NOT NULL DEFAULT '',
        viewport_width integer NOT NULL DEFAULT 0,
        viewport_height integer NOT NULL DEFAULT 0,
        sealed_cookies text NOT NULL DEFAULT '',
        login jsonb,
        actions jsonb NOT NULL DEFAULT '[]'::jsonb,
        areas jsonb NOT NULL DEFAULT '[]'::jsonb,
        rules jsonb,
        fetch_mode text NOT NULL DEFAULT 'http',
        paused boolean NOT NULL DEFAULT false,
        paused_reason text,
        is_new boolean NOT NULL DEFAULT false,
        -- Grows with every change; events carry it so consumers drop stale ones.
        revision bigint NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        saved_at timestamptz NOT NULL DEFAULT now(),
        last_update_at timestamptz,
        last_checked_at timestamptz,
        UNIQUE (user_id, no)
      );
      -- The highest number each user has given out, so a deleted site's number is not reused.
      CREATE TABLE user_counters (
        user_id text PRIMARY KEY,
        last_no integer NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'usage revision',
    sql: `
      -- Numbers the usage reports of each user, so the account keeps the newest one.
      ALTER TABLE user_counters ADD COLUMN usage_revision bigint NOT NULL DEFAULT 0;
      ALTER TABLE user_counters ALTER COLUMN last_no SET DEFAULT 0;
    `,
  },
  {
    version: 3,
    name: 'reader language and time zone',
    sql: `
      -- The account's language and time zone when the site was saved: checks present them to
      -- the site (Accept-Language, the browser's locale and clock), as the person's browser does.
      ALTER TABLE targets
        ADD COLUMN reader_lang text NOT NULL DEFAULT '',
        ADD COLUMN reader_time_zone text NOT NULL DEFAULT '';
    `,
  },
  {
    version: 4,
    name: 'failure alerts and history limits',
    sql: `
      -- docs/product.md#failure-alerts: the site's alert count, its run of failed checks as
      -- @mimamori/watch-engine counts it, and the failing state the site list shows.
      ALTER TABLE targets
        ADD COLUMN failure_alert_after smallint NOT NULL DEFAULT 3,
        ADD COLUMN failure_run jsonb,
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN failing_kind text,
        -- docs/product.md#history: the plan's limits when the site was saved; 0 keeps everything.
        ADD COLUMN history_updates integer NOT NULL DEFAULT 0,
        ADD COLUMN history_days integer NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 5,
    name: 'silence alerts',
    sql: `
      -- docs/product.md#silence-alerts: days without an update before the site says so; 0 is off.
      ALTER TABLE targets ADD COLUMN silence_alert_days smallint NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 6,
    name: 'documents and data',
    sql: `
      -- docs/product.md#documents-and-data: what the URL serves, a web page or a PDF, JSON or XML
      -- document read over plain HTTP; existing sites are pages.
      ALTER TABLE targets ADD COLUMN content_kind text NOT NULL DEFAULT 'page';
    `,
  },
  {
    version: 7,
    name: 'quiet hours',
    sql: `
      -- docs/product.md#quiet-hours: whose quiet hours the site keeps ('account', 'none', 'own')
      -- and its own (from, until, allDay, holidays, alertsBreakThrough); NULL reads as none.
      ALTER TABLE targets
        ADD COLUMN quiet_mode text NOT NULL DEFAULT 'account',
        ADD COLUMN quiet_hours jsonb;
    `,
  },
  {
    version: 10,
    name: 'always render',
    sql: `
      -- Browser mode: the person insists every check renders the page (ADR 0031); by default a
      -- check first asks the page's own requests again and renders only when one differs.
      ALTER TABLE targets ADD COLUMN always_render boolean NOT NULL DEFAULT false;
    `,
  },
  {
    version: 11,
    name: 'last check in a row of its own',
    sql: `
      -- ADR 0032: every check moves the list's 'checked' time, and an unchanged check moves
      -- nothing else; written into the site's wide row, that one time cost about 900 bytes a
      -- check. It lives here instead, a narrow row updated in place.
      CREATE TABLE last_checks (
        target_id uuid PRIMARY KEY REFERENCES targets (id) ON DELETE CASCADE,
        checked_at timestamptz NOT NULL
      );
      INSERT INTO last_checks (target_id, checked_at)
        SELECT id, last_checked_at FROM targets WHERE last_checked_at IS NOT NULL;
      ALTER TABLE targets DROP COLUMN last_checked_at;
    `,
  },
];
