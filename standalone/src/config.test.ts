import { filingsSettingsFrom } from '@mimamori/filings';
import { describe, expect, it } from 'vitest';
import { standaloneEnv, standaloneFilingsEnv } from './config.ts';

const filingsOf = (env: Record<string, string>) => {
  const config = standaloneEnv
    .pick({ MIMAMORI_FILINGS_SOURCES: true, MIMAMORI_FILINGS_DEMO: true })
    .parse(env);
  return filingsSettingsFrom(standaloneFilingsEnv(config, { FILINGS_USER_AGENT: 'Example ops@example.com' }));
};

describe('the single-process product’s filings', () => {
  it('answers from the bundled demo while no source is named', () => {
    expect(filingsOf({})).toMatchObject({ sources: [], demo: true });
  });

  it('asks only the named sources, never beside the demo', () => {
    expect(filingsOf({ MIMAMORI_FILINGS_SOURCES: 'sec,globenewswire' })).toMatchObject({
      sources: ['sec', 'globenewswire'],
      demo: false,
      userAgent: 'Example ops@example.com',
    });
    expect(filingsOf({ MIMAMORI_FILINGS_SOURCES: 'tdnet', MIMAMORI_FILINGS_DEMO: 'true' })).toMatchObject({
      sources: ['tdnet'],
      demo: false,
    });
  });

  it('leaves filings without any source when the demo is turned off', () => {
    expect(filingsOf({ MIMAMORI_FILINGS_DEMO: 'false' })).toMatchObject({ sources: [], demo: false });
  });
});
