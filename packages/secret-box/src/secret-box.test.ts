import { describe, expect, it } from 'vitest';
import { createSecretBox, generateSecretKey } from './secret-box.ts';

describe('secret box', () => {
  const box = createSecretBox(generateSecretKey('k1'));

  it('opens what it sealed, and the sealed form does not contain the secret', () => {
    const sealed = box.seal('パスワード hunter2', 'target:1:password');
    expect(sealed).toMatch(/^v1\.k1\./);
    expect(sealed).not.toContain('hunter2');
    expect(box.open(sealed, 'target:1:password')).toBe('パスワード hunter2');
  });

  it('seals the same secret differently each time', () => {
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('refuses a value moved to another context, tampered with, or sealed with an unknown key', () => {
    const sealed = box.seal('cookie=1', 'target:1:cookie');
    expect(() => box.open(sealed, 'target:2:cookie')).toThrow();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => box.open(tampered, 'target:1:cookie')).toThrow();
    expect(() => createSecretBox(generateSecretKey('other')).open(sealed, 'target:1:cookie')).toThrow();
  });

  it('opens values sealed with an older key after rotation', () => {
    const old = generateSecretKey('old');
    const sealed = createSecretBox(old).seal('webhook', 'user:1:discord');
    const rotated = createSecretBox(`${generateSecretKey('new')},${old}`);
    expect(rotated.open(sealed, 'user:1:discord')).toBe('webhook');
    expect(rotated.seal('x', 'c')).toMatch(/^v1\.new\./);
  });

  it('refuses malformed keys', () => {
    expect(() => createSecretBox('')).toThrow('at least one secret key');
    expect(() => createSecretBox('k1:c2hvcnQ=')).toThrow('32 bytes');
  });
});
