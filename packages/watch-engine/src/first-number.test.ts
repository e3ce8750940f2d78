import { describe, expect, test } from 'vitest';
import { firstNumber } from './first-number.ts';

const NUMBERS: readonly [text: string, value: number][] = [
  ['在庫 12 個', 12],
  ['価格 1,234円', 1234],
  ['¥1,234', 1234],
  ['￥１，２３４', 1234],
  ['1,234.50 USD', 1234.5],
  ['USD 12.5', 12.5],
  ['$12.50', 12.5],
  ['＄３．５', 3.5],
  ['１２３４ 円', 1234],
  ['-5 pts', -5],
  ['−5', -5],
  ['－５', -5],
  ['-$5.5', -5.5],
  ['$-5.5', -5.5],
  ['営業利益 ▲1,234百万円', -1_234_000_000],
  ['△500', -500],
  ['12万3千円', 123000],
  ['1億2000万', 120000000],
  ['3.5万人', 35000],
  ['5千', 5000],
  ['2.5 million users', 2500000],
  ['12 thousand', 12000],
  ['0.05%', 0.05],
  ['ID-5', 5],
  ['2026/11/22 価格 980円', 2026],
  ['1,2345', 1],
  ['version 1.2.3', 1.2],
];

describe('firstNumber', () => {
  test.each(NUMBERS)('%s → %d', (text, value) => {
    expect(firstNumber(text)).toBeCloseTo(value, 9);
  });

  test.each(['', '在庫なし', 'no digits here', '三千円', '---'])('%j has no number', (text) => {
    expect(firstNumber(text)).toBeNull();
  });

  test('takes the first of several numbers', () => {
    expect(firstNumber('残り 3 個 (定価 5,000円)')).toBe(3);
  });
});
