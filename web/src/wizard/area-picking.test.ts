import { describe, expect, it } from 'vitest';
import type { PreviewElement } from '../api/preview.ts';
import {
  elementTree,
  excludedElements,
  exclusionPagePath,
  exclusionSelector,
  labelObstacles,
  placeLabel,
} from './area-boxes.ts';

const element = (
  css: string,
  x: number,
  y: number,
  width: number,
  height: number,
  text = css,
): PreviewElement => ({
  tag: 'p',
  css,
  xpath: '',
  text,
  box: { x, y, width, height },
});

const page = { width: 1000, height: 800 };
const tag = { width: 80, height: 20 };

describe('the tree the keys walk', () => {
  it('hangs each element from the nearest earlier element whose box holds it', () => {
    const elements = [
      element('body', 0, 0, 1000, 800),
      element('#card', 20, 20, 400, 200),
      element('#card > h2', 30, 30, 300, 30),
      element('#card > p:nth-of-type(1)', 30, 70, 300, 30),
      element('#footer', 20, 300, 400, 30),
    ];
    expect(elementTree(elements)).toEqual({
      parent: [-1, 0, 1, 1, 0],
      children: [[1, 4], [2, 3], [], [], []],
    });
  });
});

describe('where a name or tag goes beside a box', () => {
  it('goes above the box, outside it, so the text inside stays readable', () => {
    expect(placeLabel({ x: 100, y: 100, width: 200, height: 40 }, tag, page)).toEqual({
      x: 100,
      y: 78,
      side: 'above',
    });
  });

  it('goes below a box at the top of the page', () => {
    expect(placeLabel({ x: 100, y: 0, width: 200, height: 40 }, tag, page)).toEqual({
      x: 100,
      y: 42,
      side: 'below',
    });
  });

  it('avoids the text next to the box when another side is free', () => {
    const heading = { x: 90, y: 60, width: 300, height: 35 };
    expect(placeLabel({ x: 100, y: 100, width: 200, height: 40 }, tag, page, [heading]).side).toBe('below');
  });

  it('never covers the box: with text all around, it takes the side covering least, still outside', () => {
    const box = { x: 100, y: 100, width: 200, height: 40 };
    const around = [
      { x: 0, y: 60, width: 1000, height: 38 },
      { x: 0, y: 142, width: 1000, height: 30 },
      { x: 302, y: 0, width: 698, height: 800 },
    ];
    const place = placeLabel(box, tag, page, around);
    expect(place.side).toBe('left');
    expect(place.x + tag.width).toBeLessThanOrEqual(box.x);
  });

  it('keeps clear of another tag even where that means covering some text', () => {
    const box = { x: 100, y: 100, width: 200, height: 40 };
    const text = [{ x: 90, y: 60, width: 300, height: 35 }];
    const areaName = placeLabel(box, tag, page, text);
    expect(areaName.side).toBe('below');
    const pointerTag = placeLabel(box, tag, page, text, [{ ...areaName, ...tag }]);
    expect(pointerTag.side).toBe('right');
  });

  it('is kept on the page at its right edge', () => {
    const place = placeLabel({ x: 960, y: 100, width: 40, height: 40 }, tag, page);
    expect(place).toEqual({ x: 920, y: 78, side: 'above' });
  });

  it('goes inside only a box that fills the page', () => {
    expect(placeLabel({ x: 0, y: 0, width: 1000, height: 800 }, tag, page).side).toBe('inside');
  });

  it('counts as obstacles the text beside the box, not its ancestors nor what is inside it', () => {
    const elements = [
      element('body', 0, 0, 1000, 800),
      element('#price', 100, 100, 200, 40),
      element('#price > span', 110, 105, 50, 20),
      element('#name', 100, 60, 200, 30),
      element('#empty', 100, 150, 200, 30, ' '),
    ];
    expect(labelObstacles(elements, { x: 100, y: 100, width: 200, height: 40 })).toEqual([
      { x: 100, y: 60, width: 200, height: 30 },
    ]);
  });
});

describe('excluded elements', () => {
  it('are stored relative to the area when their path runs through it, otherwise by their own id path', () => {
    expect(exclusionSelector('#card', '#card > p:nth-of-type(2)')).toBe(':scope > p:nth-of-type(2)');
    expect(
      exclusionSelector(
        'html > body > div:nth-of-type(1)',
        'html > body > div:nth-of-type(1) > p:nth-of-type(1)',
      ),
    ).toBe(':scope > p:nth-of-type(1)');
    expect(exclusionSelector('#card', '#stamp')).toBe('#stamp');
    // A prefix of the area's path that is not a step of it is no ancestor.
    expect(exclusionSelector('#card', '#cards > p:nth-of-type(1)')).toBe('#cards > p:nth-of-type(1)');
  });

  it('are found again on the picture to be masked', () => {
    expect(exclusionPagePath('#card', ':scope > p:nth-of-type(2)')).toBe('#card > p:nth-of-type(2)');
    const elements = [
      element('#card', 20, 20, 400, 200),
      element('#card > p:nth-of-type(2)', 30, 70, 300, 30),
      element('#stamp', 30, 120, 300, 30),
      element('#other', 500, 20, 100, 30),
    ];
    expect(
      excludedElements('#card', [':scope > p:nth-of-type(2)', '#stamp'], elements).map((e) => e.css),
    ).toEqual(['#card > p:nth-of-type(2)', '#stamp']);
  });
});
