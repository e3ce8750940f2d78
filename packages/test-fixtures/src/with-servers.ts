import { test } from 'vitest';
import { startSmtpServer } from './smtp-server-fixture.ts';

/**
 * `itWithServers('…', async ({ smtp }) => …)`: each test that asks for a server gets its own,
 * closed when the test ends.
 */
// vitest reads a fixture's first parameter as a destructuring pattern to learn what it depends
// on; the test's own `task` is always there, so naming it depends on nothing.
export const itWithServers = test.extend('smtp', async ({ task: _task }, { onCleanup }) => {
  const smtp = await startSmtpServer();
  onCleanup(() => smtp.close());
  return smtp;
});
