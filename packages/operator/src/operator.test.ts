import { describe, expect, it } from 'vitest';
import { OperatorConfigError, operatorFromEnv, SAMPLE_TEXT } from './operator.ts';
import {
  isRegistrationNumber,
  normaliseRegistrationNumber,
  registrationCheckDigit,
} from './registration-number.ts';

// Published registration numbers: Stripe Japan's (its fee invoices) and two corporate numbers
// whose check digits the NTA's own worked examples give.
const REAL_NUMBERS = ['T8010601046367', 'T4011001098993', 'T2120901007402'];

const FULL = {
  OPERATOR_LEGAL_NAME: '株式会社見守り',
  OPERATOR_LEGAL_NAME_EN: 'Mimamori K.K.',
  OPERATOR_REPRESENTATIVE: '代表取締役 山田太郎',
  OPERATOR_ADDRESS: '東京都千代田区丸の内一丁目1番1号',
  OPERATOR_PHONE: '03-1234-5678',
  OPERATOR_EMAIL: 'support@mimamori.example',
  OPERATOR_REGISTRATION_NUMBER: 'T8010601046367',
};

describe('the registration number', () => {
  it.each(REAL_NUMBERS)('accepts %s', (number) => {
    expect(isRegistrationNumber(number)).toBe(true);
  });

  it('computes the check digit from the twelve digits after it', () => {
    expect(registrationCheckDigit('010601046367')).toBe(8);
    expect(registrationCheckDigit('123456789012')).toBe(7);
    expect(registrationCheckDigit('000000000000')).toBe(9);
    expect(registrationCheckDigit('01060104636')).toBeNull();
  });

  it('refuses a wrong check digit, a changed digit and a swapped pair', () => {
    expect(isRegistrationNumber('T7010601046367')).toBe(false);
    expect(isRegistrationNumber('T8010601046368')).toBe(false);
    expect(isRegistrationNumber('T8010601046376')).toBe(false);
  });

  it('refuses a number without its T, of the wrong length or with letters', () => {
    expect(isRegistrationNumber('8010601046367')).toBe(false);
    expect(isRegistrationNumber('T801060104636')).toBe(false);
    expect(isRegistrationNumber('T80106010463670')).toBe(false);
    expect(isRegistrationNumber('T80106010463A7')).toBe(false);
    expect(isRegistrationNumber('')).toBe(false);
  });

  it('reads the ways people write it: lower case, hyphens, spaces, full-width', () => {
    expect(normaliseRegistrationNumber('t8-0106-0104-6367')).toBe('T8010601046367');
    expect(normaliseRegistrationNumber('Ｔ８０１０６０１０４６３６７')).toBe('T8010601046367');
    expect(isRegistrationNumber(' T 8010 6010 4636 7 ')).toBe(true);
  });
});

describe('operatorFromEnv', () => {
  it('reads every detail of a production run, English falling back to the Japanese', () => {
    expect(operatorFromEnv({ ...FULL, NODE_ENV: 'production' })).toEqual({
      sample: false,
      legalName: { ja: '株式会社見守り', en: 'Mimamori K.K.' },
      representative: { ja: '代表取締役 山田太郎', en: '代表取締役 山田太郎' },
      address: { ja: '東京都千代田区丸の内一丁目1番1号', en: '東京都千代田区丸の内一丁目1番1号' },
      phone: '03-1234-5678',
      email: 'support@mimamori.example',
      registrationNumber: 'T8010601046367',
    });
  });

  it('refuses to start a production run with nothing configured, naming every variable', () => {
    const refusal = () => operatorFromEnv({ NODE_ENV: 'production' });
    expect(refusal).toThrow(OperatorConfigError);
    expect(refusal).toThrow(/OPERATOR_LEGAL_NAME: missing/);
    try {
      refusal();
    } catch (error) {
      expect((error as OperatorConfigError).problems).toEqual([
        'OPERATOR_LEGAL_NAME: missing',
        'OPERATOR_REPRESENTATIVE: missing',
        'OPERATOR_ADDRESS: missing',
        'OPERATOR_PHONE: missing',
        'OPERATOR_EMAIL: missing',
        'OPERATOR_REGISTRATION_NUMBER: missing',
      ]);
    }
  });

  it('gives marked placeholders outside production when nothing is configured', () => {
    const details = operatorFromEnv({});
    expect(details.sample).toBe(true);
    expect(details.legalName).toEqual(SAMPLE_TEXT);
    expect(details.address).toEqual(SAMPLE_TEXT);
    expect(details.registrationNumber).toBe(SAMPLE_TEXT.ja);
    expect(SAMPLE_TEXT.ja).toContain('見本');
    expect(SAMPLE_TEXT.en).toContain('sample');
  });

  it('refuses half-configured details in any run, and a required run without them', () => {
    const { OPERATOR_EMAIL: _left, ...allButMail } = FULL;
    expect(() => operatorFromEnv(allButMail)).toThrow(/OPERATOR_EMAIL: missing/);
    expect(() => operatorFromEnv({}, { required: true })).toThrow(OperatorConfigError);
  });

  it('refuses an invalid detail even outside production, without echoing its value', () => {
    const bad = { ...FULL, OPERATOR_REGISTRATION_NUMBER: 'T8010601046368', OPERATOR_EMAIL: 'support' };
    expect(() => operatorFromEnv(bad)).toThrow(/OPERATOR_REGISTRATION_NUMBER: .*check digit/);
    expect(() => operatorFromEnv(bad)).toThrow(/OPERATOR_EMAIL: not an e-mail address/);
    expect(() => operatorFromEnv(bad)).not.toThrow(/T8010601046368/);
  });

  it('refuses a PO box and an address without its street number', () => {
    expect(() => operatorFromEnv({ ...FULL, OPERATOR_ADDRESS: '東京中央郵便局 私書箱12号' })).toThrow(
      /PO box/,
    );
    expect(() => operatorFromEnv({ ...FULL, OPERATOR_ADDRESS: 'P.O. Box 12, Tokyo' })).toThrow(/PO box/);
    expect(() => operatorFromEnv({ ...FULL, OPERATOR_ADDRESS: '東京都千代田区丸の内' })).toThrow(
      /street number/,
    );
  });

  it('takes a Japanese or international phone number, or the on-request omission', () => {
    expect(operatorFromEnv({ ...FULL, OPERATOR_PHONE: '０３－１２３４－５６７８' }).phone).toBe(
      '０３－１２３４－５６７８',
    );
    expect(operatorFromEnv({ ...FULL, OPERATOR_PHONE: '+81 3 1234 5678' }).phone).toBe('+81 3 1234 5678');
    expect(operatorFromEnv({ ...FULL, OPERATOR_PHONE: '090-1234-5678' }).phone).toBe('090-1234-5678');
    expect(operatorFromEnv({ ...FULL, OPERATOR_PHONE: 'on_request' }).phone).toBe('on_request');
    expect(operatorFromEnv({ ...FULL, OPERATOR_ADDRESS: 'on_request' }).address).toBe('on_request');
    expect(() => operatorFromEnv({ ...FULL, OPERATOR_PHONE: '1234' })).toThrow(/OPERATOR_PHONE/);
    expect(() => operatorFromEnv({ ...FULL, OPERATOR_PHONE: 'call us' })).toThrow(/OPERATOR_PHONE/);
  });

  it('stores the registration number as printed', () => {
    expect(
      operatorFromEnv({ ...FULL, OPERATOR_REGISTRATION_NUMBER: 't8-0106-0104-6367' }).registrationNumber,
    ).toBe('T8010601046367');
  });
});
