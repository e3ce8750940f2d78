// `pnpm test:security`: the abuse matrix (forbidden destinations × vectors × modes), the gateway's
// security tests (CSRF spellings, isolation by route table, arbitrary input, secrets in logs) and the
// reset/sign-up timing bench; one table of every figure, then a last JSON line with them.
// Fails when a test fails, a case is answered wrongly, the canary was reached or a secret was logged.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { formatReport, reportJson, runAbuseMatrix } from '../services/crawler/test/abuse/abuse-matrix.ts';
import {
  readSecurityFigures,
  SECURITY_RESULTS_DIR,
} from '../services/gateway/test/security/security-figures.ts';

/** The largest difference of median answer times (registered vs unknown address) that tells nothing. */
const TIMING_BUDGET_MS = 5;

await rm(SECURITY_RESULTS_DIR, { recursive: true, force: true });
const tests = spawnSync('vitest', ['run', '--project', 'integration', 'services/gateway/test/security'], {
  stdio: 'inherit',
});
const timing = spawnSync('tsx', ['bench/account-timing.bench.ts'], { stdio: 'inherit' });
const abuse = await runAbuseMatrix();
console.log(formatReport(abuse));
console.log(reportJson(abuse));

const figures = await readSecurityFigures();
const figure = (file: string, name: string) => figures[file]?.[name] ?? 'missing';
const combined = {
  security: 'summary',
  abuseCorrect: abuse.correct,
  abuseTotal: abuse.total,
  canaryHits: abuse.canaryHits,
  csrfSpellingsTried: figure('csrf-spellings', 'tried'),
  csrfSpellingsRefused: figure('csrf-spellings', 'refused'),
  isolationRoutesCovered: figure('isolation', 'guarded'),
  isolationPublicByDesign: figure('isolation', 'publicByDesign'),
  fuzzedRequests: figure('input-fuzz', 'requests'),
  fuzzServerErrors: figure('input-fuzz', 'serverErrors'),
  secretsSearchedInLogs: figure('log-secrets', 'secretsSearched'),
  secretsFoundInLogs: figure('log-secrets', 'secretsFound'),
  resetMedianDifferenceMs: figure('account-timing', 'resetMedianDifferenceMs'),
  signUpMedianDifferenceMs: figure('account-timing', 'signUpMedianDifferenceMs'),
  timingTries: figure('account-timing', 'tries'),
  testsPassed: tests.status === 0,
};
const withinBudget = (value: unknown) =>
  typeof value === 'number' && value < TIMING_BUDGET_MS ? `< ${TIMING_BUDGET_MS} ms` : 'OVER BUDGET';
console.log('\nsecurity summary');
console.table([
  { check: 'abuse matrix: refused correctly / total', figure: `${abuse.correct}/${abuse.total}` },
  { check: 'canary hits', figure: abuse.canaryHits },
  {
    check: 'CSRF spellings refused / tried',
    figure: `${combined.csrfSpellingsRefused}/${combined.csrfSpellingsTried}`,
  },
  { check: 'routes covered by the isolation test', figure: combined.isolationRoutesCovered },
  { check: 'routes public by design (listed)', figure: combined.isolationPublicByDesign },
  {
    check: 'arbitrary requests: 500s / sent',
    figure: `${combined.fuzzServerErrors}/${combined.fuzzedRequests}`,
  },
  {
    check: 'secrets found in logs / searched',
    figure: `${combined.secretsFoundInLogs}/${combined.secretsSearchedInLogs}`,
  },
  {
    check: `reset: difference of medians (${combined.timingTries} tries)`,
    figure: `${combined.resetMedianDifferenceMs} ms (${withinBudget(combined.resetMedianDifferenceMs)})`,
  },
  {
    check: `sign-up: difference of medians (${combined.timingTries} tries)`,
    figure: `${combined.signUpMedianDifferenceMs} ms (${withinBudget(combined.signUpMedianDifferenceMs)})`,
  },
]);
console.log(JSON.stringify(combined));
const failed =
  tests.status !== 0 ||
  timing.status !== 0 ||
  abuse.correct !== abuse.total ||
  abuse.canaryHits !== 0 ||
  abuse.total === 0 ||
  combined.secretsFoundInLogs !== 0 ||
  combined.csrfSpellingsRefused !== combined.csrfSpellingsTried;
if (failed) process.exitCode = 1;
