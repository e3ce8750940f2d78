import { describe, expect, it } from 'vitest';
import { FROM } from './mail-test-data.ts';
import { openMailTransport } from './open-mail-transport.ts';

describe('openMailTransport', () => {
  it('refuses an unknown scheme without echoing the credentials', () => {
    expect(() => openMailTransport('http://user:hunter2@mail.example', FROM)).toThrow(
      /smtp:\/\/, smtps:\/\/ or mailbox:/,
    );
    expect(() => openMailTransport('http://user:hunter2@mail.example', FROM)).not.toThrow(/hunter2/);
  });
});
