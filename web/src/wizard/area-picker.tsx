import {
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Box, PreviewElement, PreviewRender } from '../api/preview.ts';
import {
  elementAround,
  elementAt,
  elementTree,
  excludedElements,
  labelObstacles,
  listedText,
  overlayOrder,
  type Point,
  placeLabel,
  rectangle,
} from './area-boxes.ts';
import type { AreaDraft } from './wizard-draft.ts';

/** A pointer that moved less than this (CSS px on screen) clicked rather than dragged. */
const DRAG_THRESHOLD = 6;
/** A tag's size on screen (CSS px): one line of small text; its width is estimated from its length. */
const TAG_HEIGHT = 20;
const tagWidth = (text: string) => Math.min(260, 12 + [...text].length * 7.5);

/**
 * The screenshot with the crawler's element map over it, at the page's own size unless zoomed out.
 * As a browser's inspector does, the element under the pointer (or the keyboard's) is outlined
 * with a tag naming it, put beside it so its text stays readable; the arrow keys and the buttons
 * under the picture move to its parent, child or siblings. A click chooses the element (a tap only
 * outlines it: the Choose button chooses), and a drag chooses the smallest element around the
 * dragged rectangle. Chosen areas are outlined with their names beside them, and the elements they
 * exclude are masked.
 */
