#!/usr/bin/env bash
# Makes this machine ready for the tests, installing only what is missing: Debian's packages
# (the browser, CJK fonts, a proxy, and ip(8) for the network-namespace tests), PostgreSQL and
# NATS JetStream running, and the test database. Run by scripts/test.sh.
set -euo pipefail

bash "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" chromium-headless-shell fonts-noto-cjk tinyproxy iproute2

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! port_open 5432; then
  echo "starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
fi
for _ in $(seq 1 30); do port_open 5432 && break; sleep 1; done
psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -c 'CREATE DATABASE test'

if ! port_open 4222; then
  echo "starting NATS with JetStream" >&2
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
fi
for _ in $(seq 1 30); do port_open 4222 && break; sleep 1; done
