import type { Page } from 'playwright-core';
import type { AreaRequest } from '../domain/page-fetcher.ts';
import { FrameNotFoundError, isolatedWorld } from './isolated-world.ts';
import { FRAME_CONTENT_BOX, READ_AREAS } from './page-scripts.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface AreaReading {
  areaId: string;
  found: boolean;
  html: string;
  /** innerText: what a person sees, line breaks included. */
  text: string;
  /** In top-document pixels, also for areas inside an iframe. */
  box: Box | null;
  /** Set when the area's iframe itself was missing. */
  missingFrame?: string;
}

interface RawReading {
  found: boolean;
  html: string;
  text: string;
  box: Box | null;
}

/** Reads every area in the isolated world of its document (the top one or its iframe's). */
export async function readAreas(page: Page, areas: readonly AreaRequest[]): Promise<AreaReading[]> {
  const groups = new Map<string, AreaRequest[]>();
  for (const area of areas) {
    const key = area.frame ? JSON.stringify([area.frame.selectorType, area.frame.selector]) : '';
    groups.set(key, [...(groups.get(key) ?? []), area]);
  }
  const readings = new Map<string, AreaReading>();
  for (const group of groups.values()) {
    const frame = group[0]?.frame;
    try {
      const world = await isolatedWorld(page, frame);
      const raw = await world.evaluate<RawReading[]>(READ_AREAS, group);
      const offset = frame
        ? ((await (await isolatedWorld(page)).evaluate<Box | null>(FRAME_CONTENT_BOX, frame)) ?? {
            x: 0,
            y: 0,
          })
        : { x: 0, y: 0 };
      group.forEach((area, index) => {
        const reading = raw[index] ?? { found: false, html: '', text: '', box: null };
        const box = reading.box
          ? { ...reading.box, x: reading.box.x + offset.x, y: reading.box.y + offset.y }
          : null;
        readings.set(area.areaId, { areaId: area.areaId, ...reading, box });
      });
    } catch (error) {
      if (!(error instanceof FrameNotFoundError)) throw error;
      for (const area of group) {
        readings.set(area.areaId, {
          areaId: area.areaId,
          found: false,
          html: '',
          text: '',
          box: null,
          missingFrame: error.frame.selector,
        });
      }
    }
  }
  return areas.map((area) => readings.get(area.areaId) as AreaReading);
}
