import { fastestSlotWithRoom, hasFreeSlot, type IntervalSlot, type Quota } from '@mimamori/plans';
import type { DefaultedField, WizardDraft } from './wizard-draft.ts';

/** What a new site asks of the plan. */
export type TargetNeed = { intervalMinutes: number; screenshot: boolean; proxy: boolean; chat: boolean };

/** The quota bucket an interval counts against (a 30-minute site takes a 10-minute slot). */
export function intervalBucket(minutes: number): '_60min' | '_10min' | '_1min' {
  if (minutes >= 60) return '_60min';
  if (minutes >= 10) return '_10min';
  return '_1min';
}

/**
 * Whether a new site would start monitoring with the plan's limits (`num`) and what the user's
 * sites use now (`used_num`); without room the target service saves it paused (docs/product.md#quotas),
 * which the wizard says before Register is pressed.
 */
export function newTargetFits(limits: Quota, used: Quota, need: TargetNeed): boolean {
  if (!hasFreeSlot(limits, used, intervalBucket(need.intervalMinutes))) return false;
  if (need.screenshot && used.ss + 1 > limits.ss) return false;
  if (need.proxy && used.random_ip + 1 > limits.random_ip) return false;
  if (need.chat && used.line_notify + 1 > limits.line_notify) return false;
  return true;
}

const SLOT_MINUTES: Record<IntervalSlot, number> = { _60min: 60, _10min: 10, _1min: 1 };

/**
 * The interval a new site starts with (docs/product.md#wizard): the fastest the plan has room for,
 * what the person pays for, and for the tour's demo shop the soonest first update. Hourly when
 * there is none, which saves it paused as any full plan would.
 */
export function defaultIntervalMinutes(limits: Quota, used: Quota): number {
  return SLOT_MINUTES[fastestSlotWithRoom(limits, used) ?? '_60min'];
}

/**
 * What a new site takes from the account, once (docs/product.md#wizard): the fastest free
 * interval; screenshots while the plan has room for one more, which is what a plan with
 * screenshots is for (and what the tour's demo shop shows off); chat on when the account has a
 * chat linked for every site. A field the person set before the account was known (`chosen`)
 * keeps what they set: the defaults arrive late on a slow connection, and must not undo a choice.
 */
export function accountDefaults(
  draft: Pick<WizardDraft, 'chatNotify' | 'chosen'>,
  quota: { num: Quota; used_num: Quota },
  chatLinked: boolean,
): Pick<WizardDraft, 'defaultsApplied'> &
  Partial<Pick<WizardDraft, 'interval' | 'screenshot' | 'chatNotify'>> {
  const open = (field: DefaultedField) => !draft.chosen.includes(field);
  return {
    defaultsApplied: true,
    ...(open('interval') && { interval: String(defaultIntervalMinutes(quota.num, quota.used_num)) }),
    ...(open('screenshot') && quota.num.ss > quota.used_num.ss && { screenshot: true }),
    ...(open('chatNotify') &&
      chatLinked &&
      draft.chatNotify === 'none' && { chatNotify: 'account' as const }),
  };
}

const DEFAULTED: readonly DefaultedField[] = ['interval', 'screenshot', 'chatNotify'];
const isDefaulted = (field: string): field is DefaultedField =>
  (DEFAULTED as readonly string[]).includes(field);

/** The draft's `chosen` once the person has set `field`: only needed until the defaults apply. */
export function chosenWith(
  draft: Pick<WizardDraft, 'chosen' | 'defaultsApplied'>,
  field: string,
): DefaultedField[] {
  if (draft.defaultsApplied || !isDefaulted(field) || draft.chosen.includes(field)) return draft.chosen;
  return [...draft.chosen, field];
}
