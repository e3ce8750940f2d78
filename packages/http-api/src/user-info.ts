import { z } from 'zod';
import { WORKSPACE_ROLES } from './workspace.ts';

/** Limits (`num`) and usage (`used_num`) per feature, keyed as the spec names them. */
export const quotaCounts = z.object({
  _60min: z.number().int(),
  _10min: z.number().int(),
  _1min: z.number().int(),
  random_ip: z.number().int(),
  ss: z.number().int(),
  mail: z.number().int(),
  line_notify: z.number().int(),
});
export type QuotaCounts = z.infer<typeof quotaCounts>;

export const subscription = z.object({
  price: z.number().int().describe('JPY in whole yen, USD in cents'),
  status: z.number().int().describe('1 trial, 2 active, 6 renewal failed, 7 on hold, 9 cancelled'),
  suspend_at: z.iso.datetime().nullable(),
  s_info: z
    .object({
      Plan: z.number().int(),
      Cycle: z.string().describe('month or year'),
      Options: z.array(z.string()),
    })
    .nullable(),
});
export type Subscription = z.infer<typeof subscription>;

export const tdnetEdinetItem = z.object({ edinet: z.string(), tdnet: z.string(), name1: z.string() });
export type TdnetEdinetItem = z.infer<typeof tdnetEdinetItem>;
export const cikIsinItem = z.object({
  id: z.string(),
  label: z.string(),
  cik: z.string(),
  ticker: z.string(),
  isin: z.string(),
});
export type CikIsinItem = z.infer<typeof cikIsinItem>;

/** user_info exactly as the SPA reads it (docs/product.md#quotas) (snake_case, `_60min`-style quota keys). */
export const userInfo = z
  .object({
    user_id: z.string(),
    mails: z.array(z.string()),
    num: quotaCounts,
    used_num: quotaCounts,
    subscription: subscription.nullable(),
    has_pi: z.boolean(),
    tdedinets: z.array(tdnetEdinetItem),
    cik_isins: z.array(cikIsinItem),
    locale: z.object({ Lang: z.string(), Timezone: z.string(), Currency: z.string() }),
    line_url: z.string(),
    line_need_setting: z.boolean(),
    role: z
      .enum(WORKSPACE_ROLES)
      .optional()
      .describe(
        'The signed-in person’s role in this workspace (docs/product.md#workspaces); user_id is the workspace’s id.',
      ),
    deleted_user: z
      .literal(true)
      .optional()
      .describe('Only when the account ended under a live session; the SPA then reloads.'),
  })
  .meta({ id: 'UserInfo' });
export type UserInfo = z.infer<typeof userInfo>;
