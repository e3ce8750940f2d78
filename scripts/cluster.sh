#!/usr/bin/env bash
# Cluster mode on this machine: each service its own process against real PostgreSQL and NATS.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$MIMAMORI_ROOT"
pnpm --filter @mimamori/web build >/dev/null
exec node --import tsx scripts/cluster.ts
