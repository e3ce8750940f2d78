/** Limits or usage per feature, keyed as user_info names them (docs/product.md#quotas). */
export interface Quota {
  _60min: number;
  _10min: number;
  _1min: number;
  /** Sites fetched through a rotating proxy address. */
  random_ip: number;
  /** Sites with a before/after screenshot. */
  ss: number;
  /** Additional e-mail addresses. */
  mail: number;
  /** Sites notified through the chat link (Discord). */
  line_notify: number;
}

export type QuotaKey = keyof Quota;

export const QUOTA_KEYS: readonly QuotaKey[] = [
  '_60min',
  '_10min',
  '_1min',
  'random_ip',
  'ss',
  'mail',
  'line_notify',
];

export const NO_QUOTA: Quota = {
  _60min: 0,
  _10min: 0,
  _1min: 0,
  random_ip: 0,
  ss: 0,
  mail: 0,
  line_notify: 0,
};
