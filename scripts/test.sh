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

# The checks before the tests read the sources and write nothing the others read (the web build
# writes web/dist, which biome, the import rules and tsc leave out), so they run side by side:
# most are one Node thread each, and one after another they left the second core idle. Each prints
# its output under its own heading, with the second it ended at; any failure stops the run before
# the tests, as before (a type error once printed and CI went on: each job's exit code is kept and
# read, not left to set -e).
checks="$(mktemp -d)"
check() {
  local name="$1"
  shift
  (
    code=0
    "$@" >"$checks/$name.log" 2>&1 || code=$?
    echo "$code $SECONDS" >"$checks/$name.status"
  ) &
}
step "checks: lint, import rules, buf lint, generated contracts, type-check, web build"
check lint biome ci .
check imports pnpm run --silent imports
check buf-lint bash -c 'cd proto && buf lint'
check generated bash proto/check-generated.sh
check typecheck tsc -p tsconfig.json
check typecheck-web tsc -p web/tsconfig.json
check web-build pnpm --filter @mimamori/web build
wait
failed=0
for name in lint imports buf-lint generated typecheck typecheck-web web-build; do
  read -r code ended <"$checks/$name.status"
  printf '\n== %s (exit %s, ended at %s s)\n' "$name" "$code" "$ended"
  # The web build's listing of every bundle says nothing a reader needs unless it failed.
  if [ "$name" != web-build ] || [ "$code" != 0 ]; then cat "$checks/$name.log"; fi
  [ "$code" = 0 ] || failed=1
done
rm -rf "$checks"
if [ "$failed" != 0 ]; then
  echo "a check failed: no tests run" >&2
  exit 1
fi

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
