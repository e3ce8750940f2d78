import { z } from 'zod';

const text = z.object({ ja: z.string(), en: z.string() }).describe('The text in Japanese and English.');

/**
 * GET /api/operator: the seller's legal details the legal pages fill in (特定商取引法に基づく表記,
 * the privacy policy), from the operator configuration (`@mimamori/operator`).
 */
export const operatorDetails = z
  .object({
    sample: z.boolean().describe('True when nothing is configured: every text is a marked placeholder.'),
    legal_name: text.describe('販売業者: the registered legal name.'),
    representative: text.describe('代表者 / 通信販売業務の責任者.'),
    address: text
      .nullable()
      .describe('所在地; null: disclosed without delay on request (特商法11条ただし書).'),
    phone: z.string().nullable().describe('電話番号; null: disclosed without delay on request.'),
    email: z.string().describe('The contact address, also where the on-request items are asked for.'),
    registration_number: z.string().describe('適格請求書発行事業者登録番号: "T" and 13 digits.'),
  })
  .describe('The operator details');
export type OperatorDetailsAnswer = z.infer<typeof operatorDetails>;
