import type { Box, PreviewElement } from '../api/preview.ts';

export type Point = { x: number; y: number };

const areaOf = (box: Box) => Math.max(0, box.width) * Math.max(0, box.height);

/** Whether `inner` lies within `outer` (edges may touch; half a pixel of rounding is forgiven). */
export function boxContains(outer: Box, inner: Box): boolean {
  const slack = 0.5;
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

function containsPoint(box: Box, point: Point): boolean {
  return (
    point.x >= box.x && point.y >= box.y && point.x <= box.x + box.width && point.y <= box.y + box.height
  );
}

/** The element a click at `point` means: the smallest visible element under it. */
export function elementAt(elements: readonly PreviewElement[], point: Point): PreviewElement | undefined {
  let best: PreviewElement | undefined;
  for (const element of elements) {
    if (areaOf(element.box) === 0 || !containsPoint(element.box, point)) continue;
    if (!best || areaOf(element.box) < areaOf(best.box)) best = element;
  }
  return best;
}

/**
 * The element a drag from `from` to `to` means: the smallest element that holds the whole dragged
 * rectangle, so dragging around a price and its label picks their common box.
 */
export function elementAround(
  elements: readonly PreviewElement[],
  from: Point,
  to: Point,
): PreviewElement | undefined {
  const dragged = rectangle(from, to);
  let best: PreviewElement | undefined;
  for (const element of elements) {
    if (areaOf(element.box) === 0 || !boxContains(element.box, dragged)) continue;
    if (!best || areaOf(element.box) < areaOf(best.box)) best = element;
  }
  return best;
}

export function rectangle(from: Point, to: Point): Box {
  return {
    x: Math.min(from.x, to.x),
    y: Math.min(from.y, to.y),
    width: Math.abs(to.x - from.x),
    height: Math.abs(to.y - from.y),
  };
}

/** The designated area a new selection would fall inside of (refused, docs/product.md#areas), if any. */
export function enclosingArea<Area extends { box: Box | null; frameKey: string }>(
  areas: readonly Area[],
  box: Box,
  frameKey: string,
): Area | undefined {
  return areas.find((area) => area.box !== null && area.frameKey === frameKey && boxContains(area.box, box));
}

/**
 * Elements in paint order for the overlay: larger boxes first, so a smaller box inside another is
 * drawn on top and takes the click.
 */
export function overlayOrder(elements: readonly PreviewElement[]): PreviewElement[] {
  return elements.filter((element) => areaOf(element.box) > 0).sort((a, b) => areaOf(b.box) - areaOf(a.box));
}

/** The element list's words for an element: its text on one line, whitespace collapsed. */
export function listedText(element: PreviewElement): string {
  return element.text.replace(/\s+/g, ' ').trim();
}

/**
 * The area step's element list: elements with text, once per text. A wrapper and the element
 * inside it often read the same ("Skip to content Mimamori Sample shop…" for body, main and
 * a div); the innermost, last in document order, is the one worth watching, so it is kept, at
 * the place of the first.
 */
export function listedElements(elements: readonly PreviewElement[]): PreviewElement[] {
  const byText = new Map<string, PreviewElement>();
  for (const element of elements) {
    const text = listedText(element);
    if (text !== '') byText.set(text, element);
  }
  return [...byText.values()];
}

/**
 * Where a page's content starts from the left, in CSS pixels: the leftmost element with text that
 * is not a full-width wrapper. A centred desktop page shown at actual size on a phone scrolls
 * there first, instead of showing the empty margin at its left edge.
 */
export function contentLeft(elements: readonly PreviewElement[], pageWidth: number): number {
  let left = Number.POSITIVE_INFINITY;
  for (const element of elements) {
    const { x, y, width, height } = element.box;
    if (width <= 0 || width >= pageWidth * 0.9) continue;
    // Off the page (a skip link parked at -9999 px, say): nothing a person sees starts there.
    if (x < 0 || y + height <= 0 || x + width > pageWidth) continue;
    if (listedText(element) === '') continue;
    left = Math.min(left, x);
  }
  return Number.isFinite(left) ? left : 0;
}

/**
 * The page's element tree as the preview's boxes tell it: the crawler lists elements in document
 * order, so an element's parent is the nearest element before it whose box holds its box (an
 * element drawn outside its parent, absolutely placed, hangs from the nearest one that holds it).
 * -1 is the root.
 */
export function elementTree(elements: readonly PreviewElement[]): { parent: number[]; children: number[][] } {
  const parent = elements.map(() => -1);
  const children: number[][] = elements.map(() => []);
  for (let index = 0; index < elements.length; index++) {
    const box = (elements[index] as PreviewElement).box;
    for (let before = index - 1; before >= 0; before--) {
      if (boxContains((elements[before] as PreviewElement).box, box)) {
        parent[index] = before;
        (children[before] as number[]).push(index);
        break;
      }
    }
  }
  return { parent, children };
}

/** Where a tag drawn next to a box goes: outside the box, so the box's own text stays readable. */
export type LabelPlace = { x: number; y: number; side: 'above' | 'below' | 'right' | 'left' | 'inside' };

/**
 * Places a label of `size` beside `box` on a page of `page` size: above, below, right or left of it,
 * whichever stays on the page and covers the least of the `obstacles` (other text on the page), in
 * that order on a tie. Only a box as large as the page, with nowhere outside it, gets its label
 * inside, in its top left corner.
 */
export function placeLabel(
  box: Box,
  size: { width: number; height: number },
  page: { width: number; height: number },
  obstacles: readonly Box[] = [],
  /** Other tags: covering one hides it whole, so each counts far more than text does. */
  tags: readonly Box[] = [],
): LabelPlace {
  const gap = 2;
  const clampX = (x: number) => Math.max(0, Math.min(x, page.width - size.width));
  const clampY = (y: number) => Math.max(0, Math.min(y, page.height - size.height));
  const candidates: LabelPlace[] = [
    { x: clampX(box.x), y: box.y - size.height - gap, side: 'above' },
    { x: clampX(box.x), y: box.y + box.height + gap, side: 'below' },
    { x: box.x + box.width + gap, y: clampY(box.y), side: 'right' },
    { x: box.x - size.width - gap, y: clampY(box.y), side: 'left' },
  ];
  const onPage = (place: LabelPlace) =>
    place.x >= 0 &&
    place.y >= 0 &&
    place.x + size.width <= page.width &&
    place.y + size.height <= page.height;
  const overlap = (place: LabelPlace) =>
    obstacles.reduce((sum, obstacle) => sum + intersection({ ...place, ...size }, obstacle), 0) +
    tags.reduce((sum, tag) => sum + 100 * intersection({ ...place, ...size }, tag), 0);
  let best: LabelPlace | undefined;
  let bestOverlap = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (!onPage(candidate)) continue;
    const covered = overlap(candidate);
    if (covered < bestOverlap) {
      best = candidate;
      bestOverlap = covered;
    }
  }
  return best ?? { x: Math.max(0, box.x), y: Math.max(0, box.y), side: 'inside' };
}

