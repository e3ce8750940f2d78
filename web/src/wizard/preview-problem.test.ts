import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { callProblemMessage, problemMessage, shouldRetryOpen } from './preview-problem.ts';

describe("the crawler's problems as the users' messages", () => {
  it('tells a 404 from other error statuses', () => {
    expect(problemMessage({ code: 'http_status', detail: 'HTTP 404 from http://shop.example/x' })).toBe(
      'notFound404',
    );
    expect(problemMessage({ code: 'http_status', detail: 'HTTP 500 from http://shop.example/x' })).toBe(
      'fetchFailed',
    );
  });

  it('names unreachable, unsupported, timed-out and missing-element cases', () => {
    expect(problemMessage({ code: 'unreachable', detail: '' })).toBe('unreachable');
    // Refused on purpose, not down: the wizard says the address is not public.
    expect(problemMessage({ code: 'refused_address', detail: '' })).toBe('notPublic');
    expect(problemMessage({ code: 'blocked_by_robot', detail: '' })).toBe('unsupported');
    expect(problemMessage({ code: 'too_large', detail: '' })).toBe('unsupported');
    expect(problemMessage({ code: 'timeout', detail: '' })).toBe('timeout');
    expect(problemMessage({ code: 'element_not_found', detail: '' })).toBe('elementNotFound');
    expect(problemMessage({ code: 'login_failed', detail: '' })).toBe('loginUnsupported');
    expect(problemMessage({ code: 'browser_crashed', detail: '' })).toBe('fetchFailed');
  });

  it('treats a call the gateway gave up on as a timeout and an expired session as such', () => {
    expect(callProblemMessage(new ApiError(503, 'unavailable', 'errors.unavailable'))).toBe('timeout');
    expect(callProblemMessage(new ApiError(0, 'network', 'errors.network'))).toBe('timeout');
    expect(callProblemMessage(new ApiError(404, 'preview_not_found', 'errors.preview_not_found'))).toBe(
      'previewExpired',
    );
    expect(
      callProblemMessage(new ApiError(429, 'too_many_previews', 'errors.too_many_previews')),
    ).toBeUndefined();
  });
});

describe('opening a page again', () => {
  it('happens after a timeout, up to 3 tries in all, and never after a 404', () => {
    expect(shouldRetryOpen('timeout', 1)).toBe(true);
    expect(shouldRetryOpen('timeout', 2)).toBe(true);
    expect(shouldRetryOpen('timeout', 3)).toBe(false);
    expect(shouldRetryOpen('notFound404', 1)).toBe(false);
    expect(shouldRetryOpen('unreachable', 1)).toBe(false);
  });
});
