import { beforeAll, describe, expect, it } from 'vitest';
import { expected, isCorrect } from './abuse/abuse-cases.ts';
import { type AbuseReport, formatReport, runAbuseMatrix } from './abuse/abuse-matrix.ts';

// The attacker's battery: every forbidden destination by every vector in HTTP mode, browser mode
// and the wizard preview, with a canary on the refused addresses (abuse/abuse-run.ts).
let report: AbuseReport;

beforeAll(async () => {
  report = await runAbuseMatrix();
  console.log(formatReport(report));
}, 600_000);

describe('abuse matrix in a loopback-only network namespace', () => {
  it('never reaches the canary', () => {
    expect(report.canaryHits).toBe(0);
  });

  it('ran every vector in every mode', () => {
    expect(report.total).toBeGreaterThan(500);
    for (const modes of Object.values(report.table)) {
      for (const [, total] of Object.values(modes)) expect(total).toBeGreaterThan(0);
    }
  });

  it('ends every way to a forbidden destination as refused_address, promptly and without leaking', () => {
    const wrong = report.cases.filter((result) => expected(result) === 'refused' && !isCorrect(result));
    expect(wrong).toEqual([]);
  });

  it('drops sub-resources to forbidden places silently and reads the page', () => {
    const wrong = report.cases.filter((result) => expected(result) === 'read' && !isCorrect(result));
    expect(wrong).toEqual([]);
  });
});
