import { describe, expect, it } from 'vitest';
import { CompanyIndex } from './company-index.ts';
import { searchKey, searchQuery } from './search-key.ts';

describe('searchKey', () => {
  it('folds full-width and half-width forms, kana and case to one form', () => {
    expect(searchKey('ＴＯＹＯＴＡ')).toBe('toyota');
    expect(searchKey('７２０３')).toBe('7203');
    expect(searchKey('ﾄﾖﾀ')).toBe('トヨタ');
    expect(searchKey('とよた')).toBe('トヨタ');
    expect(searchKey('トヨタ自動車　株式会社')).toBe('トヨタ自動車株式会社');
    expect(searchKey('Apple Inc.')).toBe('appleinc.');
  });

  it('asks for at least three characters after folding', () => {
    expect(searchQuery('ab')).toBeUndefined();
    expect(searchQuery(' a b ')).toBeUndefined();
    expect(searchQuery('トヨタ')).toBe('トヨタ');
    expect(searchQuery('ＡＰＰ')).toBe('app');
  });
});

describe('CompanyIndex', () => {
  const index = new CompanyIndex(
    [
      [
        'E02144',
        'トヨタ自動車株式会社',
        'TOYOTA MOTOR CORPORATION',
        'トヨタジドウシャカブシキガイシャ',
        '72030',
      ],
      [
        'E01234',
        '豊田通商株式会社',
        'TOYOTA TSUSHO CORPORATION',
        'トヨタツウショウカブシキガイシャ',
        '80150',
      ],
      [
        'E99999',
        'ソニーグループ株式会社',
        'Sony Group Corporation',
        'ソニーグループカブシキガイシャ',
        '67580',
      ],
    ].map(([code, ...names]) => ({
      company: code,
      keys: [code, ...names].map((name) => searchKey(name ?? '')),
    })),
  );

  it('finds by name in any script and width, by reading, and by code', () => {
    expect(index.search(searchKey('とよた'), 10)).toEqual(['E02144', 'E01234']);
    expect(index.search(searchKey('ｔｏｙｏｔａ ｍｏｔｏｒ'), 10)).toEqual(['E02144']);
    expect(index.search(searchKey('グループ'), 10)).toEqual(['E99999']);
    expect(index.search(searchKey('e99999'), 10)).toEqual(['E99999']);
    expect(index.search(searchKey('6758'), 10)).toEqual(['E99999']);
  });

  it('puts an exact code before names that merely contain it and keeps to the limit', () => {
    expect(index.search(searchKey('E01234'), 10)).toEqual(['E01234']);
    expect(index.search(searchKey('corporation'), 2)).toEqual(['E02144', 'E01234']);
  });

  it('answers nothing for a query shorter than a trigram or without a match', () => {
    expect(index.search('トヨ', 10)).toEqual([]);
    expect(index.search('nissan', 10)).toEqual([]);
  });
});
