#!/usr/bin/env bash
# The README's test command: installs what is missing, runs every suite — unit, integration
# (local stack, real GDAL), then e2e (the built CLI as a user runs it, alone, because it
# checks the process table) — prints one closing line, and fails if any emulator, worker or
# tool process outlived the suites.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
mkdir -p test-artifacts
status=0

npx vitest run --project unit --project integration \
  --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest-main.json "$@" || status=1
npx vitest run --project e2e \
  --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest-e2e.json "$@" || status=1

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of ["test-artifacts/vitest-main.json", "test-artifacts/vitest-e2e.json"]) {
    if (!fs.existsSync(f)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests;
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
' || status=1

# Zombies (state Z) hold nothing and are not ours to reap when they were re-parented.
leftover=$(ps -eo pid,stat,args | awk '$2 !~ /^Z/' | grep -E 'DynamoDBLocal|emulator-main|geohub-worker|gdalwarp|gdal_grid|geohub-pointclo' | grep -v grep || true)
if [ -n "$leftover" ]; then
  echo "processes left running after the tests (a teardown bug):" >&2
  echo "$leftover" >&2
  status=1
fi
exit $status
