#!/usr/bin/env bash
# `npm test` N times in a row (default 3) while a CPU-heavy job runs beside it: a loop of
# gdalwarp reprojecting the example raster to a large lanczos grid, one process per core by
# default. Reports each run's closing line and duration; exits non-zero if any run failed.
# The burner is started in a process group of its own and stopped by that group's PID.
#   bash scripts/test-under-load.sh [runs] [burners]   (extra vitest arguments: after --)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
burners=${2:-$(nproc)}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = "--" ] && shift

work=$(mktemp -d "${TMPDIR:-/tmp}/geohub-load-XXXXXX")
burner_pid=""
stop_burner() {
  if [ -n "$burner_pid" ]; then
    kill -TERM -- "-$burner_pid" 2>/dev/null
    wait "$burner_pid" 2>/dev/null
    burner_pid=""
  fi
  rm -rf "$work"
}
trap stop_burner EXIT
trap 'exit 130' INT TERM

# One gdalwarp after another in each of $burners loops, until stopped.
setsid bash -c '
  work=$1; burners=$2; src=$3
  for i in $(seq 1 "$burners"); do
    ( while :; do
        gdalwarp -q -overwrite -t_srs EPSG:3857 -ts 3000 3000 -r lanczos "$src" "$work/burn-$i.tif" >/dev/null 2>&1
      done ) &
  done
  wait
' burner "$work" "$burners" "$PWD/examples/raster/RGB.byte.tif" &
burner_pid=$!
# setsid makes the group an instant after the fork: until then the group's PID names nothing.
for _ in $(seq 1 50); do
  [ "$(ps -o pgid= -p "$burner_pid" | tr -d ' ')" = "$burner_pid" ] && break
  sleep 0.1
done
echo "load: $burners gdalwarp loop(s) in process group $burner_pid"

failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  bash scripts/test.sh "$@" >"$work/run-$i.log" 2>&1
  code=$?
  took=$(($(date +%s) - start))
  summary=$(grep -E '^tests: ' "$work/run-$i.log" | tail -1)
  echo "run $i/$runs: exit $code in ${took}s — ${summary:-no summary line}"
  if [ "$code" -ne 0 ]; then
    failed=$((failed + 1))
    cp "$work/run-$i.log" "test-artifacts/under-load-run-$i.log" 2>/dev/null &&
      echo "  log: test-artifacts/under-load-run-$i.log"
  fi
done
echo "under load: $((runs - failed)) of $runs runs passed"
[ "$failed" -eq 0 ]
