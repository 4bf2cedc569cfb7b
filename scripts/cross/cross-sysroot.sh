#!/usr/bin/env bash
# scripts/cross/cross-sysroot.sh — a private sysroot of foreign-architecture Debian libraries for a
# cross build, without installing them system-wide.
#
# Usage: scripts/cross/cross-sysroot.sh DEB_ARCH DIR PACKAGE...
#        e.g. scripts/cross/cross-sysroot.sh arm64 build/sysroot/arm64 libcriterion-dev libcriterion3
#
# Why: Debian's libcriterion-dev:arm64 cannot be installed beside the amd64 one (Multi-Arch:
# same needs identical versions, and bookworm's amd64 libnanomsg5 is a binNMU the arm64 one is
# not), so `make test-aarch64` links the unit tests against Criterion unpacked here instead.
# The packages and their run-time dependencies (apt-cache depends, recursively) are fetched
# with `apt-get download` (no root needed) and unpacked with `dpkg -x`. A -dev package is taken
# alone (its headers and link symlink; its own -dev dependencies are not needed to link), the
# others with their dependency closure. The C library, libgcc and libgomp come from the cross
# toolchain (/usr/aarch64-linux-gnu), so they are left out.
# Needs the foreign architecture known to apt (`make deps-all` adds it: dpkg --add-architecture).
# DIR/.complete lists what was unpacked; the script does nothing when it is present.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 DEB_ARCH DIR PACKAGE..." >&2; exit 2; }
arch=$1 dir=$2
shift 2

if [ -f "$dir/.complete" ]; then
    echo "cross-sysroot: $dir is complete"
    exit 0
fi
if ! apt-cache show "$1:$arch" >/dev/null 2>&1; then
    echo "cross-sysroot: apt knows no $1:$arch; run 'make deps-all' (it adds the $arch" \
         "architecture: dpkg --add-architecture $arch && apt-get update)" >&2
    exit 1
fi

targets=() dev=()
for p in "$@"; do
    case $p in *-dev) dev+=("$p:$arch") ;; *) targets+=("$p:$arch") ;; esac
done
# Every real package in the dependency closure, for this architecture only (arch-independent
# ones such as gcc-12-base are data, not libraries), less what the cross toolchain provides.
mapfile -t pkgs < <({ printf '%s\n' "${dev[@]}"
    [ ${#targets[@]} -eq 0 ] || apt-cache depends --recurse --no-recommends --no-suggests \
        --no-conflicts --no-breaks --no-replaces --no-enhances "${targets[@]}"; } |
    grep -E "^[a-z0-9][^ ]*:$arch\$" |
    grep -Ev "^(libc6|libgcc-s1|gcc-[0-9]+-base|libgomp1|libstdc\+\+6):" | sort -u)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cross-sysroot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt downloads as its _apt user when it can: let it write there (else it warns and goes on).
[ "$(id -u)" != 0 ] || ! id _apt >/dev/null 2>&1 || chown _apt "$tmp"
echo "cross-sysroot: downloading ${#pkgs[@]} $arch packages: ${pkgs[*]}"
(cd "$tmp" && apt-get download -q "${pkgs[@]}" >/dev/null)
rm -rf "$dir"
mkdir -p "$dir"
for deb in "$tmp"/*.deb; do
    dpkg -x "$deb" "$dir"
    dpkg-deb -f "$deb" Package Version | paste -sd' ' >>"$dir/.complete.tmp"
done
mv "$dir/.complete.tmp" "$dir/.complete"
echo "cross-sysroot: unpacked into $dir"
