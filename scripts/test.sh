#!/usr/bin/env bash
# The README's test command: installs what is missing, runs every suite (unit, integration
# on the local stack with real GDAL), prints one closing line, and fails if any emulator,
# worker or tool process outlived the suite.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
mkdir -p test-artifacts

npx vitest run --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest.json "$@"
status=$?

node -e '
  const r = JSON.parse(require("fs").readFileSync("test-artifacts/vitest.json", "utf8"));
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
' || status=1

leftover=$(ps -eo pid,args | grep -E 'DynamoDBLocal|emulator-main|geohub-worker|gdalwarp|gdal_grid' | grep -v grep || true)
if [ -n "$leftover" ]; then
  echo "processes left running after the tests (a teardown bug):" >&2
  echo "$leftover" >&2
  status=1
fi
exit $status
