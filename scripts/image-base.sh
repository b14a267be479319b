#!/usr/bin/env bash
# The worker image's base where no public container registry can be reached (these machines):
# Debian 12 made by debootstrap from Debian's own archive and imported into podman, and the
# container settings these machines need (docs/deploy.md, "The worker image"). On AWS the base
# is debian:bookworm-slim from a public registry instead (worker/Dockerfile's BASE_IMAGE).
#
#   bash scripts/image-base.sh     # prints the base image's name; makes it only when missing
set -euo pipefail
BASE=localhost/debian:bookworm-min
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

# podman, runc (crun refuses these machines' hybrid cgroup layout) and debootstrap, from Debian.
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
  apt-get install -y --no-install-recommends podman runc debootstrap uidmap >&2
fi

# Setting RLIMIT_NOFILE is refused here, and so is the systemd cgroup manager.
conf=/etc/containers/containers.conf
if ! grep -qs 'geohub: image settings' "$conf"; then
  mkdir -p /etc/containers
  cat >>"$conf" <<'EOF'
# geohub: image settings (scripts/image-base.sh): RLIMIT_NOFILE cannot be set on these machines,
# nor can systemd manage the cgroups; crun refuses their hybrid cgroup layout.
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
EOF
fi

if podman image exists "$BASE"; then
  echo "$BASE"
  exit 0
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/geohub-base-XXXXXX")
trap 'rm -rf "$root"' EXIT
started=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >&2
# The archive as debian:bookworm-slim lists it: the release, its updates and its security fixes
# (the image's pinned versions are the current ones of all three).
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${MIRROR}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# What debian:bookworm-slim also leaves out: the package lists and caches, docs and man pages.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* "$root"/usr/share/man/*
tar -C "$root" -c . | podman import --change 'CMD ["bash"]' - "$BASE" >&2
echo "image-base: $BASE made in $(($(date +%s) - started)) s" >&2
echo "$BASE"
