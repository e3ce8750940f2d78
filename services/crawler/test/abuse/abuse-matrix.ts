import { fileURLToPath } from 'node:url';
import { runInLoopbackNamespace } from '@mimamori/egress';
import {
  CANARY_ADDRESSES,
  type CaseResult,
  HOSTILE_NAMES,
  isCorrect,
  type Mode,
  VECTORS,
} from './abuse-cases.ts';

export interface AbuseReport {
  cases: CaseResult[];
  canaryHits: number;
  /** vector → mode → [correct, total] */
  table: Record<string, Record<Mode, [number, number]>>;
  correct: number;
  total: number;
  /** The slowest refusal, in ms. */
  slowestMs: number;
  seconds: number;
}

const MODES: Mode[] = ['http', 'browser', 'preview'];

/** Runs the whole matrix in a loopback-only network namespace (abuse-run.ts) and sums it up. */
export async function runAbuseMatrix(): Promise<AbuseReport> {
  const started = Date.now();
  const run = await runInLoopbackNamespace({
    script: fileURLToPath(new URL('./abuse-run.ts', import.meta.url)),
    addresses: CANARY_ADDRESSES,
    hosts: HOSTILE_NAMES,
  });
  const lines = run.stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CaseResult | { canaryHits: number });
  const last = lines.at(-1);
  if (run.code !== 0 || !last || !('canaryHits' in last)) {
    throw new Error(`the abuse run failed (exit ${run.code}): ${run.stderr.slice(-4_000)}`);
  }
  const cases = lines.filter((line): line is CaseResult => 'mode' in line);
  const table: AbuseReport['table'] = {};
  for (const vector of VECTORS) {
    table[vector] = { http: [0, 0], browser: [0, 0], preview: [0, 0] };
  }
  for (const result of cases) {
    const cell = table[result.vector]?.[result.mode];
    if (!cell) continue;
    cell[1] += 1;
    if (isCorrect(result)) cell[0] += 1;
  }
  const correct = cases.filter(isCorrect).length;
  return {
    cases,
    canaryHits: last.canaryHits,
    table,
    correct,
    total: cases.length,
    slowestMs: Math.max(0, ...cases.map(({ ms }) => ms)),
    seconds: Math.round((Date.now() - started) / 1_000),
  };
}

/** The table a person reads: vector × mode → refused (or read) correctly / total. */
export function formatReport(report: AbuseReport): string {
  const width = 13;
  const cell = (text: string) => text.padEnd(width);
  const rows = [
    cell('vector') + MODES.map(cell).join(''),
    ...Object.entries(report.table).map(
      ([vector, modes]) =>
        cell(vector) + MODES.map((mode) => cell(`${modes[mode][0]}/${modes[mode][1]}`)).join(''),
    ),
    `all: ${report.correct}/${report.total} correct, canary hits: ${report.canaryHits}, slowest refusal: ${report.slowestMs} ms, ${report.seconds} s`,
  ];
  const wrong = report.cases.filter((result) => !isCorrect(result));
  for (const result of wrong) {
    rows.push(
      `  wrong: ${result.mode} ${result.vector} ${result.destination} → ${result.outcome.code} (${result.ms} ms): ${result.outcome.detail.slice(0, 200)}`,
    );
  }
  return rows.join('\n');
}

/** The figures as one JSON line, for CI and the integrator. */
export function reportJson(report: AbuseReport): string {
  const table = Object.fromEntries(
    Object.entries(report.table).map(([vector, modes]) => [
      vector,
      Object.fromEntries(MODES.map((mode) => [mode, `${modes[mode][0]}/${modes[mode][1]}`])),
    ]),
  );
  return JSON.stringify({
    security: 'abuse-matrix',
    correct: report.correct,
    total: report.total,
    canaryHits: report.canaryHits,
    slowestMs: report.slowestMs,
    seconds: report.seconds,
    table,
  });
}
