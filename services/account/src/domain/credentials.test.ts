import { describe, expect, it } from 'vitest';
import { checkEmail, checkPassword } from './credentials.ts';

describe('credentials', () => {
  it.each([
    ['user@example.com', null],
    ['ユーザー@例え.jp', null],
    ['no-at-sign.example.com', 'invalid_email'],
    ['two@@example.com', 'invalid_email'],
    ['space in@example.com', 'invalid_email'],
    ['user@localhost', 'invalid_email'],
  ])('e-mail %s → %s', (email, problem) => {
    expect(checkEmail(email)).toBe(problem);
  });

  it.each([
    ['abcd1234', null],
    ['P@ss!w0rd~', null],
    ['abc1234', 'password_too_short'],
    ['パスワード12345678', 'invalid_password'],
    ['ａｂｃｄ１２３４', 'invalid_password'],
    ['has space 123', 'invalid_password'],
    ['', 'invalid_password'],
  ])('password %j → %s', (password, problem) => {
    expect(checkPassword(password)).toBe(problem);
  });
});
