import { isRegistrationNumber, normaliseRegistrationNumber } from './registration-number.ts';

/** A text the legal pages show in each language; English falls back to the Japanese when not given. */
export interface OperatorText {
  ja: string;
  en: string;
}

/**
 * The seller's legal details: who sells (特定商取引法 11条, APPI 32条) and who issues the qualified
 * invoices. `on_request` is the lawful omission of 11条ただし書: the pages say the item is disclosed
 * without delay when asked, by e-mail to `email`.
 */
export interface OperatorDetails {
  /** True when nothing was configured: every text is a placeholder and the pages say so (never in production). */
  sample: boolean;
  /** 販売業者: the registered legal name (a company's 商号, a sole proprietor's own name), not a brand. */
  legalName: OperatorText;
  /** 代表者 / 通信販売業務の責任者. */
  representative: OperatorText;
  /** 所在地 where the business operates, with its street number; not a PO box. */
  address: OperatorText | 'on_request';
  /** 電話番号, as written, or disclosed on request. */
  phone: string | 'on_request';
  /** Where customers write to (and ask for what `on_request` leaves off). */
  email: string;
  /** 適格請求書発行事業者登録番号: "T" and 13 digits, its check digit verified. */
  registrationNumber: string;
}

/** The variables the details are read from (Helm: `operator` in values.yaml; deploy/compose.yaml). */
export const OPERATOR_ENV = {
  legalName: 'OPERATOR_LEGAL_NAME',
  legalNameEn: 'OPERATOR_LEGAL_NAME_EN',
  representative: 'OPERATOR_REPRESENTATIVE',
  representativeEn: 'OPERATOR_REPRESENTATIVE_EN',
  address: 'OPERATOR_ADDRESS',
  addressEn: 'OPERATOR_ADDRESS_EN',
  phone: 'OPERATOR_PHONE',
  email: 'OPERATOR_EMAIL',
  registrationNumber: 'OPERATOR_REGISTRATION_NUMBER',
} as const;
export type OperatorEnvName = (typeof OPERATOR_ENV)[keyof typeof OPERATOR_ENV];

/** What a detail nobody configured reads as, so a sample page can never pass for a real seller's. */
export const SAMPLE_TEXT: OperatorText = {
  ja: '（設定されていません：見本）',
  en: '(not configured: sample)',
};

/** Lists every missing or invalid detail by variable name (never its value), as loadConfig does. */
export class OperatorConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `Invalid operator details (${problems.length} problem(s)):\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
    this.name = 'OperatorConfigError';
    this.problems = problems;
  }
}

const ON_REQUEST = 'on_request';
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// A PO box is not where a business operates (特商法 guidance); 私書箱 is its Japanese name.
const PO_BOX = /私書箱|\bP\.?\s*O\.?\s*Box\b/i;
// The full street number is required: some digit, Arabic or kanji, must be in the address.
const HAS_NUMBER = /[0-9一二三四五六七八九十]/;

/**
 * Reads and validates the operator details. A production run (NODE_ENV=production, or `required`)
 * needs every detail; elsewhere (the single-process product, tests) the ones left unset read as
 * marked placeholders and the details say `sample`. A detail that is set but invalid is refused
 * in every run, so a typo never reaches a legal page or an invoice.
 */
export function operatorFromEnv(
  env: Record<string, string | undefined>,
  options: { required?: boolean } = {},
): OperatorDetails {
  const required = options.required ?? env.NODE_ENV === 'production';
  const problems: string[] = [];
  const read = (name: OperatorEnvName) => env[name]?.trim() || undefined;
  const names = Object.values(OPERATOR_ENV).filter((name) => !name.endsWith('_EN'));
  const configured = names.some((name) => read(name) !== undefined);
  // Half-configured details are a mistake in any run: placeholders only when none is set.
  const mustHave = required || configured;
  let sample = false;

  const need = (name: OperatorEnvName): string | undefined => {
    const value = read(name);
    if (value !== undefined) return value;
    if (mustHave) problems.push(`${name}: missing`);
    else sample = true;
    return undefined;
  };
  const text = (name: OperatorEnvName, enName: OperatorEnvName): OperatorText => {
    const ja = need(name);
    if (ja === undefined) return SAMPLE_TEXT;
    return { ja, en: read(enName) ?? ja };
  };

  const legalName = text(OPERATOR_ENV.legalName, OPERATOR_ENV.legalNameEn);
  const representative = text(OPERATOR_ENV.representative, OPERATOR_ENV.representativeEn);

  let address: OperatorDetails['address'] = SAMPLE_TEXT;
  const addressValue = need(OPERATOR_ENV.address);
  if (addressValue === ON_REQUEST) address = ON_REQUEST;
  else if (addressValue !== undefined) {
    if (PO_BOX.test(addressValue))
      problems.push(`${OPERATOR_ENV.address}: a PO box is not an address the business operates from`);
    else if (!HAS_NUMBER.test(addressValue))
      problems.push(`${OPERATOR_ENV.address}: needs the full street number`);
    address = { ja: addressValue, en: read(OPERATOR_ENV.addressEn) ?? addressValue };
  }

  let phone: OperatorDetails['phone'] = SAMPLE_TEXT.ja;
  const phoneValue = need(OPERATOR_ENV.phone);
  if (phoneValue === ON_REQUEST) phone = ON_REQUEST;
  else if (phoneValue !== undefined) {
    if (!isPhoneNumber(phoneValue))
      problems.push(`${OPERATOR_ENV.phone}: not a phone number (or on_request)`);
    phone = phoneValue;
  }

  let email = SAMPLE_TEXT.ja;
  const emailValue = need(OPERATOR_ENV.email);
  if (emailValue !== undefined) {
    if (!EMAIL_SHAPE.test(emailValue)) problems.push(`${OPERATOR_ENV.email}: not an e-mail address`);
    email = emailValue;
  }

  let registrationNumber = SAMPLE_TEXT.ja;
  const numberValue = need(OPERATOR_ENV.registrationNumber);
  if (numberValue !== undefined) {
    if (!isRegistrationNumber(numberValue)) {
      problems.push(`${OPERATOR_ENV.registrationNumber}: not "T" and 13 digits with a valid check digit`);
    }
    registrationNumber = normaliseRegistrationNumber(numberValue);
  }

  if (problems.length > 0) throw new OperatorConfigError(problems);
  return { sample, legalName, representative, address, phone, email, registrationNumber };
}

/** A Japanese number (0 and 9 or 10 more digits) or an international one (+ and 8 to 15 digits). */
function isPhoneNumber(value: string): boolean {
  const written = value.normalize('NFKC');
  if (!/^\+?[0-9][0-9\s\-()]*$/.test(written)) return false;
  const digits = written.replace(/[^0-9]/g, '');
  return written.startsWith('+') ? digits.length >= 8 && digits.length <= 15 : /^0[0-9]{9,10}$/.test(digits);
}
