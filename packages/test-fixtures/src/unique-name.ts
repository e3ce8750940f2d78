import { randomBytes } from 'node:crypto';

/**
 * A name no other test is using: lowercase letters, digits and `_`, so it is valid unquoted as a
 * PostgreSQL schema and as a JetStream stream, consumer or bucket name.
 */
export function uniqueName(prefix: string): string {
  const safePrefix = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!/^[a-z_]/.test(safePrefix))
    throw new Error(`uniqueName: prefix must start with a letter (got ${prefix})`);
  return `${safePrefix}_${randomBytes(6).toString('hex')}`;
}
