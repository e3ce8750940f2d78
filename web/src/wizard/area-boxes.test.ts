import { describe, expect, it } from 'vitest';
import type { PreviewElement } from '../api/preview.ts';
import {
  boxContains,
  contentLeft,
  elementAround,
  elementAt,
  enclosingArea,
  listedElements,
  listedText,
  overlayOrder,
} from './area-boxes.ts';

const element = (css: string, x: number, y: number, width: number, height: number): PreviewElement => ({
  tag: 'div',
  css,
  xpath: `//*[@id="${css}"]`,
  text: css,
  box: { x, y, width, height },
});

const page = element('body', 0, 0, 1280, 2000);
const card = element('card', 100, 100, 400, 200);
const price = element('price', 120, 150, 100, 30);
const name = element('name', 120, 110, 300, 30);
const hidden = element('hidden', 0, 0, 0, 0);
const elements = [page, card, price, name, hidden];

describe('clicking on the screenshot', () => {
  it('picks the smallest element under the point', () => {
    expect(elementAt(elements, { x: 130, y: 160 })?.css).toBe('price');
    expect(elementAt(elements, { x: 450, y: 250 })?.css).toBe('card');
    expect(elementAt(elements, { x: 900, y: 900 })?.css).toBe('body');
  });

  it('finds nothing outside every box and never picks an empty box', () => {
    expect(elementAt([card, hidden], { x: 0, y: 0 })).toBeUndefined();
  });
});

describe('dragging on the screenshot', () => {
  it('picks the smallest element holding the whole rectangle, whichever way it was dragged', () => {
    expect(elementAround(elements, { x: 125, y: 112 }, { x: 200, y: 175 })?.css).toBe('card');
    expect(elementAround(elements, { x: 210, y: 175 }, { x: 125, y: 155 })?.css).toBe('price');
    expect(elementAround(elements, { x: 90, y: 90 }, { x: 600, y: 400 })?.css).toBe('body');
  });
});

describe('a selection inside an already designated area', () => {
  const areas = [{ id: 'a1', box: card.box, frameKey: '' }];

  it('is found when it lies within the area, including the area itself', () => {
    expect(enclosingArea(areas, price.box, '')?.id).toBe('a1');
    expect(enclosingArea(areas, card.box, '')?.id).toBe('a1');
  });

  it('is not found for a box outside it, one around it, or one in another frame', () => {
    expect(enclosingArea(areas, element('other', 600, 100, 50, 50).box, '')).toBeUndefined();
    expect(enclosingArea(areas, page.box, '')).toBeUndefined();
    expect(enclosingArea(areas, price.box, 'iframe#ads')).toBeUndefined();
  });

  it('forgives half a pixel of rounding at the edges', () => {
    expect(boxContains(card.box, { x: 99.6, y: 100, width: 400.3, height: 200 })).toBe(true);
    expect(boxContains(card.box, { x: 98, y: 100, width: 400, height: 200 })).toBe(false);
  });
});

describe('the overlay', () => {
  it('paints larger boxes first so the smaller box inside is on top, and leaves empty boxes out', () => {
    expect(overlayOrder(elements).map((entry) => entry.css)).toEqual(['body', 'card', 'name', 'price']);
  });
});

describe('the element list', () => {
  const reading = (css: string, text: string): PreviewElement => ({ ...element(css, 0, 0, 10, 10), text });

  it('lists each text once, on one line, by its innermost element at the place of the first', () => {
    const listed = listedElements([
      reading('body', '  Skip to content\n  Sample shop  '),
      reading('main', 'Skip to content Sample shop'),
      reading('h1', 'Sample shop'),
      reading('wrapper', '\tSkip to content   Sample shop\n'),
      reading('empty', '  \n '),
    ]);
    expect(listed.map((entry) => [entry.css, listedText(entry)])).toEqual([
      ['wrapper', 'Skip to content Sample shop'],
      ['h1', 'Sample shop'],
    ]);
  });
});

describe('where a page at actual size starts', () => {
  it('is the leftmost text that is not a full-width wrapper, so a centred page shows its content', () => {
    const wrapper = { ...element('wrapper', 0, 0, 1280, 900), text: 'All of it' };
    const heading = { ...element('heading', 240, 40, 600, 40), text: 'Sample shop' };
    const card = { ...element('card', 200, 120, 300, 200), text: 'Tea ¥1,280' };
    const image = { ...element('image', 10, 120, 100, 100), text: '' };
    const skipLink = { ...element('skip', -9999, 0, 120, 20), text: 'Skip to content' };
    expect(contentLeft([skipLink, wrapper, heading, card, image], 1280)).toBe(200);
    expect(contentLeft([wrapper], 1280)).toBe(0);
  });
});
