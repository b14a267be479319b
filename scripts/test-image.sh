#!/usr/bin/env bash
# `npm run test:image`: the worker image (built by `npm run image`) run as the worker, in podman,
# against a local stack (test/image). Builds the image first when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
image=${GEOHUB_IMAGE:-localhost/geohub-worker:latest}
podman image exists "$image" || bash scripts/image.sh
GEOHUB_IMAGE="$image" npx vitest run --project image "$@"
