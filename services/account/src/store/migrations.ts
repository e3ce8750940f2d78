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
];
