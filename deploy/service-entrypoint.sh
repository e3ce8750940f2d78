#!/bin/sh
# Starts the service named by MIMAMORI_SERVICE (services/<name>/src/main.ts) as the container's
# main process, so it receives SIGTERM directly and shuts down on its own path.
# Plain Node runs the TypeScript itself (no tsx, no build step): --experimental-transform-types
# because a few sources use TypeScript-only syntax that needs more than type stripping
# (constructor parameter properties). deploy/test/image.test.ts runs this script for every service.
set -eu

service="${MIMAMORI_SERVICE:-}"
case "$service" in
  '' | *[!a-z-]*)
    echo "MIMAMORI_SERVICE must name a service (account, crawler, diff, gateway, notifier, scheduler, target); got '${service}'" >&2
    exit 64
    ;;
esac
# The image keeps the repository at /app, with this script in /app/deploy.
root="$(cd "$(dirname "$0")/.." && pwd)"
entry="${root}/services/${service}/src/main.ts"
if [ ! -f "$entry" ]; then
  echo "MIMAMORI_SERVICE=${service}: there is no ${entry}" >&2
  exit 64
fi

cd "$root"
exec node --experimental-transform-types --disable-warning=ExperimentalWarning "$entry"
