import { describe, expect, it } from 'vitest';
import { cookiesFromHeader } from './cookie-header.ts';

describe('cookiesFromHeader', () => {
  it('turns a Cookie header into cookies for the checked URL, keeping = inside values', () => {
    expect(cookiesFromHeader(' session=a=b; lang=ja ;; broken', 'https://shop.example/item')).toEqual([
      { name: 'session', value: 'a=b', url: 'https://shop.example/item' },
      { name: 'lang', value: 'ja', url: 'https://shop.example/item' },
    ]);
  });
});
