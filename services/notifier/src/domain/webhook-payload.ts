import { type FailureNotice, failureWords } from './failure-alert-content.ts';
import type { FilingNotice } from './filing-notice.ts';
import type { UpdateNotice } from './update-notice.ts';
import { areaName, matchedRuleLines } from './update-wording.ts';
import { readerZone } from './written-time.ts';

/** One of the account's signed webhooks as the notification profile lists it. */
export interface ProfileWebhook {
  id: string;
  url: string;
  /** Empty for account-wide. */
  targetId: string;
  /** Sealed with the context `account:<user id>:webhook:<id>`. */
  sealedSecret: string;
}

/** The webhooks an update of `targetId` goes to: the account-wide ones and the site's own. */
export function webhooksFor(webhooks: readonly ProfileWebhook[], targetId: string): ProfileWebhook[] {
  return webhooks.filter((webhook) => webhook.targetId === '' || webhook.targetId === targetId);
}

/** Links to the before/after pictures (the web app serves them to the signed-in owner only). */
export interface PictureLinks {
  before: string | null;
  after: string | null;
}

/**
 * The JSON body of an update's delivery (docs/webhooks.md): the same facts the mail tells, with
 * ids, in UTC and in the user's zone. Built once per update, so every URL and every retry gets
 * the same bytes (only the signature's time changes).
 */
export function webhookPayload(
  update: { updateId: string; targetId: string },
  notice: Omit<UpdateNotice, 'images'>,
  pictures: PictureLinks,
): string {
  const zone = readerZone(notice.timezone, notice.lang);
  const ruleTexts = matchedRuleLines(notice);
  return JSON.stringify({
    type: 'update',
    id: update.updateId,
    summary: notice.summary,
    site: {
      id: update.targetId,
      label: notice.label,
      url: notice.url,
      history_url: notice.historyUrl || null,
    },
    areas: notice.areas.map((area) => ({
      id: area.areaId,
      name: areaName(area, notice.lang),
      summary: area.summary,
      diff: area.diffText,
    })),
    matched_rules: notice.matched.map((rule, index) => ({
      group: rule.groupIndex + 1,
      condition: rule.conditionIndex + 1,
      area_id: rule.areaId,
      area_name: areaName({ areaId: rule.areaId, label: notice.areaLabels[rule.areaId] ?? '' }, notice.lang),
      operand: rule.operand,
      operator: rule.operator,
      value: rule.value,
      text: ruleTexts[index] ?? '',
    })),
    pictures,
    detected_at: notice.detectedAt.toISOString(),
    detected_at_local: zonedIso(notice.detectedAt, zone),
    timezone: zone,
    lang: notice.lang,
  });
}

/**
 * The JSON body of a failure alert (`type: "failure"`) or its "working again" message
 * (`type: "recovery"`), docs/webhooks.md: what failed in the user's words and since when, in UTC
 * and in the user's zone. `id` names the failing run, as the other channels' deliveries do.
 */
export function failureWebhookPayload(id: string, targetId: string, notice: FailureNotice): string {
  const zone = readerZone(notice.timezone, notice.lang);
  const times = (name: string, at: Date) => ({
    [name]: at.toISOString(),
    [`${name}_local`]: zonedIso(at, zone),
  });
  const { failure, recovered, silent } = notice;
  return JSON.stringify({
    type: failure ? 'failure' : silent ? 'silence' : 'recovery',
    id,
    site: { id: targetId, label: notice.label, url: notice.url, history_url: notice.historyUrl || null },
    ...(failure
      ? {
          failure: {
            kind: failure.kind,
            area_id: failure.areaId || null,
            area_name: failure.areaName || null,
            message: failureWords(failure.kind, failure.areaName, notice.lang),
            count: failure.count,
            ...times('since', failure.since),
          },
        }
      : {}),
    ...(recovered ? { recovered: { ...times('since', recovered.since), ...times('at', recovered.at) } } : {}),
    ...(silent ? { silence: { days: silent.days, ...times('since', silent.since) } } : {}),
    timezone: zone,
    lang: notice.lang,
  });
}

/** The webhooks a filing notice goes to: the account-wide ones (a filing belongs to no site). */
export function accountWideWebhooks(webhooks: readonly ProfileWebhook[]): ProfileWebhook[] {
  return webhooks.filter((webhook) => webhook.targetId === '');
}

/**
 * The JSON body of a filing notice (`type: "filing"`, docs/webhooks.md): the follow it matched,
 * the filing as its source names it, and when it was published, in UTC and in the user's zone.
 * `id` is the notice's own (`filing:<source>:<source's key>:<user id>`), as the other channels' deliveries name it.
 */
export function filingWebhookPayload(
  id: string,
  follow: { id: string; label: string },
  filing: { key: string },
  notice: FilingNotice,
): string {
  const zone = readerZone(notice.timezone, notice.lang);
  return JSON.stringify({
    type: 'filing',
    id,
    follow: { id: follow.id, label: follow.label },
    filing: {
      source: notice.source,
      key: filing.key,
      company_name: notice.companyName,
      company_code: notice.companyCode,
      title: notice.title,
      document_url: /^https?:\/\//i.test(notice.documentUrl) ? notice.documentUrl : null,
      published_at: notice.publishedAt.toISOString(),
      published_at_local: zonedIso(notice.publishedAt, zone),
    },
    timezone: zone,
    lang: notice.lang,
  });
}

/** "2026-11-23T23:05:00+09:00": the instant as the clock in `zone` showed it, with its offset. */
export function zonedIso(at: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMinutes = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
