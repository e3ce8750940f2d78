import type { Migration } from '@mimamori/db';

export const ACCOUNT_SCHEMA = 'account';

export const accountMigrations: Migration[] = [
  {
    version: 1,
    name: 'users and sessions',
    sql: `
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        password_hash text,
        lang text NOT NULL DEFAULT 'ja',
        timezone text,
        currency text NOT NULL DEFAULT 'JPY',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(email));
      -- Only a hash of the session token is stored: a database leak gives no usable sessions.
      CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user_id_idx ON sessions (user_id);
    `,
  },
  {
    version: 2,
    name: 'trial, tokens, addresses, sign-in attempts, chat link, support, cancellation feedback',
    sql: `
      -- A user who signs in with X may have no e-mail address.
      ALTER TABLE users ALTER COLUMN email DROP NOT NULL;
      ALTER TABLE users
        ADD COLUMN name text NOT NULL DEFAULT '',
        ADD COLUMN email_verified_at timestamptz,
        ADD COLUMN x_subject text,
        -- Set when the account is cancelled; its sessions stay so the SPA learns of it.
        ADD COLUMN deleted_at timestamptz,
        -- Sealed with the secret box; never stored or logged in clear.
        ADD COLUMN discord_webhook_sealed text,
        ADD COLUMN discord_state text NOT NULL DEFAULT 'not_set';
      CREATE UNIQUE INDEX users_x_subject_key ON users (x_subject) WHERE x_subject IS NOT NULL;

      -- Status: 1 trial, 2 active, 6 renewal failed, 7 on hold, 9 cancelled.
      CREATE TABLE subscriptions (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        plan integer NOT NULL,
        cycle text NOT NULL DEFAULT 'month',
        options text[] NOT NULL DEFAULT '{}',
        status integer NOT NULL,
        trial_ends_at timestamptz,
        delete_at timestamptz,
        has_card boolean NOT NULL DEFAULT false
      );
      CREATE INDEX subscriptions_trial_due_idx ON subscriptions (trial_ends_at) WHERE status = 1;
      CREATE INDEX subscriptions_delete_due_idx ON subscriptions (delete_at) WHERE status = 7;

      CREATE TABLE mail_addresses (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        position integer NOT NULL,
        email text NOT NULL,
        verified_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX mail_addresses_position_key ON mail_addresses (user_id, position);
      CREATE UNIQUE INDEX mail_addresses_email_key ON mail_addresses (user_id, lower(email));

      -- Single-use link tokens (verification, reset, support follow-up), by hash only.
      CREATE TABLE tokens (
        token_hash text PRIMARY KEY,
        kind text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        subject text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX tokens_user_idx ON tokens (user_id, kind);

      -- Failed sign-ins, kept in the database so every gateway and account replica throttles alike.
      CREATE TABLE sign_in_failures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_key text NOT NULL,
        client_address text NOT NULL,
        failed_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_failures_account_idx ON sign_in_failures (account_key, failed_at);
      CREATE INDEX sign_in_failures_address_idx ON sign_in_failures (client_address, failed_at);

      CREATE TABLE support_requests (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL,
        notes text NOT NULL,
        follow_up_notes text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL
      );
      CREATE INDEX support_requests_user_idx ON support_requests (user_id);

      CREATE TABLE cancellation_feedback (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        reasons text[] NOT NULL,
        comment text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL
      );
      CREATE INDEX cancellation_feedback_user_idx ON cancellation_feedback (user_id);
    `,
  },
  {
    version: 3,
    name: 'site usage',
    sql: `
      -- What the user's monitoring sites ask of the plan, as the target service last reported it
      -- (targets.usage_changed); user_info's used_num is computed from it.
      CREATE TABLE site_usage (
        user_id uuid PRIMARY KEY,
        revision bigint NOT NULL,
        min60 integer NOT NULL,
        min10 integer NOT NULL,
        min1 integer NOT NULL,
        random_ip integer NOT NULL,
        ss integer NOT NULL,
        line_notify integer NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'billing',
    sql: `
      -- The account's side at the payment provider. Status, plan, cycle, options and has_card stay in
      -- subscriptions (user_info reads them there); this holds what only billing needs. Of a card, only
      -- what Stripe returns for display is kept.
      CREATE TABLE billing_accounts (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        currency text NOT NULL,
        customer_id text NOT NULL UNIQUE,
        subscription_id text NOT NULL UNIQUE,
        provider_status text NOT NULL,
        suspend_at timestamptz,
        period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        booked_plan integer,
        booked_cycle text,
        booked_options text[],
        card_brand text,
        card_last4 text,
        card_exp_month integer,
        card_exp_year integer
      );
      CREATE INDEX billing_accounts_suspend_due_idx ON billing_accounts (suspend_at);
      -- Webhook events applied, by Stripe's event id: a redelivered event changes nothing.
      CREATE TABLE billing_webhook_events (
        event_id text PRIMARY KEY,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 5,
    name: 'webhooks',
    sql: `
      -- Signed webhooks (docs/webhooks.md): account-wide (target_id '') or for one site. The
      -- signing secret is kept sealed; the user sees it once, when it is made.
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        target_id text NOT NULL DEFAULT '',
        url text NOT NULL,
        sealed_secret text NOT NULL,
        created_at timestamptz NOT NULL,
        secret_rotated_at timestamptz NOT NULL
      );
      CREATE INDEX webhooks_user_idx ON webhooks (user_id, created_at);
    `,
  },
  {
    version: 6,
    name: 'api_access',
    sql: `
      -- Personal access tokens (docs/api.md): only the SHA-256 of the secret is kept; a revoked
      -- token's row goes.
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        last_used_at timestamptz
      );
      CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at);
      -- One feed token per account: looked up by its hash, kept sealed to show on the account page.
      CREATE TABLE feed_tokens (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        sealed_token text NOT NULL,
        rotated_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'chat links',
    sql: `
      -- Chat links (docs/product.md#chat-links, ADR 0021): account-wide (target_id '') or for one
      -- site. The credentials are one JSON object sealed with the secret box (context bound to the
      -- user and the link); digests are SHA-256s of each credential key=value, so a platform's
      -- "this chat is gone" finds its links without opening every one.
      CREATE TABLE chat_links (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        platform text NOT NULL,
        target_id text NOT NULL DEFAULT '',
        label text NOT NULL DEFAULT '',
        sealed_credentials text NOT NULL,
        digests text[] NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'linked' CHECK (status IN ('linked', 'broken')),
        broken_reason text NOT NULL DEFAULT '',
        broken_at timestamptz,
        -- The one mail about this breakage went (or was queued); a relink clears it.
        broken_mail_sent boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1
      );
      CREATE INDEX chat_links_user_idx ON chat_links (user_id, created_at);
      CREATE INDEX chat_links_digests_idx ON chat_links USING gin (digests);
      -- One-time codes of the code and OAuth links (LINE, Telegram, Slack's state), as their hash.
      CREATE TABLE chat_link_codes (
        code_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        platform text NOT NULL,
        target_id text NOT NULL DEFAULT '',
        relink_id text NOT NULL DEFAULT '',
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX chat_link_codes_expiry_idx ON chat_link_codes (expires_at);
    `,
  },
  {
    version: 8,
    name: 'invoice recipients, account deletion',
    sql: `
      -- The name or company receipts are made out to (適格請求書's 宛名), as the user entered it. Each
      -- save raises the revision, and a save names the revision it was read at, so two pages open
      -- at once cannot overwrite each other unseen. Stripe copies the name onto each invoice it
      -- issues; an issued invoice keeps the name it had.
      CREATE TABLE invoice_recipients (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        revision bigint NOT NULL,
        updated_at timestamptz NOT NULL
      );

      -- A deleted account (deleted_at) is erased everywhere once purge_at passes (AccountPurged).
      ALTER TABLE users ADD COLUMN purge_at timestamptz;
      CREATE INDEX users_purge_due_idx ON users (purge_at) WHERE purge_at IS NOT NULL;
      -- Every site the user deleted (targets.deleted): other services keep tombstones by site id
      -- alone, and the purge names these so nothing of them is left.
      CREATE TABLE gone_targets (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        target_id text NOT NULL,
        PRIMARY KEY (user_id, target_id)
      );
    `,
  },
  {
    version: 10,
    name: 'quiet hours',
    sql: `
      -- docs/product.md#quiet-hours: the account's quiet hours as one object (from, until, allDay,
      -- holidays, alertsBreakThrough); NULL reads as none.
      ALTER TABLE users ADD COLUMN quiet_hours jsonb;
    `,
  },
  {
    version: 14,
    name: 'two-factor sign-in, passkeys, session list, known devices',
    sql: `
      -- docs/product.md#two-factor-sign-in. A session gets an id the session list can name (the
      -- token's hash never leaves the service), the browser it was opened from and when it was last used.
      ALTER TABLE sessions
        ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
        ADD COLUMN user_agent text NOT NULL DEFAULT '',
        ADD COLUMN client_address text NOT NULL DEFAULT '',
        ADD COLUMN last_seen_at timestamptz;
      CREATE UNIQUE INDEX sessions_id_key ON sessions (id);

      -- The TOTP secret sealed with the secret box (context: the user id); confirmed_at stays NULL
      -- while the user has not yet typed a first code, and such a row asks nothing at sign-in.
      -- last_step is the newest 30-second step a code was accepted for: a code is good once.
      CREATE TABLE totp_factors (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        sealed_secret text NOT NULL,
        created_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        last_step bigint NOT NULL DEFAULT 0
      );
      -- Only a hash of each recovery code; used_at marks the one use it has.
      CREATE TABLE recovery_codes (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (user_id, code_hash)
      );
      CREATE TABLE passkeys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        credential_id text NOT NULL UNIQUE,
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz
      );
      CREATE INDEX passkeys_user_id_idx ON passkeys (user_id);
      -- A password accepted for an account with a second factor, waiting for that factor; and the
      -- WebAuthn challenges handed out. Both by the hash of what the browser holds, short-lived.
      CREATE TABLE pending_sign_ins (
        ticket_hash text PRIMARY KEY,
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL,
        challenge text NOT NULL DEFAULT '',
        failures integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX pending_sign_ins_expiry_idx ON pending_sign_ins (expires_at);
      -- Browsers an account has signed in from, by the hash of the device cookie: a sign-in from any
      -- other sends the new-device mail.
      CREATE TABLE known_devices (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        device_hash text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, device_hash)
      );
    `,
  },
  {
    version: 15,
    name: 'audit log',
    sql: `
      -- docs/product.md#audit-log, ADR 0036: who did what in a workspace, when and from where. The
      -- workspace is today's account (its user id); no foreign key, so an entry outlives nothing it
      -- names by accident and the account's purge cannot cascade into it: the retention sweep below
      -- removes a purged workspace's entries with the rest.
      CREATE TABLE audit_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        workspace_id uuid NOT NULL,
        at timestamptz NOT NULL,
        -- NULL when no person acted: a failed sign-in, Stripe's own events.
        actor_person_id uuid,
        -- The person's name and address as they were then; the token's name when one acted.
        actor_label text NOT NULL,
        actor_token text NOT NULL DEFAULT '',
        action text NOT NULL,
        subject_kind text NOT NULL DEFAULT '',
        subject_id text NOT NULL DEFAULT '',
        subject_label text NOT NULL DEFAULT '',
        client_address text NOT NULL DEFAULT '',
        user_agent text NOT NULL DEFAULT '',
        details jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_entries_workspace_idx ON audit_entries (workspace_id, at DESC, id DESC);
      CREATE INDEX audit_entries_at_idx ON audit_entries (at);

      -- Append-only: the product's own code cannot change or remove an entry. Only the sweep
      -- function marks its own transaction to let its DELETE through; nothing else sets that mark.
      CREATE FUNCTION account.audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('mimamori.audit_sweep', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit entries are append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $fn$;
      CREATE TRIGGER audit_entries_no_update BEFORE UPDATE OR DELETE ON audit_entries
        FOR EACH ROW EXECUTE FUNCTION account.audit_entries_append_only();
      CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
        FOR EACH STATEMENT EXECUTE FUNCTION account.audit_entries_append_only();

      -- The retention sweep, the one path that deletes: entries older than the workspace's plan
      -- keeps (retention: {"<plan>": days}, default_days for a workspace without a subscription)
      -- and every entry of a workspace that no longer exists (purged). Returns how many went.
      CREATE FUNCTION account.sweep_audit_entries(retention jsonb, default_days integer, now timestamptz)
        RETURNS bigint LANGUAGE plpgsql AS $fn$
      DECLARE removed bigint;
      BEGIN
        PERFORM set_config('mimamori.audit_sweep', 'on', true);
        DELETE FROM account.audit_entries e
         WHERE NOT EXISTS (SELECT 1 FROM account.users u WHERE u.id = e.workspace_id)
            OR e.at < now - make_interval(days => COALESCE(
                 (SELECT (retention ->> s.plan::text)::integer
                    FROM account.subscriptions s WHERE s.user_id = e.workspace_id),
                 default_days));
        GET DIAGNOSTICS removed = ROW_COUNT;
        PERFORM set_config('mimamori.audit_sweep', 'off', true);
        RETURN removed;
      END
      $fn$;
    `,
  },
  {
    version: 11,
    name: 'settings revision',
    sql: `
      -- docs/product.md#edit-conflicts: raised by every save of the account's settings; a save
      -- that names an older one is refused, so two open pages cannot overwrite each other unseen.
      -- Each setting keeps the revision that last changed it, so a save is refused only when one
      -- of its own settings changed since (the name saved elsewhere does not stop quiet hours).
      ALTER TABLE users ADD COLUMN settings_revision bigint NOT NULL DEFAULT 1;
      ALTER TABLE users ADD COLUMN settings_changed_at jsonb NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 12,
    name: 'workspaces: members, roles, invitations',
    sql: `
      -- ADR 0033: a workspace IS an account row (users.id stays the id every other service stores),
      -- so its subscription, quotas, sites, channels, webhooks, tokens and follows stay where they
      -- are. A person is the sign-in side of a users row (mail, password, sessions); memberships say
      -- which persons work in which workspace and with what role. Every existing account becomes
      -- its own person's personal workspace, with that person as owner: no row moves or goes.
      CREATE TABLE memberships (
        workspace_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        person_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
        created_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, person_id)
      );
      CREATE INDEX memberships_person_idx ON memberships (person_id);
      -- Exactly one owner at a time: a transfer demotes the old owner in the same transaction.
      CREATE UNIQUE INDEX memberships_one_owner_key ON memberships (workspace_id) WHERE role = 'owner';
      INSERT INTO memberships (workspace_id, person_id, role, created_at)
        SELECT id, id, 'owner', created_at FROM users;

      -- The workspace a session works in; NULL reads as the person's own (sessions opened before).
      ALTER TABLE sessions ADD COLUMN workspace_id uuid REFERENCES users (id) ON DELETE CASCADE;

      -- Invitations by mail (docs/product.md#workspaces): the link's token is kept as its hash only;
      -- an invitation ends when accepted, revoked or past expires_at.
      CREATE TABLE invitations (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
        token_hash text NOT NULL UNIQUE,
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX invitations_workspace_idx ON invitations (workspace_id, created_at);

      -- The workspace's own settings (the owner's to change), one object so later settings (such
      -- as requiring two-factor sign-in) add keys, not columns.
      ALTER TABLE users ADD COLUMN workspace_settings jsonb NOT NULL DEFAULT '{}';
    `,
  },
];
