#!/usr/bin/env bash
# The IAM mutation check (docs/iam-mutation.md): runs the integration tests that exercise whole
# runs under the local stack's IAM, recording what each principal was allowed to do, then removes
# each Allow statement of each role in turn and checks that some recorded request is then denied.
#
#   npm run test:iam-mutation            # the runs' test files and the CLI's on a stage (slow: real GDAL work)
#   npm run test:iam-mutation -- --quick # three of them: a first look (most statements unneeded)
set -euo pipefail
cd "$(dirname "$0")/.."
files=(
  test/integration/coordination/happy-path.test.ts
  test/integration/coordination/dead-letters.test.ts
  test/integration/coordination/versioned-source.test.ts
)
if [ "${1:-}" != "--quick" ]; then
  files+=(
    test/integration/coordination/redrive-race.test.ts
    test/integration/coordination/long-runs.test.ts
    test/integration/coordination/drain-neighbours.test.ts
    test/integration/coordination/run-control.test.ts
    test/integration/coordination/stranded-claims.test.ts
    test/integration/coordination/stale-stops.test.ts
    test/integration/reliability/bad-input.test.ts
    test/integration/reliability/spot-fallback.test.ts
    test/integration/reliability/aws-service-behaviour.test.ts
    test/integration/pyramid/pyramid-run.test.ts
    test/integration/pyramid/display-tiles.test.ts
    test/integration/coordination/collection-member-gone.test.ts
  )
  # The operator's grants are used by the CLI on a stage (--stage), run as a user runs it.
  e2e_files=(
    test/e2e/stage-operator.test.ts
    test/e2e/stage-submit-cancel.test.ts
  )
fi
record=$(mktemp "${TMPDIR:-/tmp}/geohub-iam-record-XXXXXX")
trap 'rm -f "$record"' EXIT
GEOHUB_IAM_RECORD="$record" npx vitest run --project integration "${files[@]}"
if [ -n "${e2e_files+x}" ]; then
  npm run build
  GEOHUB_IAM_RECORD="$record" npx vitest run --project e2e "${e2e_files[@]}"
fi
node --import tsx local/iam/mutation-report-main.ts "$record"
