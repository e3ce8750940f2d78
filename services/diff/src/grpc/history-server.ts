import { status } from '@grpc/grpc-js';
import type { BlobStore } from '@mimamori/blob-store';
import type { diffV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { GrpcError } from '@mimamori/runtime';
import { unaryHandler } from '@mimamori/service-host';
import { summariseArea } from '@mimamori/watch-engine';
import { userHistoryFootprint } from '../store/history-retention.ts';
import {
  type HistoryFilter,
  type HistoryPosition,
  type HistoryQuery,
  type HistoryRow,
  historyBeyond,
  historyPage,
  ownsTarget,
  registrationData,
} from '../store/history-store.ts';

const FILTERS = new Set(['all', 'update', 'error']);
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

/**
 * The site detail's history. Every call is scoped to the caller's user id and the site: a site
 * the user does not own answers NOT_FOUND, the same as one that never existed.
 */
export function historyServer(db: Db, blobs: BlobStore): diffV1.HistoryServiceServer {
  return {
    getStorageUsed: unaryHandler(async (request: diffV1.GetStorageUsedRequest) => {
      if (!request.userId) throw new GrpcError(status.INVALID_ARGUMENT, 'invalid_argument|user_id|');
      const { rowBytes, blobKeys } = await userHistoryFootprint(db, request.userId);
      // Sizes are metadata reads, a few at a time so one account's page never floods the store.
      let blobBytes = 0;
      for (let start = 0; start < blobKeys.length; start += 16) {
        const sizes = await Promise.all(blobKeys.slice(start, start + 16).map((key) => blobs.size(key)));
        blobBytes += sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
      }
      return { rowBytes, blobBytes };
    }),
    listHistory: unaryHandler(async (request: diffV1.ListHistoryRequest) => {
      const query = historyQuery(request);
      await mustOwn(db, query.userId, query.targetId);
      const direction = directionOf(request.direction);
      const size = pageSize(request.pageSize);
      const from = request.cursor ? positionOf(request.cursor) : null;
      const read = await historyPage(db, query, from, direction, size + 1);
      const more = read.length > size;
      const page = read.slice(0, size);
      const entries = (direction === 'older' ? page : page.reverse()).map(entryMessage);
      const first = entries[0];
      const last = entries.at(-1);
      const hasOlder =
        direction === 'older' ? more : from !== null && (await historyBeyond(db, query, from, 'older'));
      const hasNewer =
        direction === 'newer' ? more : from !== null && (await historyBeyond(db, query, from, 'newer'));
      return {
        entries,
        olderCursor: hasOlder && last ? cursorOf(last) : '',
        newerCursor: hasNewer && first ? cursorOf(first) : '',
      };
    }),
    getRegistrationData: unaryHandler(async (request: diffV1.GetRegistrationDataRequest) => {
      await mustOwn(db, request.userId, request.targetId);
      const areas = await registrationData(db, request.userId, request.targetId);
      return {
        areas: areas.map((area) => ({
          areaId: area.area_id,
          text: area.normalised_text,
          screenshotBlobKey: area.screenshot_blob_key,
          recordedAt: area.recorded_at,
        })),
        pageScreenshotBlobKey:
          areas.find((area) => area.page_screenshot_blob_key)?.page_screenshot_blob_key ?? '',
      };
    }),
  };
}

async function mustOwn(db: Db, userId: string, targetId: string): Promise<void> {
  if (!userId || !targetId || !(await ownsTarget(db, userId, targetId))) {
    throw new GrpcError(status.NOT_FOUND, 'not_found');
  }
}

function historyQuery(request: diffV1.ListHistoryRequest): HistoryQuery {
  const filter = request.filter || 'all';
  if (!FILTERS.has(filter)) throw invalid('filter');
  const timeZone = request.timeZone || 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw invalid('time_zone');
  }
  if (request.day && !isDay(request.day)) throw invalid('day');
  return {
    userId: request.userId,
    targetId: request.targetId,
    filter: filter as HistoryFilter,
    day: request.day || null,
    timeZone,
  };
}

function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function directionOf(value: string): 'older' | 'newer' {
  if (value === '' || value === 'older') return 'older';
  if (value === 'newer') return 'newer';
  throw invalid('direction');
}

function pageSize(value: number): number {
  if (value === 0) return DEFAULT_PAGE;
  if (value < 1 || value > MAX_PAGE) throw invalid('page_size');
  return value;
}

function cursorOf(entry: diffV1.HistoryEntry): string {
  return Buffer.from(`${entry.completedAt?.toISOString() ?? ''}|${entry.checkId}`).toString('base64url');
}

function positionOf(cursor: string): HistoryPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const split = text.indexOf('|');
  const completedAt = new Date(text.slice(0, split));
  if (split < 0 || Number.isNaN(completedAt.getTime())) throw invalid('cursor');
  return { completedAt, checkId: text.slice(split + 1) };
}

function invalid(field: string): GrpcError {
  return new GrpcError(status.INVALID_ARGUMENT, `invalid_argument|${field}|`);
}

function entryMessage(row: HistoryRow): diffV1.HistoryEntry {
  return {
    checkId: row.check_id,
    ...(row.due_at ? { dueAt: row.due_at } : {}),
    completedAt: row.completed_at,
    outcome: row.outcome,
    errorCode: row.error_code,
    errorDetail: row.error_detail,
    ...(row.update_id && row.created_at
      ? {
          update: {
            updateId: row.update_id,
            detectedAt: row.created_at,
            notify: row.notify ?? false,
            matched: row.matched ?? [],
            areas: (row.areas ?? []).map((area) => ({
              areaId: area.areaId,
              diffText: area.diffText,
              added: area.added,
              removed: area.removed,
              rowsJson: JSON.stringify(area.rows),
              // Updates recorded before summaries were kept get theirs from the stored diff.
              summaryJa: area.summaryJa ?? summariseArea(area, 'ja') ?? '',
              summaryEn: area.summaryEn ?? summariseArea(area, 'en') ?? '',
            })),
            beforeScreenshotBlobKey: row.before_screenshot_blob_key ?? '',
            afterScreenshotBlobKey: row.after_screenshot_blob_key ?? '',
          },
        }
      : {}),
  };
}
