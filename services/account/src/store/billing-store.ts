import { randomUUID } from 'node:crypto';
import { writeEvent } from '@mimamori/bus';
import type { Db, Sql } from '@mimamori/db';
import { accountHeld, accountMailRequested, holdLifted, planChanged } from '@mimamori/events';
import type { Currency, Cycle, PlanId } from '@mimamori/plans';
import type { BillingStore } from '../domain/billing/billing-ports.ts';
import type { BillingRecord, PlanChoice, ProviderStatus } from '../domain/billing/billing-record.ts';
import { type BillingEffect, billingMails } from '../domain/billing/billing-state.ts';
import { recordCancellationFeedback } from './cancellation-feedback-store.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;

interface BillingRow {
  user_id: string;
  currency: Currency;
  customer_id: string;
  subscription_id: string;
  provider_status: ProviderStatus;
  suspend_at: Date | null;
  period_end: Date | null;
  cancel_at_period_end: boolean;
  booked_plan: number | null;
  booked_cycle: Cycle | null;
  booked_options: string[] | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  status: number;
  plan: number;
  cycle: Cycle;
  options: string[];
}

const SELECT = `SELECT b.*, s.status, s.plan, s.cycle, s.options
                  FROM ${S}.billing_accounts b JOIN ${S}.subscriptions s ON s.user_id = b.user_id`;

function toRecord(row: BillingRow): BillingRecord {
  return {
    userId: row.user_id,
    currency: row.currency,
    customerId: row.customer_id,
    subscriptionId: row.subscription_id,
    providerStatus: row.provider_status,
    status: row.status,
    suspendAt: row.suspend_at,
    periodEnd: row.period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    current: { plan: row.plan as PlanId, cycle: row.cycle, options: row.options },
    booked:
      row.booked_plan === null
        ? null
        : {
            plan: row.booked_plan as PlanId,
            cycle: row.booked_cycle ?? 'month',
            options: row.booked_options ?? [],
          },
    card:
      row.card_last4 === null
        ? null
        : {
            brand: row.card_brand ?? '',
            last4: row.card_last4,
            expMonth: row.card_exp_month ?? 0,
            expYear: row.card_exp_year ?? 0,
          },
  };
}

export interface BillingStoreOptions {
  /** A trial that ended without a card is cancelled this long after its end (the trial sweeper's grace). */
  trialGraceMs: number;
  now: () => Date;
  /** A plan choice's price per cycle as charged (configuration), for the mails that state it; null: not sold. */
  priceOf?: (choice: PlanChoice, currency: Currency) => number | null;
}

/**
 * Billing's record in the account schema. Saving writes billing_accounts and the product's own
 * subscription row (status, plan, has_card) in one transaction with the events it causes, so the
 * target service hears of a hold exactly when user_info shows it.
 */
