import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine';
import { describe, expect, it } from 'vitest';
import { type CapturedArea, judgeCheck, type RecordedVersion } from './judge-check.ts';
import type { WatchSettings } from './watch-settings.ts';

const captured = (areaId: string, text: string, found = true): CapturedArea => ({
  areaId,
  found,
  html: '',
  text,
  screenshotBlobKey: '',
});
const recorded = (...texts: string[]): RecordedVersion[] => texts.map((text) => ({ html: null, text }));
const settings = (overrides: Partial<WatchSettings> = {}): WatchSettings => ({
  areas: [],
  rules: null,
  screenshot: false,
  ...overrides,
});

describe('judgeCheck', () => {
  it('records every area of the first check without an update', () => {
    const judged = judgeCheck([captured('a', 'one'), captured('b', 'two')], settings(), new Map());
    expect(judged.outcome).toBe('no_change');
    if (judged.outcome !== 'no_change') return;
    expect(judged.record.map((version) => [version.area.areaId, version.normalisedText])).toEqual([
      ['a', 'one'],
      ['b', 'two'],
    ]);
  });

  it('records only an area added since, while the others are unchanged', () => {
    const judged = judgeCheck(
      [captured('a', 'one'), captured('new', 'fresh')],
      settings(),
      new Map([['a', recorded('one')]]),
    );
    expect(judged.outcome).toBe('no_change');
    if (judged.outcome !== 'no_change') return;
    expect(judged.record.map((version) => version.area.areaId)).toEqual(['new']);
  });

  it('reports the changed areas only and records all of them on an update', () => {
    const judged = judgeCheck(
      [captured('a', 'one'), captured('b', 'three')],
      settings(),
      new Map([
        ['a', recorded('one')],
        ['b', recorded('two')],
      ]),
    );
    expect(judged.outcome).toBe('update');
    if (judged.outcome !== 'update') return;
    expect(judged.notify).toBe(true);
    expect(judged.changes).toEqual([
      expect.objectContaining({
        areaId: 'b',
        diffText: '- two\n+ three',
        added: ['three'],
        removed: ['two'],
      }),
    ]);
    expect(judged.record.map((version) => version.area.areaId)).toEqual(['a', 'b']);
  });

  it("names a missing element with the crawler's code", () => {
    const judged = judgeCheck([captured('a', '', false)], settings(), new Map([['a', recorded('one')]]));
    expect(judged).toMatchObject({ outcome: 'error', errorCode: 'element_not_found' });
  });

  it('passes the last versions for exclude-same-as-past, as many as the option asks', () => {
    const versions = new Map([['a', recorded('second', 'first')]]);
    const options = (count: number) =>
      settings({
        areas: [
          { areaId: 'a', options: { ...DEFAULT_AREA_OPTIONS, excludeSameAsPast: { enabled: true, count } } },
        ],
      });
    expect(judgeCheck([captured('a', 'first')], options(2), versions).outcome).toBe('no_change');
    expect(judgeCheck([captured('a', 'first')], options(1), versions).outcome).toBe('update');
  });

  it('applies the rule groups: an update that matches no condition does not notify', () => {
    const judged = judgeCheck(
      [captured('a', 'price 900')],
      settings({
        rules: {
          combine: 'or',
          groups: [
            {
              combine: 'and',
              conditions: [{ areaId: 'a', operand: 'new', operator: 'keyword', value: 'sale' }],
            },
          ],
        },
      }),
      new Map([['a', recorded('price 1000')]]),
    );
    expect(judged).toMatchObject({ outcome: 'update', notify: false, matched: [] });
  });
});
