#!/usr/bin/env bash
# Fails when packages/contracts/src/gen is not what `pnpm gen` produces from the current protos,
# so a proto change cannot be merged without its regenerated code.
set -euo pipefail

proto_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$proto_dir")"
committed="$root/packages/contracts/src/gen"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

cd "$proto_dir"
# --output is prepended to the template's `out` (../packages/contracts/src/gen), so the fresh
# copy lands in $scratch/packages/contracts/src/gen without touching the committed one.
"$root/node_modules/.bin/buf" generate --output "$scratch/proto"
fresh="$scratch/packages/contracts/src/gen"

if ! diff -r -u "$committed" "$fresh"; then
  echo "packages/contracts/src/gen is stale: run 'pnpm gen' and commit the result." >&2
  exit 1
fi
echo "packages/contracts/src/gen matches the protos."
