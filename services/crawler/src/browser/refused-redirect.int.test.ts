import { fileURLToPath } from 'node:url';
import { runInLoopbackNamespace } from '@mimamori/egress';
import { expect, it } from 'vitest';

it('refuses redirects to metadata and private addresses in browser mode, and their sub-resources, with nothing reaching them', async () => {
  const run = await runInLoopbackNamespace({
    script: fileURLToPath(new URL('../../test/browser-refused-redirect-probe.ts', import.meta.url)),
    addresses: ['169.254.169.254/32', '10.0.0.5/32'],
    hosts: { 'metadata.test': '169.254.169.254' },
  });
  const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !lastLine.startsWith('{'))
    throw new Error(`the run failed (${run.code}): ${run.stderr}`);
  const { results, hits } = JSON.parse(lastLine) as {
    results: Record<string, { ok: boolean; code?: string; detail?: string; areas?: { text: string }[] }>;
    hits: number;
  };
  for (const path of ['/to-metadata', '/to-private-https', '/to-metadata-by-name']) {
    expect(results[path], path).toMatchObject({ ok: false, code: 'refused_address' });
  }
  expect(results['/to-metadata']?.detail).toContain('169.254.169.254');
  expect(results['/subresource']).toMatchObject({ ok: true, areas: [{ text: 'own' }] });
  expect(hits).toBe(0);
});
