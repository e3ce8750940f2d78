import { useEffect, useState } from 'react';
import type { TourStep, TourStepId } from './tour-steps.ts';

export type TargetBox = { top: number; left: number; width: number; height: number };

type Found = { present: ReadonlySet<TourStepId>; key: string };

/** How often the page is looked at: the screens change their parts without telling the tour. */
const LOOK_EVERY_MS = 300;

/** Which of `steps` have their part on the page, followed as the screen changes. */
export function usePresentSteps(steps: readonly TourStep[]): ReadonlySet<TourStepId> {
  const [found, setFound] = useState<Found>({ present: new Set(), key: '' });
  useEffect(() => {
    const look = () => {
      const ids = steps.filter((step) => document.querySelector(step.target)).map((step) => step.id);
      const key = ids.join();
      setFound((previous) => (previous.key === key ? previous : { present: new Set(ids), key }));
    };
    look();
    const timer = setInterval(look, LOOK_EVERY_MS);
    return () => clearInterval(timer);
  }, [steps]);
  return found.present;
}

/** Where the step's part is on the page (document coordinates), for the ring drawn around it. */
export function useTargetBox(target: string | undefined): TargetBox | undefined {
  const [box, setBox] = useState<TargetBox | undefined>(undefined);
  useEffect(() => {
    if (!target) {
      setBox(undefined);
      return;
    }
    const measure = () => {
      const element = document.querySelector(target);
      const rect = element ? visibleRect(element) : undefined;
      setBox((previous) => {
        if (!rect) return undefined;
        const next = {
          top: rect.top + window.scrollY,
          left: rect.left + window.scrollX,
          width: rect.width,
          height: rect.height,
        };
        const same =
          previous &&
          previous.top === next.top &&
          previous.left === next.left &&
          previous.width === next.width &&
          previous.height === next.height;
        return same ? previous : next;
      });
    };
    measure();
    const timer = setInterval(measure, LOOK_EVERY_MS);
    // The page growing or shrinking (the tour's own panel appearing, a screen's content arriving)
    // moves the part at once; waiting for the next look left the ring beside it for a moment.
    const resized = new ResizeObserver(measure);
    resized.observe(document.body);
    // Capture: a scroll inside a box (the wizard's preview) moves the part on the page.
    window.addEventListener('scroll', measure, { capture: true, passive: true });
    window.addEventListener('resize', measure);
    return () => {
      resized.disconnect();
      clearInterval(timer);
      window.removeEventListener('scroll', measure, { capture: true });
      window.removeEventListener('resize', measure);
    };
  }, [target]);
  return box;
}

/**
 * The part of an element a person can see: cut by every scrolling or clipping box around it and
 * by the window's width, so a ring around a wide picture in a scrolling preview never makes the
 * page itself scroll sideways.
 */
function visibleRect(element: Element): { top: number; left: number; width: number; height: number } {
  const rect = element.getBoundingClientRect();
  let top = rect.top;
  let left = rect.left;
  let right = rect.right;
  let bottom = rect.bottom;
  for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const clip = box.getBoundingClientRect();
    top = Math.max(top, clip.top);
    left = Math.max(left, clip.left);
    right = Math.min(right, clip.right);
    bottom = Math.min(bottom, clip.bottom);
  }
  left = Math.max(left, 0);
  right = Math.min(right, document.documentElement.clientWidth);
  return { top, left, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}
