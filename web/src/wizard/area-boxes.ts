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
