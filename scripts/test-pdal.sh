#!/usr/bin/env bash
# `npm run test:pdal`: the point-cloud paths on a real PDAL. Takes the `pdal` on PATH, else unpacks
# the PDAL tarball of ../shared/tools into a scratch directory of its own (removed at exit).
# `npm test` never needs PDAL; .ci/run runs this after it when the tarball is there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
scratch=''
trap '[ -n "$scratch" ] && rm -rf "$scratch"' EXIT
if ! command -v pdal >/dev/null 2>&1; then
  tarball=$(ls ../shared/tools/pdal-*-debian12-amd64.tar.xz 2>/dev/null | head -n 1 || true)
  if [ -z "$tarball" ]; then
    echo "test:pdal: no pdal on PATH and no ../shared/tools/pdal-*.tar.xz to unpack" >&2
    exit 1
  fi
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/geohub-pdal-XXXXXX")
  tar -xJf "$tarball" -C "$scratch"
  PATH="$(dirname "$(find "$scratch" -path '*/bin/pdal' -type f | head -n 1)"):$PATH"
  export PATH
fi
echo "test:pdal: $(pdal --version | grep -o 'pdal [0-9.]*') at $(command -v pdal)" >&2
npx vitest run --project pdal "$@"
