// `pnpm test:security`: the abuse matrix with its table, and a last JSON line with the figures.
// Fails when any case is answered wrongly or the canary was reached.
import { formatReport, reportJson, runAbuseMatrix } from './abuse-matrix.ts';

const report = await runAbuseMatrix();
console.log(formatReport(report));
console.log(reportJson(report));
if (report.correct !== report.total || report.canaryHits !== 0 || report.total === 0) process.exitCode = 1;
