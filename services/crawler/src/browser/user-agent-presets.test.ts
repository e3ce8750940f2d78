import { describe, expect, it } from 'vitest';
import { deviceProfile } from './user-agent-presets.ts';

describe('deviceProfile', () => {
  it('gives phones a phone user agent, touch and a phone-sized viewport', () => {
    const iphone = deviceProfile({ kind: 'iphone' });
    expect(iphone.userAgent).toContain('iPhone');
    expect(iphone).toMatchObject({ isMobile: true, hasTouch: true, viewport: { width: 390 } });
    expect(deviceProfile({ kind: 'android' }).userAgent).toContain('Android');
  });

  it("sends Chromium's own user agent for none, the given text for free, and honours a screen size", () => {
    expect(deviceProfile({ kind: 'none' }).userAgent).toBeUndefined();
    expect(deviceProfile({ kind: 'free', value: 'MyBot/1.0' }).userAgent).toBe('MyBot/1.0');
    expect(deviceProfile({ kind: 'free', value: '  ' }).userAgent).toBeUndefined();
    expect(deviceProfile({ kind: 'safari' }, { width: 1920, height: 1080 })).toMatchObject({
      viewport: { width: 1920, height: 1080 },
      isMobile: false,
    });
  });
});
