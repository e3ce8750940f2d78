#!/usr/bin/env bash
# The whole test run: lint, import rules (.dependency-cruiser.cjs), contracts, type-check, then
# unit, integration (real PostgreSQL, NATS JetStream, SMTP) and browser (system Chromium) tests. It first makes the machine ready:
# missing Debian packages, PostgreSQL on 127.0.0.1:5432 and NATS JetStream on 127.0.0.1:4222.
set -euo pipefail
bash "$(dirname "${BASH_SOURCE[0]}")/prepare-test-machine.sh"
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$MIMAMORI_ROOT"

# Each step says how far into the run it starts, so a slow step shows.
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }
# One command a line: under set -e a failure inside an && list does not stop the script, so a
# type error once printed and CI went on.
step lint
biome ci .
step "import rules"
pnpm run --silent imports
step "buf lint"
(cd proto && buf lint)
step "generated contracts are current"
bash proto/check-generated.sh
step type-check
tsc -p tsconfig.json
tsc -p web/tsconfig.json
step "build web"
pnpm --filter @mimamori/web build >/dev/null

step tests
results="$(mktemp -d)/vitest.json"
status=0
# The abuse matrix and the gateway's security tests run once, in their own step below, where
# their figures are printed.
vitest run --reporter=default --reporter=json --outputFile.json="$results" \
  --exclude services/crawler/test/abuse.int.test.ts --exclude 'services/gateway/test/security/**' || status=$?
# The ten slowest tests (none may take a minute: time is scaled, not waited for) and the run's
# length, then a closing line any CI reader understands, whatever vitest prints above it.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const root = process.cwd() + "/";
  const tests = r.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({ ms: test.duration ?? 0, name: `${file.name.replace(root, "")} > ${test.fullName}` })));
  console.log("\nslowest tests:");
  for (const { ms, name } of tests.sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
  const ended = Math.max(...r.testResults.map((file) => file.endTime));
  console.log(`tests took ${((ended - r.startTime) / 1000).toFixed(0)} s in all`);
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) { console.error("no test ran"); process.exit(1); }
' "$results" || status=1

# Every forbidden destination × vector × mode in a loopback-only namespace with a canary, CSRF
# spellings, isolation by route table, arbitrary input, secrets in logs and reset/sign-up timing:
# a table, then one JSON line with the figures.
step "security"
pnpm --silent test:security || status=1
echo "test command took $SECONDS s"
exit "$status"
