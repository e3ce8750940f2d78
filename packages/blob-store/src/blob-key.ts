export class InvalidBlobKeyError extends Error {
  override readonly name = 'InvalidBlobKeyError';
}

const ALLOWED = /^[A-Za-z0-9._/-]+$/;

/**
 * Refuses keys that could escape the store's root on a file system or mean two things:
 * only `[A-Za-z0-9._/-]`, relative, no empty segments, and no segment starting with a dot
 * (which rules out `.` and `..` and keeps the file store's own `.tmp`/`.types` folders apart).
 */
export function assertBlobKey(key: string): void {
  const problem = blobKeyProblem(key);
  if (problem) throw new InvalidBlobKeyError(`invalid blob key ${JSON.stringify(key)}: ${problem}`);
}

function blobKeyProblem(key: string): string | null {
  if (key.length === 0) return 'it is empty';
  if (key.length > 1024) return 'it is longer than 1024 characters';
  if (!ALLOWED.test(key)) return 'only letters, digits and . _ / - are allowed';
  if (key.startsWith('/')) return 'it must be relative, not start with /';
  const segments = key.split('/');
  if (segments.some((segment) => segment === '')) return 'it has an empty segment (// or a trailing /)';
  if (segments.some((segment) => segment.startsWith('.')))
    return 'a segment starts with a dot (. and .. included)';
  return null;
}
