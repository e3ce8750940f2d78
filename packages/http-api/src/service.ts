import { z } from 'zod';

/** One time zone choice as the SPA's picker reads it (docs/product.md#time-zones). */
export const timezoneChoice = z.object({
  o: z.number().describe('Offset from UTC in hours, now (so daylight saving shows as it is today).'),
  d: z.string().describe('What the picker shows: `(UTC+09:00) Asia/Tokyo`.'),
  a: z.string().describe('Short name, e.g. `JST`, or `GMT+9` where the zone has none.'),
  v: z.string().describe('The IANA zone stored with the account.'),
});
export type TimezoneChoice = z.infer<typeof timezoneChoice>;
export const timezoneList = z.array(timezoneChoice).describe('Time zone choices');

export const health = {
  live: z.object({ status: z.literal('ok') }).describe('The gateway runs.'),
  ready: z.object({ status: z.literal('ready') }).describe('Taking traffic.'),
  shuttingDown: z.object({ status: z.literal('shutting_down') }).describe('Shutting down.'),
};

/** An answer with no body: the browser is sent elsewhere. */
export const redirect = (description: string) => z.null().describe(description);
