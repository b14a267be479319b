#!/usr/bin/env bash
# The README's test command: installs what is missing, runs every suite — unit, integration
# (local stack, real GDAL), then e2e (the built CLI as a user runs it, alone, because it
# checks the process table) — prints one closing line, and fails if any emulator, worker or
# tool process outlived the suites, or if they left a geohub-* temporary entry behind.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
mkdir -p test-artifacts
GEOHUB_SUITE_MARK=$(node -p 'crypto.randomUUID()')
export GEOHUB_SUITE_MARK
status=0

# Every temporary file of this run (tests, the CLI, workers, stand-ins, tsx's cache) goes under one
# directory of its own, so what a test leaves behind is this run's, not another run's on the
# same machine; it is checked for geohub-* entries after the suites, then removed.
run_tmp="${TMPDIR:-/tmp}/geohub-test-${GEOHUB_SUITE_MARK:0:8}"
mkdir -p "$run_tmp" || exit 1
idle_pid=''
# Interrupted (Ctrl-C, CI cancelled): the suite in the background goes too.
trap '[ -n "$idle_pid" ] && kill "$idle_pid" 2>/dev/null; rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"

# The e2e test of `geohub up` left idle for 60 s (production defaults) spends its time waiting:
# on a full run it goes beside the other suites instead of after them (its output is printed at
# the end). The others run one after the other: on 2 cores they are CPU-bound, and e2e beside
# integration made the whole slower.
reports=(test-artifacts/vitest-main.json test-artifacts/vitest-e2e.json)
e2e_args=()
if [ $# -eq 0 ]; then
  idle=test/e2e/cli-up-idle.test.ts
  npx vitest run --project e2e "$idle" \
    --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest-idle.json \
    > test-artifacts/vitest-idle.log 2>&1 &
  idle_pid=$!
  reports+=(test-artifacts/vitest-idle.json)
  e2e_args=(--exclude "$idle")
fi
npx vitest run --project unit --project integration \
  --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest-main.json "$@" || status=1
npx vitest run --project e2e "${e2e_args[@]}" \
  --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest-e2e.json "$@" || status=1
if [ -n "$idle_pid" ]; then
  wait "$idle_pid" || status=1
  idle_pid=''
  cat test-artifacts/vitest-idle.log
fi

# The closing lines: the count, then each failure by name with its error (CI shows only the tail).
node scripts/test-summary.mjs "${reports[@]}" || status=1

# Leftovers: every process the suites started carries GEOHUB_SUITE_MARK in its environment (set
# here, inherited by emulators, Java, workers and tools, even reparented ones), so the check judges
# this run alone, not another one on the same machine. Zombies (state Z) hold nothing.
leftover=$(node -e '
  const fs = require("fs");
  const entry = `GEOHUB_SUITE_MARK=${process.env.GEOHUB_SUITE_MARK}`;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"))) continue;
      if (!fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(entry)) continue;
      console.log(pid, fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").slice(0, 200));
    } catch {}
  }' || true)
if [ -n "$leftover" ]; then
  echo "processes left running after the tests (a teardown bug):" >&2
  echo "$leftover" >&2
  status=1
fi

# Temporary entries: a test removes what it creates, pass or fail (test/support/temp-dir.ts).
left_tmp=$(find "$run_tmp" -mindepth 1 -maxdepth 1 -name 'geohub-*' -printf '%f\n' | sort)
if [ -n "$left_tmp" ]; then
  echo "temporary entries left behind by the tests (a cleanup bug), in $run_tmp:" >&2
  echo "$left_tmp" >&2
  status=1
fi
exit $status
