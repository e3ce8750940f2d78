import type { Cycle, PlanId, Quota } from '@mimamori/plans';

/** Subscription status (docs/product.md#subscription). */
export const SubscriptionStatus = {
  trial: 1,
  active: 2,
  renewalFailed: 6,
  onHold: 7,
  cancelled: 9,
} as const;

export type DiscordState = 'not_set' | 'linking' | 'complete' | 'not_complete';

export interface MailAddress {
  id: string;
  index: number;
  email: string;
  verified: boolean;
}

export interface SubscriptionRecord {
  plan: PlanId;
  cycle: Cycle;
  options: string[];
  status: number;
  trialEndsAt: Date | null;
  deleteAt: Date | null;
  hasCard: boolean;
  /** Status 6: when billing puts the account on hold unless the renewal is paid. */
  renewalSuspendAt?: Date | null;
}

/** Everything the account screens and user_info show about one user. */
export interface AccountRecord {
  id: string;
  name: string;
  /** Raised by every save of the settings (docs/product.md#edit-conflicts). */
  settingsRevision: number;
  email: string | null;
  emailVerified: boolean;
  lang: 'ja' | 'en';
  timezone: string | null;
  currency: 'JPY' | 'USD';
  hasPassword: boolean;
  xLinked: boolean;
  deleted: boolean;
  discordState: DiscordState;
  subscription: SubscriptionRecord;
  /** Additional addresses in index order. */
  mails: MailAddress[];
  /** What the monitoring sites ask of the plan (mail not counted), as the target service reported it. */
  targetDemand?: Quota;
}