export function createBillingStore(db: Db, options: BillingStoreOptions): BillingStore {
  return {
    async insert(record) {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO ${S}.billing_accounts (user_id, currency, customer_id, subscription_id, provider_status, suspend_at, period_end)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            record.userId,
            record.currency,
            record.customerId,
            record.subscriptionId,
            record.providerStatus,
            record.suspendAt,
            record.periodEnd,
          ],
        );
        const { rows } = await tx.query<{ plan: number | null }>(
          `SELECT plan FROM ${S}.subscriptions WHERE user_id = $1 FOR UPDATE`,
          [record.userId],
        );
        await tx.query(
          `UPDATE ${S}.subscriptions SET plan = $2, cycle = $3, options = $4 WHERE user_id = $1`,
          [record.userId, record.current.plan, record.current.cycle, record.current.options],
        );
        if (rows[0]?.plan !== record.current.plan)
          await writePlanChanged(tx, record, 'subscribed', options.now());
      });
    },

    async byUser(userId) {
      const { rows } = await db.query<BillingRow>(`${SELECT} WHERE b.user_id = $1`, [userId]);
      return rows[0] ? toRecord(rows[0]) : null;
    },

    async userOf({ subscriptionId, customerId }) {
      const { rows } = await db.query<{ user_id: string }>(
        `SELECT user_id FROM ${S}.billing_accounts WHERE subscription_id = $1 OR customer_id = $2 LIMIT 1`,
        [subscriptionId ?? null, customerId ?? null],
      );
      return rows[0]?.user_id ?? null;
    },

    async signUpOf(userId) {
      const { rows } = await db.query<{ email: string | null; currency: Currency; plan: number }>(
        `SELECT u.email, u.currency, s.plan FROM ${S}.users u JOIN ${S}.subscriptions s ON s.user_id = u.id WHERE u.id = $1`,
        [userId],
      );
      return rows[0] ?? null;
    },

    within(userId, work) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<BillingRow>(`${SELECT} WHERE b.user_id = $1 FOR UPDATE OF b, s`, [
          userId,
        ]);
        if (!rows[0]) throw new Error(`no billing record for ${userId}`);
        const before = toRecord(rows[0]);
        return work({
          record: before,
          async firstDelivery(eventId, type) {
            const inserted = await tx.query(
              `INSERT INTO ${S}.billing_webhook_events (event_id, type) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
              [eventId, type],
            );
            return inserted.rows.length === 1;
          },
          async save(record, effects, cause) {
            await saveRecord(tx, record);
            await publish(tx, record, effects, cause, options);
            if (record.current.plan !== before.current.plan) {
              await writePlanChanged(tx, record, cause, options.now());
            }
          },
        });
      });
    },

    recordCancellation(userId, feedback, at) {
      return recordCancellationFeedback(db, { id: randomUUID(), userId, feedback, at });
    },

    async dueHolds(now) {
      const { rows } = await db.query<{ user_id: string }>(
        `SELECT b.user_id FROM ${S}.billing_accounts b JOIN ${S}.subscriptions s ON s.user_id = b.user_id
          WHERE s.status = 6 AND b.suspend_at <= $1 ORDER BY b.suspend_at LIMIT 500`,
        [now],
      );
      return rows.map((row) => row.user_id);
    },
  };
}

async function saveRecord(tx: Sql, record: BillingRecord): Promise<void> {
  await tx.query(
    `UPDATE ${S}.billing_accounts
        SET provider_status = $2, suspend_at = $3, period_end = $4, cancel_at_period_end = $5,
            booked_plan = $6, booked_cycle = $7, booked_options = $8,
            card_brand = $9, card_last4 = $10, card_exp_month = $11, card_exp_year = $12,
            subscription_id = $13
      WHERE user_id = $1`,
    [
      record.userId,
      record.providerStatus,
      record.suspendAt,
      record.periodEnd,
      record.cancelAtPeriodEnd,
      record.booked?.plan ?? null,
      record.booked?.cycle ?? null,
      record.booked?.options ?? null,
      record.card?.brand ?? null,
      record.card?.last4 ?? null,
      record.card?.expMonth ?? null,
      record.card?.expYear ?? null,
      // A new subscription after the end (subscribing again) replaces the ended one.
      record.subscriptionId,
    ],
  );
  // A lifted hold clears the delete date the trial sweeper set; the trial's end stays for the record.
  await tx.query(
    `UPDATE ${S}.subscriptions
        SET status = $2, plan = $3, cycle = $4, options = $5, has_card = $6,
            delete_at = CASE WHEN $2 = 7 THEN delete_at ELSE NULL END
      WHERE user_id = $1`,
    [
      record.userId,
      record.status,
      record.current.plan,
      record.current.cycle,
      record.current.options,
      record.card !== null,
    ],
  );
}

async function publish(
  tx: Sql,
  record: BillingRecord,
  effects: BillingEffect[],
  cause: string,
  options: BillingStoreOptions,
): Promise<void> {
  const now = options.now();
  if (effects.includes('monitoring_stopped')) {
    const reason = effects.includes('ended')
      ? 'ended'
      : record.providerStatus === 'paused'
        ? 'trial_ended'
        : 'renewal_unpaid';
    if (reason === 'trial_ended') {
      // Paused by the provider before the trial sweeper got there: the same delete date it would set.
      await tx.query(
        `UPDATE ${S}.subscriptions
            SET delete_at = COALESCE(delete_at, COALESCE(trial_ends_at, $2) + make_interval(secs => $3::double precision / 1000))
          WHERE user_id = $1`,
        [record.userId, now, options.trialGraceMs],
      );
    }
    const eventId = `account-held:${record.userId}:${cause}:${now.getTime()}`;
    await writeEvent(tx, S, {
      id: eventId,
      subject: accountHeld.subject,
      data: accountHeld.encode({ eventId, userId: record.userId, heldAt: now, reason }),
    });
  }
  await writeBillingMails(tx, record, effects, cause, now, options);
  if (effects.includes('monitoring_may_resume')) {
    const eventId = `hold-lifted:${record.userId}:${cause}:${now.getTime()}`;
    await writeEvent(tx, S, {
      id: eventId,
      subject: holdLifted.subject,
      data: holdLifted.encode({ eventId, userId: record.userId, liftedAt: now }),
    });
  }
}

/**
 * The plan the account is on changed: the target service moves its sites to the new plan's history
 * limits (docs/product.md#history), in the same transaction that changed it.
 */
async function writePlanChanged(tx: Sql, record: BillingRecord, cause: string, now: Date): Promise<void> {
  const eventId = `plan-changed:${record.userId}:${cause}:${now.getTime()}`;
  await writeEvent(tx, S, {
    id: eventId,
    subject: planChanged.subject,
    data: planChanged.encode({ eventId, userId: record.userId, plan: record.current.plan, changedAt: now }),
  });
}

/** The mails the change sends, through the notifier as every account mail (AccountMailRequested). */
async function writeBillingMails(
  tx: Sql,
  record: BillingRecord,
  effects: BillingEffect[],
  cause: string,
  now: Date,
  options: BillingStoreOptions,
): Promise<void> {
  const mails = billingMails(record, effects);
  if (mails.length === 0) return;
  const { rows } = await tx.query<{
    email: string | null;
    lang: string;
    timezone: string | null;
    delete_at: Date | null;
  }>(
    `SELECT u.email, u.lang, u.timezone, s.delete_at FROM ${S}.users u JOIN ${S}.subscriptions s ON s.user_id = u.id
      WHERE u.id = $1 AND u.deleted_at IS NULL`,
    [record.userId],
  );
  const user = rows[0];
  // An X user who gave no address gets no mail; the dashboard banner still tells them.
  if (!user?.email) return;
  // Billing's clock may be the provider's, in whole seconds: two changes of one cause within a second
  // (a booking dropped and booked again) are two mails, so the id carries the change's own part.
  const change = randomUUID();
  for (const mail of mails) {
    const eventId = `billing-mail:${mail.kind}:${record.userId}:${cause}:${now.getTime()}:${change}`;
    // The trial that ended without a card names the delete date the hold set.
    const date = mail.kind === 'trial_ended_no_card' ? user.delete_at : mail.date;
    // The plan the mail names with its price: the booked one for a booking, else the one in force.
    const choice = record.booked && mail.plan === record.booked.plan ? record.booked : record.current;
    const price = options.priceOf?.(choice, record.currency) ?? null;
    await writeEvent(tx, S, {
      id: eventId,
      subject: accountMailRequested.subject,
      data: accountMailRequested.encode({
        eventId,
        userId: record.userId,
        to: user.email,
        lang: user.lang,
        kind: mail.kind,
        sealedToken: '',
        supportType: '',
        billingDate: date ?? undefined,
        plan: mail.plan,
        timezone: user.timezone ?? '',
        price: price ?? 0,
        currency: price === null ? '' : record.currency,
        cycle: price === null ? '' : choice.cycle,
        chatPlatform: '',
        chatLabel: '',
        chatReason: '',
        workspaceName: '',
        memberRole: '',
        inviterName: '',
        deviceBrowser: '',
        deviceOs: '',
        deviceClientAddress: '',
      }),
    });
  }
}
