import { describe, expect, it } from 'vitest';
import { gaugeValue, histogramBuckets, histogramQuantile, rotatingChanges } from './load-figures.ts';

const MINUTE = 60_000;

describe('rotatingChanges', () => {
  it('shows version 1 until the rotation starts, then changes a tenth of the sites each minute', () => {
    let start: number | undefined;
    const pages = rotatingChanges(() => start);
    expect(pages.versionAt(3, 5 * MINUTE)).toBe(1);
    const started = 1_000_000;
    start = started;
    const changedIn = (minute: number) =>
      Array.from({ length: 100 }, (_, n) => n).filter(
        (n) =>
          pages.versionAt(n, started + minute * MINUTE + 1) !==
          pages.versionAt(n, started + minute * MINUTE - 1),
      );
    expect(changedIn(0)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(changedIn(3)).toHaveLength(10);
    expect(changedIn(3).every((n) => n % 10 === 3)).toBe(true);
    expect(pages.versionAt(3, started + 2 * MINUTE)).toBe(1);
    expect(pages.versionAt(3, started + 3 * MINUTE)).toBe(2);
    expect(pages.versionAt(3, started + 13 * MINUTE)).toBe(3);
  });

  it("changes a tenth of each mode's sites each minute when modes take every fifth site", () => {
    const started = 1_000_000;
    const pages = rotatingChanges(() => started, 5);
    const browser = Array.from({ length: 1_000 }, (_, n) => n).filter((n) => n % 5 === 4);
    const http = Array.from({ length: 1_000 }, (_, n) => n).filter((n) => n % 5 !== 4);
    for (let minute = 0; minute < 10; minute++) {
      const changed = (sites: number[]) =>
        sites.filter(
          (n) =>
            pages.versionAt(n, started + minute * MINUTE + 1) !==
            pages.versionAt(n, started + minute * MINUTE - 1),
        );
      expect(changed(browser)).toHaveLength(20);
      expect(changed(http)).toHaveLength(80);
    }
    // Without the stride, the browser sites' changes all fall in two minutes of ten.
    const plain = rotatingChanges(() => started);
    const inMinute = (minute: number) =>
      browser.filter(
        (n) =>
          plain.versionAt(n, started + minute * MINUTE + 1) !==
          plain.versionAt(n, started + minute * MINUTE - 1),
      ).length;
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(inMinute)).toEqual([0, 0, 0, 0, 100, 0, 0, 0, 0, 100]);
  });

  it('dates each version at the minute the page began to show it', () => {
    const start = 5_000_000;
    for (const stride of [1, 5]) {
      const pages = rotatingChanges(() => start, stride);
      for (const [n, version] of [
        [0, 2],
        [7, 2],
        [7, 3],
        [42, 4],
      ] as const) {
        const at = pages.changedAt(n, version);
        expect(pages.versionAt(n, at)).toBe(version);
        expect(pages.versionAt(n, at - 1)).toBe(version - 1);
      }
    }
  });
});

describe('histogramQuantile', () => {
  const text = (counts: [string, number][]) =>
    counts.map(([le, n]) => `lag_seconds_bucket{service="scheduler",le="${le}"} ${n}`).join('\n');

  it('reads the observations between two scrapes, interpolating within the bucket', () => {
    const before = histogramBuckets(
      text([
        ['0.1', 100],
        ['1', 100],
        ['10', 100],
        ['+Inf', 100],
      ]),
      'lag_seconds',
    );
    const after = histogramBuckets(
      text([
        ['0.1', 150],
        ['1', 190],
        ['10', 200],
        ['+Inf', 200],
      ]),
      'lag_seconds',
    );
    // 100 new: 50 up to 0.1 s, 40 in (0.1, 1], 10 in (1, 10].
    expect(histogramQuantile(before, after, 0.5)).toBe(100);
    expect(histogramQuantile(before, after, 0.7)).toBe(550);
    expect(histogramQuantile(before, after, 0.95)).toBe(5_500);
  });

  it('says Infinity past the last finite bound and NaN when nothing was observed', () => {
    const before = histogramBuckets(
      text([
        ['1', 0],
        ['+Inf', 0],
      ]),
      'lag_seconds',
    );
    const after = histogramBuckets(
      text([
        ['1', 90],
        ['+Inf', 100],
      ]),
      'lag_seconds',
    );
    expect(histogramQuantile(before, after, 0.99)).toBe(Number.POSITIVE_INFINITY);
    expect(histogramQuantile(after, after, 0.5)).toBeNaN();
  });
});

describe('reading /metrics', () => {
  const metrics = [
    '# HELP check_seconds Time to fetch and read one check, by fetch mode.',
    'check_seconds_bucket{service="crawler",mode="http",le="1"} 10',
    'check_seconds_bucket{service="crawler",mode="http",le="+Inf"} 10',
    'check_seconds_bucket{service="crawler",mode="browser",le="1"} 1',
    'check_seconds_bucket{service="crawler",mode="browser",le="+Inf"} 4',
    'checks_pending{service="crawler"} 37',
  ].join('\n');

  it('keeps one label value of a histogram apart, or sums them all', () => {
    expect(histogramBuckets(metrics, 'check_seconds', 'mode="browser"')).toEqual(
      new Map([
        [1, 1],
        [Number.POSITIVE_INFINITY, 4],
      ]),
    );
    expect(histogramBuckets(metrics, 'check_seconds').get(Number.POSITIVE_INFINITY)).toBe(14);
  });

  it("reads a gauge's value, NaN when it is not there", () => {
    expect(gaugeValue(metrics, 'checks_pending')).toBe(37);
    expect(gaugeValue(metrics, 'browser_pages')).toBeNaN();
  });
});
