import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../port.ts';
import { SLACK_LIMITS, slackLayout, splitText } from './layout.ts';

const longJapaneseDiff = Array.from(
  { length: 400 },
  (_, line) =>
    `${line % 2 ? '+' : '-'} 価格が改定されました（第${line}行）：税込 ¥1,980 → ¥2,180 <お知らせ> & 🍣`,
).join('\n');

function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    kind: 'update',
    lang: 'ja',
    title: '料金ページが更新されました',
    fields: [
      { label: 'サイト', value: 'Acme <料金>' },
      { label: 'エリア', value: '料金表' },
    ],
    body: longJapaneseDiff,
    link: { label: '履歴を見る', url: 'https://mimamori.example/targets/t1/history?update=u1&x=1' },
    images: [],
    ...overrides,
  };
}

function texts(blocks: Record<string, unknown>[]): string[] {
  return blocks.flatMap((block) => {
    const own = (block.text as { text?: string } | undefined)?.text;
    const fields = ((block.fields ?? block.elements ?? []) as { text: string }[]).map((field) => field.text);
    return own === undefined ? fields : [own, ...fields];
  });
}

describe('the Slack layout', () => {
  it("cuts a long Japanese diff to Slack's limits and keeps the title, the facts and the link", () => {
    const layout = slackLayout(message());
    expect(layout.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    for (const text of texts(layout.blocks))
      expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(texts(layout.blocks).join('').length).toBeLessThanOrEqual(SLACK_LIMITS.blocksText);
    expect(texts(layout.blocks)[0]).toBe('*料金ページが更新されました*');
    // mrkdwn takes &, < and > only as entities.
    expect(texts(layout.blocks)).toContain('*サイト*\nAcme &lt;料金&gt;');
    const link = layout.blocks.at(-1) as { text: { text: string } };
    expect(link.text.text).toBe('<https://mimamori.example/targets/t1/history?update=u1&amp;x=1|履歴を見る>');
    expect(texts(layout.blocks)).toContain('…(続きは履歴ページで)');
    // The diff's head is there as written (plain text, no entities).
    const diff = layout.blocks.filter((block) => (block.text as { type?: string })?.type === 'plain_text');
    expect(diff.length).toBe(3);
    expect(
      (diff[0]?.text as { text: string } | undefined)?.text.startsWith(
        '- 価格が改定されました（第0行）：税込 ¥1,980 → ¥2,180 <お知らせ> & 🍣',
      ),
    ).toBe(true);
    expect(layout.text.startsWith('料金ページが更新されました\nサイト: Acme &lt;料金&gt;')).toBe(true);
    expect(layout.text.endsWith('\nhttps://mimamori.example/targets/t1/history?update=u1&x=1')).toBe(true);
  });

  it('shows a short diff whole, without the note, and a message without a diff or link', () => {
    const short = slackLayout(message({ body: '- 旧\n+ 新', lang: 'en' }));
    expect(texts(short.blocks)).toContain('- 旧\n+ 新');
    expect(texts(short.blocks).some((text) => text.includes('history page'))).toBe(false);
    const bare = slackLayout(message({ body: '  ', link: null, fields: [] }));
    expect(bare.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '*料金ページが更新されました*' } },
    ]);
  });

  it('never splits a character made of two UTF-16 units, and cuts at a line break near the end', () => {
    const { pieces, cut } = splitText('🍣'.repeat(10), 3, 2);
    expect(pieces).toEqual(['🍣🍣🍣', '🍣🍣🍣']);
    expect(cut).toBe(true);
    expect(splitText('abcdefgh\nij', 10, 5).pieces).toEqual(['abcdefgh\n', 'ij']);
  });

  it('cuts a title and facts that are too long for their blocks', () => {
    const layout = slackLayout(
      message({ title: '&'.repeat(1_000), fields: [{ label: 'URL', value: '<'.repeat(5_000) }], body: '' }),
    );
    const field = (layout.blocks[1]?.fields as { text: string }[] | undefined)?.[0]?.text ?? '';
    expect(field.length).toBeLessThanOrEqual(SLACK_LIMITS.fieldText);
    expect(field.endsWith('&lt;…')).toBe(true);
    expect(texts(layout.blocks)[0]?.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(texts(layout.blocks)[0]?.endsWith('&amp;…*')).toBe(true);
  });
});
