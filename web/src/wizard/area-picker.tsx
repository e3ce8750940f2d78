import { type PointerEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Box, PreviewElement, PreviewRender } from '../api/preview.ts';
import { elementAround, overlayOrder, type Point, rectangle } from './area-boxes.ts';
import type { AreaDraft } from './wizard-draft.ts';

/** A pointer that moved less than this (CSS px on screen) clicked rather than dragged. */
const DRAG_THRESHOLD = 6;

/**
 * The screenshot with the crawler's element map over it. While picking, every element is a
 * button named by its text (a click picks it), and a drag picks the smallest element around the
 * dragged rectangle. Designated areas are outlined.
 */
export function AreaPicker({
  render,
  areas,
  picking,
  actualSize,
  onPick,
}: {
  render: PreviewRender;
  areas: readonly AreaDraft[];
  picking: boolean;
  /** The page at its own width (scrolling sideways inside the preview) rather than fitted. */
  actualSize: boolean;
  onPick: (element: PreviewElement) => void;
}) {
  const { t } = useTranslation();
  const surface = useRef<HTMLDivElement>(null);
  // The drag lives in a ref, read and written as each pointer event comes: a handler sees state
  // only as of the last render, and on a busy machine a quick drag's pointerup can come before the
  // moves were rendered, so the drag read from state looked unmoved and picked nothing. The state
  // only draws the rectangle.
  const drag = useRef<{ from: Point; to: Point; screenFrom: Point; moved: boolean }>(undefined);
  const [shown, setShown] = useState<{ from: Point; to: Point }>();
  const dragged = useRef(false);
  const elements = useMemo(() => (picking ? overlayOrder(render.elements) : []), [picking, render]);
  const frameKey = render.frame?.selector ?? '';
  const pageWidth = render.image_width / render.scale;
  const pageHeight = render.image_height / render.scale;

  const placed = (box: Box) => ({
    left: `${(box.x / pageWidth) * 100}%`,
    top: `${(box.y / pageHeight) * 100}%`,
    width: `${(box.width / pageWidth) * 100}%`,
    height: `${(box.height / pageHeight) * 100}%`,
  });

  const pagePoint = (event: PointerEvent): Point => {
    const bounds = surface.current?.getBoundingClientRect();
    if (!bounds || bounds.width === 0) return { x: 0, y: 0 };
    return {
      x: ((event.clientX - bounds.left) / bounds.width) * pageWidth,
      y: ((event.clientY - bounds.top) / bounds.height) * pageHeight,
    };
  };

  const onPointerDown = (event: PointerEvent) => {
    // A finger on the picture scrolls the page; it picks by tapping an element, not by dragging.
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
    const current = drag.current;
    if (!current) return;
    const moved =
      current.moved ||
      Math.hypot(event.clientX - current.screenFrom.x, event.clientY - current.screenFrom.y) >=
        DRAG_THRESHOLD;
    if (moved && !current.moved) event.currentTarget.setPointerCapture?.(event.pointerId);
    current.to = pagePoint(event);
    current.moved = moved;
    if (moved) setShown({ from: current.from, to: current.to });
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
    if (element) onPick(element);
  };

  return (
    // The surface only turns drags into picks; every element is also a button, and keyboard users
    // have the element list beside it.
    <div
      ref={surface}
      className={picking ? 'area-surface picking' : 'area-surface'}
      data-tour={picking ? 'area-picker' : undefined}
      style={actualSize ? { width: `${pageWidth}px` } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={endDrag}
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
          title={element.text.trim() || element.tag}
          onClick={() => {
            if (dragged.current) {
              dragged.current = false;
              return;
            }
            onPick(element);
          }}
        />
      ))}
      {areas
        .filter((area) => area.box && area.frameKey === frameKey)
        .map((area) => (
          <div
            key={area.areaId}
            className="area-designated"
            style={placed(area.box as Box)}
            data-area-id={area.areaId}
          >
            <span className="area-designated-label">{area.label}</span>
          </div>
        ))}
      {shown && <div className="area-drag" style={placed(rectangle(shown.from, shown.to))} />}
    </div>
  );
}
