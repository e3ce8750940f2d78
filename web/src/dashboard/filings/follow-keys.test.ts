import { describe, expect, it } from 'vitest';
import { cikIsinKey, cikKey, isinKey, japaneseCompanyKey } from './follow-keys.ts';

describe('follow keys', () => {
  it('match a Japanese option to its follow by EDINET code', () => {
    expect(japaneseCompanyKey({ edinet: 'E02144' })).toBe('edinet:E02144');
    expect(japaneseCompanyKey({ edinet: 'E02144' })).not.toBe(japaneseCompanyKey({ edinet: 'E02145' }));
  });

  it('match an SEC option to its follow whether or not the CIK is padded', () => {
    expect(cikKey({ cik: '320193' })).toBe(cikIsinKey({ cik: '0000320193', isin: '' }));
    expect(cikKey({ cik: '0' })).toBe('cik:0');
  });

  it('match an ISIN option to its follow, whatever the case', () => {
    expect(isinKey({ isin: 'us0378331005' })).toBe(cikIsinKey({ cik: '', isin: 'US0378331005' }));
  });

  it('never confuse an ISIN follow with an SEC one', () => {
    expect(cikIsinKey({ cik: '320193', isin: '' })).not.toBe(cikIsinKey({ cik: '', isin: 'US0378331005' }));
  });
});