function intersection(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * The text a label beside `box` should not cover: the boxes of elements with text that neither
 * hold the box (its ancestors are under every place around it) nor lie inside it.
 */
export function labelObstacles(elements: readonly PreviewElement[], box: Box): Box[] {
  return elements
    .filter(
      (element) =>
        listedText(element) !== '' &&
        areaOf(element.box) > 0 &&
        !boxContains(element.box, box) &&
        !boxContains(box, element.box),
    )
    .map((element) => element.box);
}

/**
 * The selector an excluded element is stored under (docs/product.md#areas): relative to its area
 * (`:scope > …`) when the element's path runs through the area's, otherwise its own path, which
 * then starts at an id inside the area. Either runs on the area's markup and in the browser.
 */
export function exclusionSelector(areaCss: string, elementCss: string): string {
  const prefix = `${areaCss} > `;
  return elementCss.startsWith(prefix) ? `:scope > ${elementCss.slice(prefix.length)}` : elementCss;
}

/** The page-wide selector an excluded element's stored selector stands for, inside the area. */
export function exclusionPagePath(areaCss: string, selector: string): string {
  return selector.startsWith(':scope > ') ? `${areaCss} > ${selector.slice(':scope > '.length)}` : selector;
}

/** The preview's elements an area excludes, to be masked on the picture. */
export function excludedElements(
  areaCss: string,
  selectors: readonly string[],
  elements: readonly PreviewElement[],
): PreviewElement[] {
  const paths = new Set(selectors.map((selector) => exclusionPagePath(areaCss, selector)));
  return elements.filter((element) => paths.has(element.css));
}
