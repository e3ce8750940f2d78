import { describe, expect, it } from 'vitest';
import { uniqueName } from './unique-name.ts';

describe('uniqueName', () => {
  it('makes a lowercase identifier from the prefix with a random suffix', () => {
    const name = uniqueName('Blob-Store');
    expect(name).toMatch(/^blob_store_[0-9a-f]{12}$/);
    expect(uniqueName('Blob-Store')).not.toBe(name);
  });

  it('refuses a prefix that would not start an identifier', () => {
    expect(() => uniqueName('1st')).toThrow(/must start with a letter/);
  });
});
