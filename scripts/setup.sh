#!/usr/bin/env bash
# Installs what geohub needs on a Debian machine with Node 20, then builds. Idempotent: each
# step is skipped when its result is already there, so the README's commands can always call it.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

command -v gdalwarp >/dev/null 2>&1 || { echo "setup: installing gdal-bin" >&2; apt_install gdal-bin; }
# GDAL's Python bindings under Debian's python3: the metatile engine (worker/metatile-command.ts) and
# the CRS tests' oracle (test/support/crs-oracle.py).
/usr/bin/python3 -c 'from osgeo import gdal' >/dev/null 2>&1 || { echo "setup: installing python3-gdal" >&2; apt_install python3-gdal; }
# tini: the worker image's PID 1; the worker-bundle tests run the worker under it as a container does.
command -v tini >/dev/null 2>&1 || { echo "setup: installing tini" >&2; apt_install tini; }
command -v java >/dev/null 2>&1 || { echo "setup: installing a Java runtime for DynamoDB Local" >&2; apt_install default-jre-headless; }
# The browser is for the run-control page's tests only: `--without-browser` (the example) skips it.
[ "${1:-}" = "--without-browser" ] || [ -x /usr/bin/chromium ] || { echo "setup: installing chromium for the run-control page's browser tests" >&2; apt_install chromium; }

# npm ci when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

npm run --silent build

# DynamoDB Local's class-data archive, once per JVM (local/stack/prepare-class-archive.ts): every
# local stack's Java then starts on mapped classes. Never fails the setup: without it, only slower.
node dist/local/stack/prepare-class-archive-main.js
