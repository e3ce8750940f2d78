import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals secrets the user gives us (site passwords, cookies, webhook URLs) with AES-256-GCM
 * before they are stored or sent between services. A sealed value is
 * `v1.<key id>.<base64url(iv | tag | ciphertext)>`; the key id lets keys rotate: the box opens
 * values sealed with any key it holds and seals with the first.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was tampered with, sealed for another context, or with an unknown key. */
  open(sealed: string, context: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * `keys`: `<id>:<base64 32-byte key>` entries, comma-separated (e.g. from SECRET_KEYS), the
 * first one sealing. `context` (e.g. `target:<id>:cookie`) is bound as additional data, so a
 * sealed value cannot be moved to another field or tenant and still open.
 */
export function createSecretBox(keys: string): SecretBox {
  const parsed = keys
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id, encoded] = entry.split(':');
      const key = Buffer.from(encoded ?? '', 'base64');
      if (!id || !/^[A-Za-z0-9_-]+$/.test(id) || key.length !== 32) {
        throw new Error('each secret key must be <id>:<base64 of 32 bytes>');
      }
      return { id, key };
    });
  const sealing = parsed[0];
  if (!sealing) throw new Error('at least one secret key is required');
  const byId = new Map(parsed.map(({ id, key }) => [id, key]));

  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealing.key, iv);
      cipher.setAAD(Buffer.from(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const payload = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
      return `v1.${sealing.id}.${payload}`;
    },
    open(sealed, context) {
      const [version, id, payload] = sealed.split('.');
      const key = id ? byId.get(id) : undefined;
      if (version !== 'v1' || !key || !payload) throw new Error('sealed value has an unknown format or key');
      const bytes = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/** A fresh key entry for SECRET_KEYS. */
export function generateSecretKey(id: string): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}
