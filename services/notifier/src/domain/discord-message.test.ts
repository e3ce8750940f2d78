import { describe, expect, it } from 'vitest';
import { discordMessage, EMBED_LIMITS } from './discord-message.ts';
import type { UpdateNotice } from './update-notice.ts';

const notice = (overrides: Partial<UpdateNotice> = {}): UpdateNotice => ({
  label: '価格ページ',
  url: 'https://shop.example.jp/price',
  lang: 'en',
  timezone: 'Asia/Tokyo',
  detectedAt: new Date('2026-11-23T14:05:00Z'),
  summary: '1,200円 → 980円 (−18 %)',
  areas: [{ areaId: 'price', label: '', diffText: '- 1,200円\n+ 980円', summary: '1,200円 → 980円 (−18 %)' }],
  areaLabels: {},
  historyUrl: '',
  matched: [],
  images: [],
  ...overrides,
});

function embedLength(message: ReturnType<typeof discordMessage>): number {
  const embed = message.payload.embeds[0];
  if (!embed) return 0;
  return (
    embed.title.length +
    embed.description.length +
    embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}

describe('Discord message of an update', () => {
  it('keeps a short diff whole and says there were no rules', () => {
    const message = discordMessage(notice());
    expect(message.payload.content).toBe('1,200円 → 980円 (−18 %)');
    expect(message.payload.embeds[0]?.description).toContain('- 1,200円\n+ 980円');
    expect(message.payload.embeds[0]?.fields[2]?.value).toBe('(no rules: every update is announced)');
    expect(message.files).toEqual([]);
    expect(message.payload.attachments).toEqual([]);
  });

  it('trims a long diff, many rules and a long label within Discord’s limits, with a note', () => {
    const message = discordMessage(
      notice({
        label: 'L'.repeat(400),
        areas: [
          { areaId: 'a', label: '', diffText: `+ ${'x'.repeat(5_000)}`, summary: '' },
          { areaId: 'b', label: '', diffText: `- ${'y'.repeat(5_000)}`, summary: '' },
        ],
        matched: Array.from({ length: 40 }, (_, index) => ({
          groupIndex: 0,
          conditionIndex: index,
          areaId: 'a',
          operand: 'new',
          operator: 'keyword',
          value: 'z'.repeat(40),
        })),
      }),
    );
    const embed = message.payload.embeds[0];
    expect(embed?.title.length).toBeLessThanOrEqual(EMBED_LIMITS.title);
    expect(embed?.description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
    expect(embed?.description).toMatch(/characters shown; the history has the whole diff\)$/);
    // Every code block that was opened is closed, so the note is not shown as code.
    expect((embed?.description.match(/```/g) ?? []).length % 2).toBe(0);
    expect(embed?.description).toContain('x'.repeat(1_000));
    for (const field of embed?.fields ?? [])
      expect(field.value.length).toBeLessThanOrEqual(EMBED_LIMITS.fieldValue);
    expect(embedLength(message)).toBeLessThanOrEqual(EMBED_LIMITS.total);
  });

  it('uploads the pictures as files the embed refers to', () => {
    const message = discordMessage(
      notice({
        images: [
          { name: 'before', data: Uint8Array.of(1), contentType: 'image/webp' },
          { name: 'after', data: Uint8Array.of(2), contentType: 'image/png' },
        ],
      }),
    );
    expect(message.payload.attachments.map((entry) => [entry.id, entry.filename])).toEqual([
      [0, 'before.webp'],
      [1, 'after.png'],
    ]);
    expect(message.payload.embeds[0]?.image?.url).toBe('attachment://after.png');
    expect(message.payload.embeds[0]?.thumbnail?.url).toBe('attachment://before.webp');
  });
});