export function AreaPicker({
  render,
  areas,
  picking,
  zoomedOut,
  excluding,
  onChoose,
  onEscape,
  scrollRef,
}: {
  render: PreviewRender;
  areas: readonly AreaDraft[];
  picking: boolean;
  /** The page fitted to the preview's width rather than at its own size. */
  zoomedOut: boolean;
  /** The area whose elements a choice now excludes; undefined when a choice adds an area. */
  excluding?: AreaDraft | undefined;
  onChoose: (element: PreviewElement) => void;
  onEscape?: () => void;
  /** The scrolling box around the picture, which the wizard scrolls to where the page's text starts. */
  scrollRef?: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const surface = useRef<HTMLDivElement>(null);
  const outline = useRef<HTMLDivElement>(null);
  // The drag lives in a ref, read and written as each pointer event comes: a handler sees state
  // only as of the last render, and on a busy machine a quick drag's pointerup can come before the
  // moves were rendered, so the drag read from state looked unmoved and picked nothing. The state
  // only draws the rectangle.
  const drag = useRef<{ from: Point; to: Point; screenFrom: Point; moved: boolean }>(undefined);
  const [shown, setShown] = useState<{ from: Point; to: Point }>();
  const dragged = useRef(false);
  const touched = useRef(false);
  const [pointed, setPointed] = useState<number>();
  const [keyed, setKeyed] = useState(false);
  // Screen pixels per page pixel: tags are drawn at screen size but placed in page coordinates.
  const [shownScale, setShownScale] = useState(1);
  const elements = useMemo(() => (picking ? overlayOrder(render.elements) : []), [picking, render]);
  const tree = useMemo(() => elementTree(render.elements), [render]);
  const indexOf = useMemo(() => new Map(render.elements.map((element, index) => [element, index])), [render]);
  const frameKey = render.frame?.selector ?? '';
  const pageWidth = render.image_width / render.scale;
  const pageHeight = render.image_height / render.scale;
  const page = { width: pageWidth, height: pageHeight };
  const current = pointed === undefined ? undefined : render.elements[pointed];

  useEffect(() => {
    const node = surface.current;
    if (!node) return;
    const measure = () => setShownScale(node.clientWidth > 0 ? node.clientWidth / pageWidth : 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [pageWidth]);
  // A key or button that moved the outline brings it into view; the pointer already is there.
  useEffect(() => {
    if (keyed && pointed !== undefined)
      outline.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [keyed, pointed]);

  const placed = (box: Box) => ({
    left: `${(box.x / pageWidth) * 100}%`,
    top: `${(box.y / pageHeight) * 100}%`,
    width: `${(box.width / pageWidth) * 100}%`,
    height: `${(box.height / pageHeight) * 100}%`,
  });
  /**
   * A tag beside `box`, placed where it covers the least text (see placeLabel) and none of the
   * `taken` tags already drawn.
   */
  const tagPlace = (box: Box, text: string, taken: readonly Box[] = []) => {
    const size = { width: tagWidth(text) / shownScale, height: TAG_HEIGHT / shownScale };
    const place = placeLabel(box, size, page, labelObstacles(render.elements, box), taken);
    return {
      rect: { x: place.x, y: place.y, ...size },
      style: { left: `${(place.x / pageWidth) * 100}%`, top: `${(place.y / pageHeight) * 100}%` },
    };
  };

  const pagePoint = (event: PointerEvent): Point => {
    const bounds = surface.current?.getBoundingClientRect();
    if (!bounds || bounds.width === 0) return { x: 0, y: 0 };
    return {
      x: ((event.clientX - bounds.left) / bounds.width) * pageWidth,
      y: ((event.clientY - bounds.top) / bounds.height) * pageHeight,
    };
  };

  const moveTo = (index: number | undefined) => {
    if (index === undefined || index < 0) return;
    setKeyed(true);
    setPointed(index);
  };
  const parentOf = (index: number) => tree.parent[index];
  const firstChildOf = (index: number) => tree.children[index]?.[0];
  const siblingOf = (index: number, step: number) => {
    const parent = tree.parent[index] ?? -1;
    const siblings = parent < 0 ? tree.parent.flatMap((p, i) => (p < 0 ? [i] : [])) : tree.children[parent];
    const at = siblings?.indexOf(index) ?? -1;
    return at < 0 ? undefined : siblings?.[at + step];
  };
  /** Where the keyboard starts: the first element with text inside the page's top element. */
  const startIndex = () => {
    const start = render.elements.findIndex(
      (element, index) => index > 0 && listedText(element) !== '' && element.box.width < pageWidth * 0.95,
    );
    return Math.max(start, 0);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!picking) return;
    const at = pointed ?? -1;
    let move: number | undefined | null = null;
    if (event.key === 'ArrowUp') move = at < 0 ? startIndex() : parentOf(at);
    else if (event.key === 'ArrowDown') move = at < 0 ? startIndex() : firstChildOf(at);
    else if (event.key === 'ArrowLeft') move = at < 0 ? startIndex() : siblingOf(at, -1);
    else if (event.key === 'ArrowRight') move = at < 0 ? startIndex() : siblingOf(at, 1);
    if (move !== null) {
      event.preventDefault();
      moveTo(move);
    } else if ((event.key === 'Enter' || event.key === ' ') && current) {
      event.preventDefault();
      onChoose(current);
    } else if (event.key === 'Escape' && onEscape) {
      onEscape();
    }
  };

  const onPointerDown = (event: PointerEvent) => {
    touched.current = event.pointerType === 'touch';
    // A finger on the picture scrolls the page; it outlines by tapping an element, not by dragging.
    if (!picking || event.button !== 0 || event.pointerType === 'touch') return;
    const point = pagePoint(event);
    dragged.current = false;
    drag.current = {
      from: point,
      to: point,
      screenFrom: { x: event.clientX, y: event.clientY },
      moved: false,
    };
  };
  const onPointerMove = (event: PointerEvent) => {
    const dragging = drag.current;
    if (!dragging) {
      if (picking && event.pointerType !== 'touch') {
        const under = elementAt(render.elements, pagePoint(event));
        setKeyed(false);
        setPointed(under ? indexOf.get(under) : undefined);
      }
      return;
    }
    const moved =
      dragging.moved ||
      Math.hypot(event.clientX - dragging.screenFrom.x, event.clientY - dragging.screenFrom.y) >=
        DRAG_THRESHOLD;
    if (moved && !dragging.moved) event.currentTarget.setPointerCapture?.(event.pointerId);
    dragging.to = pagePoint(event);
    dragging.moved = moved;
    if (moved) setShown({ from: dragging.from, to: dragging.to });
  };
  const endDrag = () => {
    const ended = drag.current;
    drag.current = undefined;
    setShown(undefined);
    return ended;
  };
  const onPointerUp = (event: PointerEvent) => {
    const ended = endDrag();
    if (!ended?.moved) return;
    // The click that follows a drag must not pick the element under the pointer as well.
    dragged.current = true;
    const element = elementAround(render.elements, ended.from, pagePoint(event));
    if (element) onChoose(element);
  };

  const describe = (element: PreviewElement) =>
    listedText(element).slice(0, 60) || t('wizard.areas.elementWithoutText', { tag: element.tag });
  const tagText = (element: PreviewElement) =>
    `${element.tag} ${Math.round(element.box.width)}×${Math.round(element.box.height)}`;
  const chooseLabel = excluding ? 'wizard.picker.exclude' : 'wizard.picker.choose';
  const shownAreas = areas.filter((area) => area.box && area.frameKey === frameKey);
  // Names of the areas first; the pointer's tag then goes where none of them is.
  const areaTags: { area: AreaDraft; tag: ReturnType<typeof tagPlace> }[] = [];
  for (const area of shownAreas) {
    areaTags.push({
      area,
      tag: tagPlace(
        area.box as Box,
        area.label,
        areaTags.map(({ tag }) => tag.rect),
      ),
    });
  }

  return (
    <div className="picker">
      {picking && (
        <div className="picker-tools">
          <p id={hintId} className="picker-hint">
            {t(excluding ? 'wizard.picker.hintExcluding' : 'wizard.picker.hint', { label: excluding?.label })}
          </p>
          <div className="picker-buttons">
            <button
              type="button"
              className="button small"
              disabled={
                current === undefined ||
                parentOf(pointed ?? -1) === undefined ||
                parentOf(pointed ?? -1) === -1
              }
              onClick={() => moveTo(parentOf(pointed ?? -1))}
            >
              {t('wizard.picker.parent')}
            </button>
            <button
              type="button"
              className="button small"
              disabled={current === undefined || firstChildOf(pointed ?? -1) === undefined}
              onClick={() => moveTo(firstChildOf(pointed ?? -1))}
            >
              {t('wizard.picker.child')}
            </button>
            <button
              type="button"
              className="button small primary"
              disabled={current === undefined}
              onClick={() => current && onChoose(current)}
            >
              {t(chooseLabel)}
            </button>
          </div>
          <p className="picker-current" aria-live="polite">
            {current ? t('wizard.picker.outlined', { tag: current.tag, text: describe(current) }) : ''}
          </p>
        </div>
      )}
      {/* Scrolls on its own; focusable so keyboard users can scroll a long page. */}
      <section
        ref={scrollRef}
        className="preview-scroll"
        // While picking, the picture inside takes the keys (and scrolls to what they outline).
        tabIndex={picking ? -1 : 0}
        aria-label={t('wizard.preview.scrollLabel')}
      >
        {/* The surface turns drags into choices and takes the arrow keys; every element is also a
          button, and the element list beside it is another way in. */}
        {/* biome-ignore lint/a11y/useSemanticElements: a picture one points into, not a set of form fields */}
        <div
          ref={surface}
          className={picking ? 'area-surface picking' : 'area-surface'}
          data-tour={picking ? 'area-picker' : undefined}
          style={zoomedOut ? undefined : { width: `${pageWidth}px` }}
          role="group"
          aria-label={t('wizard.picker.surface')}
          aria-describedby={picking ? hintId : undefined}
          tabIndex={picking ? 0 : undefined}
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={endDrag}
          // Leaving the picture keeps the outline: the Parent, Child and Choose buttons under it
          // act on the element last pointed at, as an inspector's toolbar does.
        >
          <img
            className="area-screenshot"
            src={render.screenshot}
            width={render.image_width}
            height={render.image_height}
            alt={t('wizard.preview.screenshotAlt', { url: render.url })}
            draggable={false}
          />
          {elements.map((element) => (
            <button
              key={`${element.css}|${element.box.x}|${element.box.y}`}
              type="button"
              tabIndex={-1}
              className="area-element"
              style={placed(element.box)}
              aria-label={element.text.trim() || t('wizard.areas.elementWithoutText', { tag: element.tag })}
              onClick={() => {
                if (dragged.current) {
                  dragged.current = false;
                  return;
                }
                // A tap outlines; the Choose button under the picture chooses what is outlined.
                if (touched.current) {
                  moveTo(indexOf.get(element));
                  return;
                }
                onChoose(element);
              }}
            />
          ))}
          {shownAreas.map((area) => (
            <div
              key={area.areaId}
              className={area.areaId === excluding?.areaId ? 'area-designated excluding' : 'area-designated'}
              style={placed(area.box as Box)}
              data-area-id={area.areaId}
            />
          ))}
          {areas.flatMap((area) =>
            area.frameKey === frameKey && area.locator.selector_type === 'css'
              ? excludedElements(
                  area.locator.selector,
                  area.options.excludeElements ?? [],
                  render.elements,
                ).map((element) => (
                  <div
                    key={`${area.areaId}|${element.css}`}
                    className="area-excluded"
                    style={placed(element.box)}
                    data-excluded={element.css}
                  />
                ))
              : [],
          )}
          {shownAreas.map((area) => {
            const tag = tagPlace(area.box as Box, area.label);
            return (
              <span key={area.areaId} className="area-designated-label" style={tag.style} aria-hidden="true">
                {area.label}
              </span>
            );
          })}
          {current && picking && (
            <>
              <div ref={outline} className="area-inspect" style={placed(current.box)} />
              <span
                className="area-inspect-label"
                style={
                  tagPlace(
                    current.box,
                    tagText(current),
                    areaTags.map(({ tag }) => tag.rect),
                  ).style
                }
                aria-hidden="true"
              >
                {tagText(current)}
              </span>
            </>
          )}
          {shown && <div className="area-drag" style={placed(rectangle(shown.from, shown.to))} />}
        </div>
      </section>
    </div>
  );
}
