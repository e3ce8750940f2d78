#!/usr/bin/env bash
# Runs the whole product in one process on embedded defaults (PGlite, in-process bus, local
# mailbox) and prints the URL to open. Data stays in .data/ between runs.
set -euo pipefail
# Browser-mode checks, screenshots and the registration wizard use Debian's headless Chromium
# and CJK fonts; the rest of the product runs without them.
bash "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" chromium-headless-shell fonts-noto-cjk \
  || echo "could not install chromium-headless-shell and fonts-noto-cjk: browser-mode checks will fail" >&2
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$MIMAMORI_ROOT"
echo "building the web app…" >&2
pnpm --filter @mimamori/web build >/dev/null
exec node --import tsx standalone/src/main.ts
