import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../port.ts';
import { CHATWORK_BODY_LIMIT, chatworkBody, neutraliseNotation } from './chatwork-message.ts';

const message = (body: string): ChatMessage => ({
  kind: 'update',
  lang: 'en',
  title: 'Price changed | Shop',
  fields: [
    { label: 'Site', value: 'https://shop.example/' },
    { label: 'Empty', value: '' },
  ],
  body,
  link: { label: 'Open the history', url: 'https://mimamori.example/target2?id=t1' },
  images: [],
});

describe('a message in Chatwork notation', () => {
  it('puts the title, the facts, a rule, the change and the link in one info box', () => {
    expect(chatworkBody(message('- 1\n+ 2'))).toBe(
      '[info][title]Price changed | Shop[/title]Site: https://shop.example/\n[hr]- 1\n+ 2\nOpen the history: https://mimamori.example/target2?id=t1[/info]',
    );
  });

  it('cuts only the change, on a character, and says so, within the limit', () => {
    const body = chatworkBody(message('🍣'.repeat(40_000)));
    expect(Array.from(body).length).toBeLessThanOrEqual(CHATWORK_BODY_LIMIT);
    expect(body).toContain('… (cut; the rest is on the history page)');
    expect(body.endsWith('Open the history: https://mimamori.example/target2?id=t1[/info]')).toBe(true);
    // No lone half of a surrogate pair is left at the cut.
    expect(body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('keeps a page’s own text from closing the box or opening a tag', () => {
    expect(neutraliseNotation('[/info][To:1] [hr] [x]')).toBe('[\u200b/info][\u200bTo:1] [\u200bhr] [x]');
  });
});
