import { describe, expect, it } from 'vitest';
import { detectFormat, readUrlList } from './url-import.ts';

describe('readUrlList', () => {
  it('reads a plain list, skipping comments and blank lines and reporting bad lines', () => {
    const reading = readUrlList(
      '# my sites\nhttps://a.example/\n\nftp://b.example/\nnot a url\nhttps://a.example/\n',
    );
    expect(reading.format).toBe('list');
    expect(reading.sites).toEqual([{ line: 2, url: 'https://a.example/', label: '' }]);
    expect(reading.problems).toEqual([
      { line: 4, code: 'url_invalid', text: 'ftp://b.example/' },
      { line: 5, code: 'url_invalid', text: 'not a url' },
      { line: 6, code: 'duplicate', text: 'https://a.example/' },
    ]);
  });

  it('reads CSV with a header in any column order and quoted cells', () => {
    const reading = readUrlList('label,url\n"Shop, sale",https://shop.example/sale\nNews,nope\n');
    expect(reading.format).toBe('csv');
    expect(reading.sites).toEqual([{ line: 2, url: 'https://shop.example/sale', label: 'Shop, sale' }]);
    expect(reading.problems).toEqual([{ line: 3, code: 'url_invalid', text: 'nope' }]);
  });

  it('reads CSV without a header by finding the URL cell', () => {
    const reading = readUrlList('https://a.example/,A\nB,https://b.example/\n"open,https://c.example/\n');
    expect(reading.sites.map((site) => [site.url, site.label])).toEqual([
      ['https://a.example/', 'A'],
      ['https://b.example/', 'B'],
    ]);
    expect(reading.problems.map((problem) => problem.code)).toEqual(['syntax_error']);
  });

  it("reads urlwatch's urls.yaml, refusing command jobs", () => {
    const yaml = [
      'name: "Example"',
      'url: "https://example.com/"',
      '---',
      'url: https://example.org/news',
      '---',
      'name: "disk"',
      'command: "df -h"',
      '---',
      'url: "javascript:alert(1)"',
    ].join('\n');
    expect(detectFormat(yaml)).toBe('yaml');
    const reading = readUrlList(yaml);
    expect(reading.sites).toEqual([
      { line: 1, url: 'https://example.com/', label: 'Example' },
      { line: 4, url: 'https://example.org/news', label: '' },
    ]);
    expect(reading.problems).toEqual([
      { line: 6, code: 'unsupported_job', text: 'df -h' },
      { line: 9, code: 'url_invalid', text: 'javascript:alert(1)' },
    ]);
  });
});
