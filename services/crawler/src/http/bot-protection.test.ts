import { describe, expect, it } from 'vitest';
import { botProtectionMarker } from './bot-protection.ts';

describe('botProtectionMarker', () => {
  it.each([
    [
      403,
      { server: 'cloudflare' },
      '<title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>',
      'Cloudflare challenge',
    ],
    [503, { 'cf-mitigated': 'challenge' }, '', 'Cloudflare challenge'],
    [403, { server: 'cloudflare' }, '<title>Attention Required! | Cloudflare</title>', 'Cloudflare'],
    [403, { server: 'AkamaiGHost' }, '<H1>Access Denied</H1>Reference&#32;#18&#46;abc', 'Akamai'],
    [403, {}, '<div id="px-captcha"></div>', 'PerimeterX'],
    [403, { 'x-datadome': 'protected' }, '<html></html>', 'DataDome'],
    [200, {}, '<script src="https://geo.captcha-delivery.com/captcha/"></script>', 'DataDome'],
    [200, {}, '<iframe src="/_Incapsula_Resource?SWJIYLWA=719d34d3"></iframe>', 'Imperva'],
    [200, {}, '<script>window.awsWafCookieDomainList=[];</script><input name="aws-waf-token">', 'AWS WAF'],
    [429, {}, '<p>Our systems have detected unusual traffic from your computer network.</p>', 'bot check'],
  ])('recognises a %i wall (%j)', (status, headers, body, name) => {
    expect(botProtectionMarker(status, headers, body)).toBe(name);
  });

  it.each([
    [404, {}, '<title>Not Found</title>'],
    [403, { server: 'nginx' }, '<title>403 Forbidden</title>'],
    [200, {}, '<form><div class="g-recaptcha"></div></form><p>contact us</p>'],
    [503, {}, '<h1>Service Unavailable</h1>'],
  ])('leaves an ordinary %i alone', (status, headers, body) => {
    expect(botProtectionMarker(status, headers, body)).toBeNull();
  });
});
