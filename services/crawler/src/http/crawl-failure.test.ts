import { describe, expect, it } from 'vitest';
import { classifyNetworkError, shownUrl } from './crawl-failure.ts';

describe('shownUrl', () => {
  it('keeps scheme, host, port and path, and drops user info, query and fragment', () => {
    expect(shownUrl('https://user:pass@shop.example:8443/members/list?token=abc&page=2#top')).toBe(
      'https://shop.example:8443/members/list',
    );
  });

  it('names other schemes without their content, and survives what is not a URL', () => {
    expect(shownUrl('data:text/html,<b>secret</b>')).toBe('a data: URL');
    expect(shownUrl('not a url')).toBe('the page');
  });
});

describe('classifyNetworkError', () => {
  it('keeps a refusal a refusal, never retried', () => {
    const refusal = Object.assign(new Error('refused localhost: the name is for the machine'), {
      name: 'RefusedAddressError',
    });
    expect(classifyNetworkError(refusal, 'http://localhost./?token=abc', false)).toMatchObject({
      code: 'refused_address',
      retryable: false,
    });
  });

  it('names only the host of a URL it could not reach', () => {
    const failure = classifyNetworkError(
      Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
      'https://user:pass@gone.example/path?token=abc',
      false,
    );
    expect(failure.detail).toBe('gone.example has no address (DNS)');
  });
});
