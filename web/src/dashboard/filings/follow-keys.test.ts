import { describe, expect, it } from 'vitest';
import { cikIsinKey, japaneseCompanyKey } from './follow-keys.ts';

describe('follow keys', () => {
  it('match a Japanese option to its follow by EDINET code, whatever the label', () => {
    expect(japaneseCompanyKey({ edinet: 'E02144' })).toBe(japaneseCompanyKey({ edinet: 'E02144' }));
    expect(japaneseCompanyKey({ edinet: 'E02144' })).not.toBe(japaneseCompanyKey({ edinet: 'E02145' }));
  });

  it('match an SEC option to its follow whether or not the CIK is padded', () => {
    expect(cikIsinKey({ cik: '320193', isin: '' })).toBe(cikIsinKey({ cik: '0000320193', isin: '' }));
    expect(cikIsinKey({ cik: '0', isin: '' })).toBe('cik:0');
  });

  it('key an ISIN follow by its ISIN, never confusing it with a CIK', () => {
    expect(cikIsinKey({ cik: '', isin: 'us0378331005' })).toBe('isin:US0378331005');
    expect(cikIsinKey({ cik: '320193', isin: '' })).not.toBe(cikIsinKey({ cik: '', isin: 'US0378331005' }));
  });
});
