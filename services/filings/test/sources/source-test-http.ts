import type { SourceHttp } from '../../src/clients/source-http.ts';
import type { SourceName } from '../../src/domain/filing.ts';
import { RequestPacer } from '../../src/domain/pacing.ts';

export const TEST_USER_AGENT = 'Mimamori test ops@mimamori.example';

/** The adapters' HTTP settings for a replay server: no pacing to wait for, a short timeout. */
export function testHttp(source: SourceName): SourceHttp {
  return { source, pacer: new RequestPacer(1_000, 1_000), userAgent: TEST_USER_AGENT, timeoutMs: 5_000 };
}
