#!/usr/bin/env bash
# Runs the whole product in one process on embedded defaults (PGlite, in-process bus, local
# mailbox) and prints the URL to open. Data stays in .data/ between runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$MIMAMORI_ROOT"
echo "building the web app…" >&2
pnpm --filter @mimamori/web build >/dev/null
exec node --import tsx packages/standalone/src/main.ts
