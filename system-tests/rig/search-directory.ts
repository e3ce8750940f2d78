import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpVisitor } from '@mimamori/test-fixtures';
import { waitFor } from './wait-for.ts';

/**
 * Searches the filings directory until it answers companies: the service fetches the directory
 * a moment after it starts, later still on a loaded machine. One search each 3 s stays inside a
 * user's search allowance (20 at once, then one each 3 s).
 */
export async function searchUntilFound(
  visitor: HttpVisitor,
  path: '/api/cik/search' | '/api/tdedi/search',
  query: string,
): Promise<Record<string, unknown>[]> {
  return waitFor(
    `"${query}" found by ${path}`,
    async () => {
      const answer = await visitor.post(path, { query });
      if (answer.status === 200 && Array.isArray(answer.body) && answer.body.length > 0) {
        return answer.body as Record<string, unknown>[];
      }
      await sleep(3_000);
      return undefined;
    },
    120_000,
  );
}
