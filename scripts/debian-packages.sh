#!/usr/bin/env bash
# Installs those of the named Debian packages that are missing (apt-get, as root).
set -euo pipefail
missing=()
for pkg in "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
