import { type Handler, Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { generateCrawlerPages } from '../../../../bench/fixtures/crawler-pages.ts';
import { SkimmingTokenizer } from './skimming-tokenizer.ts';

// Everything a parser reports, with the offsets it reports it at, so any drift shows.
function events(html: string, options: { skimming: boolean; chunk?: number; decodeEntities?: boolean }) {
  const seen: unknown[] = [];
  let parser: Parser | undefined;
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      seen.push([name, parser?.startIndex, parser?.endIndex, ...args]);
  const handler: Partial<Handler> = {
    onopentag: record('open'),
    onclosetag: record('close'),
    ontext: record('text'),
    oncomment: record('comment'),
    oncdatastart: record('cdata'),
    onprocessinginstruction: record('pi'),
    onattribute: record('attribute'),
  };
  parser = new Parser(handler, {
    decodeEntities: options.decodeEntities ?? true,
    ...(options.skimming ? { Tokenizer: SkimmingTokenizer } : {}),
  });
  const chunk = options.chunk ?? html.length;
  for (let from = 0; from < html.length; from += chunk) parser.write(html.slice(from, from + chunk));
  parser.end();
  return seen;
}

const edgeCases = [
  'plain text only, no markup at all',
  'text &amp; entities &lt;b&gt; &#x3042;&#12354; &nbsp;&notanentity; & lone ampersand &',
  '<p title="a &amp; b" data-x=\'single &quot; quoted\' data-y=unquoted&amp;z>attr entities</p>',
  '<div class="a"b="c" d=\'e"f\' g="h\'i">quotes inside the other quotes</div>',
  '<title>RCDATA &amp; <b>not a tag</b></title><textarea>a &lt; b</textarea>',
  '<script>if (a < b && c > d) document.write("</div>")</script><style>a>b{}</style>',
  '<!-- a comment with <div> and & in it --><![CDATA[ <x> & ]]><!doctype html><?pi x?>',
  '<p>unclosed <b>bold <i>italic<p>next &',
  '<template><li>in a template</li></template><svg><path d="M0 0"/></svg>&',
  '<a href="?a=1&b=2&amp;c=3">link</a> trailing text &copy',
  '<div id="x">text ending in an attribute value "unterminated',
  '<ul><li>one<li>two</ul>&#',
];

describe('SkimmingTokenizer', () => {
  it('reports what htmlparser2 reports, at the same offsets, on hand-written edge cases', () => {
    for (const html of edgeCases) {
      for (const decodeEntities of [true, false]) {
        for (const chunk of [html.length, 7, 1]) {
          expect(events(html, { skimming: true, chunk, decodeEntities }), `${html} / ${chunk}`).toEqual(
            events(html, { skimming: false, chunk, decodeEntities }),
          );
        }
      }
    }
  });

  it("reports what htmlparser2 reports on the crawler bench's pages, whole and in network-sized pieces", () => {
    const pages = generateCrawlerPages(40);
    for (const page of pages) {
      for (const chunk of [page.html.length, 4_096]) {
        const html = page.html.replace('<h2>', '<h2 title="R&amp;D">&amp; ');
        expect(events(html, { skimming: true, chunk })).toEqual(events(html, { skimming: false, chunk }));
      }
    }
  });

  it('reports what htmlparser2 reports on random markup', () => {
    // Deterministic pieces that put '<', '&' and quotes in every state the skimming touches.
    const pieces = [
      '<p>',
      '</p>',
      '<a href="',
      '"',
      "'",
      '&amp;',
      '&',
      '<',
      '>',
      'text ',
      'あ',
      '<br/>',
      '=',
      ' ',
      '<DiV data-X',
      '</sPaN ',
      '/',
      '\n',
    ];
    let state = 42;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    for (let run = 0; run < 300; run += 1) {
      const html = Array.from({ length: 40 }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(events(html, { skimming: true, chunk: 5 }), html).toEqual(
        events(html, { skimming: false, chunk: 5 }),
      );
      expect(events(html, { skimming: true }), html).toEqual(events(html, { skimming: false }));
    }
  });
});
