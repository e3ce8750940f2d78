import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInLoopbackNamespace } from '../src/index.ts';

interface Attempt {
  via: 'dispatcher' | 'proxy' | 'connect';
  target: string;
  meant: 'reached' | 'refused';
  outcome: string;
}

// Refused addresses are put on the namespace's loopback with a server behind them: if the
// guard let one through, the probe would reach it and report its status instead of 'refused'.
let attempts: Attempt[];

beforeAll(async () => {
  const run = await runInLoopbackNamespace({
    script: fileURLToPath(new URL('./guard-probe.ts', import.meta.url)),
    addresses: ['169.254.169.254/32', '10.0.0.1/32'],
    hosts: { 'metadata.test': '169.254.169.254' },
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  attempts = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Attempt);
});

describe('egress guard in a loopback-only network namespace', () => {
  it('reaches the allow-listed fixture server directly, through the proxy and through a tunnel', () => {
    const reached = attempts.filter(({ meant }) => meant === 'reached');
    expect(reached.map(({ via, outcome }) => [via, outcome])).toEqual([
      ['dispatcher', expect.stringMatching(/^status 200: reached 127\.0\.0\.1:\d+$/)],
      ['proxy', expect.stringMatching(/^status 200: reached 127\.0\.0\.1:\d+$/)],
      ['connect', 'status 200'],
    ]);
  });

  it('refuses loopback, metadata, private, unspecified and IPv6 forms on every path', () => {
    const refused = attempts.filter(({ meant }) => meant === 'refused');
    expect(refused.filter(({ outcome }) => outcome !== 'refused')).toEqual([]);
    expect(refused.filter(({ via }) => via === 'dispatcher').map(({ target }) => target)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('169.254.169.254'),
        expect.stringContaining('metadata.test'),
        expect.stringContaining('[::ffff:169.254.169.254]'),
        expect.stringContaining('10.0.0.1'),
        expect.stringContaining('localhost'),
      ]),
    );
    expect(refused.map(({ via }) => via)).toEqual([
      ...Array(9).fill('dispatcher'),
      ...Array(10).fill('proxy'),
      ...Array(4).fill('connect'),
    ]);
  });
});
