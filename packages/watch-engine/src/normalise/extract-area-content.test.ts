import { describe, expect, test } from 'vitest';
import { canonicalMarkup, extractAreaContent } from './extract-area-content.ts';

describe('canonical markup (keep tags)', () => {
  test('attributes are sorted, comments dropped, entities spelled one way', () => {
    const a = '<a href="/x?a=1&amp;b=2" class="c"><!-- built 12:00 -->Tom &amp; Jerry</a>';
    const b = '<a class="c" href="/x?a=1&b=2">Tom & Jerry</a>';
    expect(canonicalMarkup(a)).toBe(canonicalMarkup(b));
    expect(canonicalMarkup(b)).toBe('<a class="c" href="/x?a=1&amp;b=2">Tom &amp; Jerry</a>');
  });

  test('a changed attribute is a change', () => {
    expect(canonicalMarkup('<img src="a.png">')).not.toBe(canonicalMarkup('<img src="b.png">'));
  });

  test('block elements are put on their own lines, implied end tags written out', () => {
    expect(canonicalMarkup('<ul><li>a<li>b</ul>').split('\n').filter(Boolean)).toEqual([
      '<ul>',
      '<li>a</li>',
      '<li>b</li>',
      '</ul>',
    ]);
  });

  test('table cells stand on their own lines, so a diff shows the cell that changed', () => {
    expect(canonicalMarkup('<tr><th>品名</th><td>価格</td></tr>').split('\n').filter(Boolean)).toEqual([
      '<tr>',
      '<th>品名</th>',
      '<td>価格</td>',
      '</tr>',
    ]);
  });

  test('is stable: canonical markup parsed again gives itself', () => {
    const html = '<div id=x><p>a < b &amp; c<br>d<p>e</div><script>if (a < b) {}</script>';
    const once = canonicalMarkup(html);
    expect(canonicalMarkup(once)).toBe(once);
  });
});

describe('extractAreaContent', () => {
  test('prefers the rendered text when tags are stripped', () => {
    expect(extractAreaContent({ html: '<p>hidden<span hidden>x</span></p>', text: 'hidden' }, true)).toBe(
      'hidden',
    );
    expect(extractAreaContent({ html: '<p>a</p>' }, true).trim()).toBe('a');
  });

  test('compares markup when tags are kept, and falls back to the text without markup', () => {
    expect(extractAreaContent({ html: '<b>a</b>', text: 'a' }, false)).toBe('<b>a</b>');
    expect(extractAreaContent({ text: 'a' }, false)).toBe('a');
    expect(extractAreaContent({}, true)).toBe('');
  });
});
