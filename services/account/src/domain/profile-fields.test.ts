import { describe, expect, it } from 'vitest';
import { checkCancellationFeedback } from './cancellation-feedback.ts';
import { checkName, checkNotes, checkSupportType, checkTimezone } from './profile-fields.ts';

describe('profile fields', () => {
  it.each([
    ['山田 太郎', null],
    ["Anne-Marie O'Neil", null],
    ['', null],
    ['a'.repeat(101), 'name_too_long'],
    ['<script>alert(1)</script>', 'invalid_name'],
    ["Robert'); DROP TABLE users;--", 'invalid_name'],
    ['Taro\u0007', 'invalid_name'],
    ['Taro\u202E', 'invalid_name'],
    ['🍣 寿司チーム', null],
    ['👩🏽‍💻 Dev 🇯🇵', null],
    ['Ta\u200Dro', 'invalid_name'],
    ['🍣\u200D', 'invalid_name'],
  ])('name %j → %s', (name, problem) => {
    expect(checkName(name)).toBe(problem);
  });

  it.each([
    ['Asia/Tokyo', null],
    ['Etc/GMT-9', null],
    ['UTC', null],
    ['Mars/Olympus', 'invalid_timezone'],
    ['../etc/passwd', 'invalid_timezone'],
    ['', 'invalid_timezone'],
  ])('time zone %j → %s', (timezone, problem) => {
    expect(checkTimezone(timezone)).toBe(problem);
  });

  it('keeps line breaks in notes and refuses other control characters and overlong notes', () => {
    expect(checkNotes('line one\nline two\ttabbed')).toBeNull();
    expect(checkNotes('bell\u0007')).toBe('invalid_notes');
    expect(checkNotes('x'.repeat(2001))).toBe('notes_too_long');
  });

  it('knows the five support request types', () => {
    expect(checkSupportType('area')).toBeNull();
    expect(checkSupportType('billing')).toBe('invalid_support_type');
  });

  it('checks cancellation reasons against the product list', () => {
    expect(checkCancellationFeedback({ reasons: ['too_expensive', 'other'], comment: 'ok' })).toBeNull();
    expect(checkCancellationFeedback({ reasons: [], comment: '' })).toBe('cancellation_reason_required');
    expect(checkCancellationFeedback({ reasons: ['bored'], comment: '' })).toBe(
      'invalid_cancellation_reason',
    );
  });
});
