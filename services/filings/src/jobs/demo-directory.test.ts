import { describe, expect, it } from 'vitest';
import { findDemoIssuer } from '../clients/demo-source.ts';
import { searchQuery } from '../domain/search-key.ts';
import { createDemoDirectory } from './demo-directory.ts';

const directory = createDemoDirectory();
const japanese = (text: string) => directory.searchJapanese(searchQuery(text) ?? '').map((row) => row.name);
const sec = (text: string) => directory.searchSec(searchQuery(text) ?? '').map((row) => row.cik);

describe('demo directory search', () => {
  it('finds a Japanese company by its Japanese, kana and English names, securities code, EDINET code and ISIN', () => {
    for (const query of ['トヨタ', 'とよた', 'ﾄﾖﾀ', 'toyota motor', '7203', 'E02144', 'jp3633400001'])
      expect(japanese(query), query).toEqual(['トヨタ自動車株式会社']);
    expect(japanese('ソニー')).toEqual(['ソニーグループ株式会社']);
  });

  it('finds an SEC registrant by ticker, bare or padded CIK, name and ISIN', () => {
    for (const query of ['AAPL', 'aapl', '320193', '0000320193', 'apple', 'US0378331005'])
      expect(sec(query), query).toEqual(['320193']);
    expect(sec('MSFT')).toEqual(['789019']);
  });

  it('answers nothing for a company outside the set, and keeps Japanese and SEC companies apart', () => {
    expect(japanese('存在しない会社')).toEqual([]);
    expect(japanese('AAPL')).toEqual([]);
    expect(sec('トヨタ')).toEqual([]);
  });

  it('knows the companies a follow names by their codes, and only those', async () => {
    expect((await directory.japaneseCompany('E02144'))?.tdnetCode).toBe('7203');
    expect(await directory.japaneseCompany('E99999')).toBeUndefined();
    expect((await directory.secCompany('320193'))?.ticker).toBe('AAPL');
    expect(await directory.secCompany('1')).toBeUndefined();
  });

  it('names the issuer of a demo ISIN as GlobeNewswire would, and no other', async () => {
    expect(await findDemoIssuer('JP3633400001')).toBe('TOYOTA MOTOR CORPORATION');
    expect(await findDemoIssuer('US0378331005')).toBe('Apple Inc.');
    expect(await findDemoIssuer('US5949181045')).toBe('MICROSOFT CORP');
    expect(await findDemoIssuer('GB0002634946')).toBeUndefined();
  });
});
