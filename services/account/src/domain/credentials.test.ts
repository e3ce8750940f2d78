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
    [`${'a'.repeat(250)}@example.com`, 'invalid_email'],
    ['user\u0000@example.com', 'invalid_email'],
    ['us\u200Ber@example.com', 'invalid_email'],
    ['user@exa\u202Emple.com', 'invalid_email'],
    ['user＠example.com', 'email_confusable'],
    ['ｕｓｅｒ@example.com', 'email_confusable'],
    ['user@ex\u0430mple.com', 'email_confusable'],
    ['p\u0430ypal@example.com', 'email_confusable'],
    ['user@\u043F\u0440\u0438\u043C\u0435\u0440.\u0440\u0444', null],
  ])('e-mail %j → %s', (email, problem) => {
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
    ['a'.repeat(129), 'password_too_long'],
  ])('password %j → %s', (password, problem) => {
    expect(checkPassword(password)).toBe(problem);
  });
});
