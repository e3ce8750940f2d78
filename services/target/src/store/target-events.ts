import { writeEvent } from '@mimamori/bus';
import type { checksEventsV1, targetsEventsV1 } from '@mimamori/contracts';
import type { Sql } from '@mimamori/db';
import {
  targetDeleted,
  targetPaused,
  targetRegistered,
  targetResumed,
  targetUpdated,
  targetUsageChanged,
} from '@mimamori/events';
import type { Quota } from '@mimamori/plans';
import type { StateChange } from '../domain/target-port.ts';
import type { ActionRecord, LocatorRecord, TargetRecord } from '../domain/target-record.ts';
import { TARGET_SCHEMA } from './migrations.ts';

const eventTypes = {
  registered: targetRegistered,
  updated: targetUpdated,
  paused: targetPaused,
  resumed: targetResumed,
} as const;

/** A v1 site watches the whole page. */
const WHOLE_PAGE_AREA: checksEventsV1.CheckArea = {
  areaId: 'page',
  locator: { selector: 'body', selectorType: 'css', frameSelector: '', frameSelectorType: '' },
};

/** Writes targets.<change> in the caller's transaction; the id names the site and its revision. */
export async function writeStateEvent(
  tx: Sql,
  change: StateChange,
  site: TargetRecord,
  now: Date,
): Promise<void> {
  const type = eventTypes[change];
  const eventId = `${type.subject}:${site.id}:${site.revision}`;
  await writeEvent(tx, TARGET_SCHEMA, {
    id: eventId,
    subject: type.subject,
    data: type.encode(targetState(site, eventId, now)),
  });
}

/** A site's state as targets.* events (and ListTargetStates) describe it. */
export function targetState(
  site: TargetRecord,
  eventId: string,
  now: Date,
): targetsEventsV1.TargetStateChanged {
  return {
    eventId,
    targetId: site.id,
    userId: site.userId,
    version: site.version,
    revision: site.revision,
    intervalMinutes: site.intervalMinutes,
    paused: site.paused,
    pausedReason: site.pausedReason ?? '',
    check: checkTemplate(site),
    occurredAt: now,
    notice: {
      label: site.label,
      url: site.url,
      mailNotify: site.mailNotify,
      chatNotify: site.chatNotify,
      sealedDiscordWebhook: site.sealedDiscordWebhook,
      areas: site.areas.map((area) => ({ areaId: area.areaId, label: area.label })),
      failureAlertAfter: site.failureAlertAfter,
      silenceAlertDays: site.silenceAlertDays,
      quietMode: site.quietMode,
      quietHours: { ...site.quietHours, allDay: [...site.quietHours.allDay] },
    },
  };
}

export async function writeDeletedEvent(tx: Sql, site: TargetRecord, now: Date): Promise<void> {
  const eventId = `${targetDeleted.subject}:${site.id}`;
  await writeEvent(tx, TARGET_SCHEMA, {
    id: eventId,
    subject: targetDeleted.subject,
    data: targetDeleted.encode({
      eventId,
      targetId: site.id,
      userId: site.userId,
      revision: site.revision,
      occurredAt: now,
    }),
  });
}

/**
 * The check the scheduler sends when the site is due, minus check_id and due_at. Sealed
 * values are already sealed with the contexts RunCheck documents, so they pass through.
 * The watch settings ride along to the diff service, which judges the check with them (ADR 0008).
 */
export function checkTemplate(site: TargetRecord): checksEventsV1.RunCheck {
  return {
    checkId: '',
    targetId: site.id,
    userId: site.userId,
    dueAt: undefined,
    url: site.url,
    fetchMode: site.fetchMode,
    contentKind: site.contentKind === 'page' ? '' : site.contentKind,
    userAgentKind: site.userAgentKind,
    userAgentValue: site.userAgentValue,
    viewportWidth: site.viewportWidth,
    viewportHeight: site.viewportHeight,
    sealedCookies: site.sealedCookies,
    login: site.login
      ? {
          actions: site.login.actions.map(checkAction),
          verifyKind: site.login.verifyKind,
          verifyCookieName: site.login.verifyCookieName,
        }
      : undefined,
    actions: site.actions.map(checkAction),
    areas:
      site.version === 1
        ? [WHOLE_PAGE_AREA]
        : site.areas.map((area) => ({ areaId: area.areaId, locator: checkLocator(area.locator) })),
    screenshot: site.screenshot ? 'page' : 'none',
    useProxy: site.useProxy,
    sealedSessionState: '',
    previousAreasDigest: '',
    sealedRevalidationState: '',
    alwaysRender: site.alwaysRender,
    watch: {
      areas: site.areas.map((area) => ({ areaId: area.areaId, optionsJson: JSON.stringify(area.options) })),
      rulesJson: site.rules ? JSON.stringify(site.rules) : '',
      screenshot: site.screenshot,
      keepUpdates: site.history.updates,
      keepCheckDays: site.history.checkDays,
    },
    readerLang: site.reader.lang,
    readerTimeZone: site.reader.timeZone,
  };
}

function checkAction(action: ActionRecord): checksEventsV1.CheckAction {
  return {
    type: action.type,
    locator: action.locator ? checkLocator(action.locator) : undefined,
    value: action.value,
    sealedValue: action.sealedValue,
    skippable: action.skippable,
  };
}

function checkLocator(locator: LocatorRecord): checksEventsV1.CheckLocator {
  return { ...locator };
}

export async function writeUsageEvent(
  tx: Sql,
  userId: string,
  revision: number,
  demand: Quota,
  now: Date,
): Promise<void> {
  const eventId = `${targetUsageChanged.subject}:${userId}:${revision}`;
  await writeEvent(tx, TARGET_SCHEMA, {
    id: eventId,
    subject: targetUsageChanged.subject,
    data: targetUsageChanged.encode({
      eventId,
      userId,
      revision,
      min60: demand._60min,
      min10: demand._10min,
      min1: demand._1min,
      randomIp: demand.random_ip,
      ss: demand.ss,
      lineNotify: demand.line_notify,
      occurredAt: now,
    }),
  });
}
