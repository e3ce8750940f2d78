import { describe, expect, it } from 'vitest';
import { formatBytes } from './storage-section.tsx';

describe('storage used', () => {
  it('reads bytes in decimal units in the reader’s language', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(999, 'en')).toBe('999 B');
    expect(formatBytes(1_234_567, 'en')).toBe('1.2 MB');
    expect(formatBytes(340_000, 'ja')).toBe('340 KB');
  });
});
