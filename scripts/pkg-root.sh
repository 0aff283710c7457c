#!/usr/bin/env bash
# pkg-root.sh DIR DEB...: a throw-away Debian 12 root in DIR with the given
# packages installed as an admin would install them (dpkg -i, DKMS building
# the modules against the stock kernel's headers), ready to boot in a guest
# under systemd (tests/scenarios/packages.sh).
#
# The base system (systemd, udev, dkms, the stock kernel and its headers)
# comes from the Debian mirror apt uses, through mmdebstrap, and is cached
# as a tarball keyed by its package list and the stock kernel's version:
# a warm machine only unpacks it (seconds), a cold one downloads about
# 250 MB and installs it (a few minutes).
#
# Prints "dkms: ..." lines and DKMS' own status on stderr, DIR on stdout.
set -euo pipefail

[ $# -ge 2 ] || {
	echo "usage: pkg-root.sh DIR DEB..." >&2
	exit 2
}
root=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}
kver=$("$top/scripts/stock-kernel.sh")

log() { echo "pkg-root: $*" >&2; }
die() {
	log "error: $*"
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (chroot, dpkg inside it)"
command -v mmdebstrap >/dev/null || die "mmdebstrap missing (run scripts/install-deps.sh)"

# What a node running LNet over tcp or o2ib needs, and a login-free boot.
base_packages=(
	systemd-sysv udev kmod iproute2 procps
	"linux-image-$kver" "linux-headers-$kver" dkms
	rdma-core
)
# The packages' own dependencies come with the base, so that dpkg -i
# finds them as on a node that has them already (no mirror needed once
# the base is cached). Ours are the ones given; the rest is from Depends.
ours=()
for deb in "$@"; do
	ours+=("$(dpkg-deb -f "$deb" Package)")
done
mapfile -t deps < <(for deb in "$@"; do dpkg-deb -f "$deb" Depends; done |
	tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/:any//' -e 's/[[:space:]]//g' |
	grep -v '^$' | grep -vxF -f <(printf '%s\n' "${ours[@]}") | sort -u)
base_packages+=("${deps[@]}")
key=$({
	echo "recipe 1"
	echo "${base_packages[*]}"
	dpkg-query -W -f='${Version}\n' "linux-image-$kver"
} | sha256sum | cut -c1-16)
base=$cache/pkg-root-$key.tar

exec 9>"$cache/.pkg-root.lock"
flock 9
if [ ! -f "$base" ]; then
	log "building the base root (mmdebstrap bookworm, cached as $base)"
	start=$(date +%s)
	mmdebstrap --variant=minbase --format=tar --include="$(
		IFS=,
		echo "${base_packages[*]}"
	)" --components=main bookworm "$base.tmp" \
		"deb http://deb.debian.org/debian bookworm main" \
		"deb http://deb.debian.org/debian bookworm-updates main" \
		"deb http://deb.debian.org/debian-security bookworm-security main" >&2
	mv "$base.tmp" "$base"
	log "base root built in $(($(date +%s) - start)) s"
	for old in "$cache"/pkg-root-*.tar; do
		[ "$old" = "$base" ] || rm -f "$old"
	done
fi
flock -u 9

umount_all() {
	local m
	for m in dev/pts dev proc sys; do
		mountpoint -q "$root/$m" && umount -l "$root/$m"
	done
	return 0
}
trap umount_all EXIT

# Never recurse into a mount (a crashed run's /proc or /dev bind).
if findmnt -rno TARGET | grep -q "^$root/"; then
	die "$root has mounts under it; unmount them first"
fi
rm -rf --one-file-system "$root"
mkdir -p "$root"
tar -xf "$base" -C "$root"

mkdir -p "$root/tmp/debs"
cp "$@" "$root/tmp/debs/"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

# DKMS builds for the kernels whose headers are installed, not for the
# host's running kernel: tell it which one is the target, as a node booted
# on that kernel would report it.
log "dpkg -i $(cd "$root/tmp/debs" && echo *.deb)"
chroot "$root" env DEBIAN_FRONTEND=noninteractive \
	sh -c 'dpkg -i /tmp/debs/*.deb' >&2 ||
	die "dpkg -i failed"
rm -rf "$root/tmp/debs"
chroot "$root" dkms status >&2
chroot "$root" dkms status | grep -q "$kver.*installed" ||
	die "DKMS did not install the modules for $kver"
echo "$root"
