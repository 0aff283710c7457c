#!/usr/bin/env bash
# Build (or reuse) the reference LNet node: Lustre 2.17.0's LNet modules
# (libcfs, lnet, ksocklnd, ko2iblnd over the in-kernel verbs, lnet_selftest)
# and its lnetctl and lst, against Debian's stock 6.1 headers. A test peer
# only (tests/scenarios/interop.sh): nothing of it goes into this project.
#
# The tarball and the facts used here are in $LNET_SHARED/interop/README.md
# (LNET_SHARED defaults to the directory beside the work tree, ../shared).
# The result is cached in ${LNET_CACHE:-~/.cache/lnet-dev}/lustre-<key>,
# keyed by the tarball's sha256, the kernel version and RECIPE below:
#
#   <dir>/modules/{libcfs,lnet,ksocklnd,ko2iblnd,lnet_selftest}.ko
#   <dir>/bin/lnetctl, <dir>/bin/lst      (run with LD_LIBRARY_PATH=<dir>/lib)
#   <dir>/lib/                            the shared libraries they need
#
# Progress goes to stderr; the result dir is the last line of stdout.
set -euo pipefail

RECIPE=1	# bump when the steps below change what gets built
SHA256=fb07cab37485da3b133b3e8558493e08456890c7c19a1ca9809aa574b039957a
top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(realpath -m "${LNET_SHARED:-$top/../shared}")
tarball=$shared/interop/lustre-2.17.0.tar.xz
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}
jobs=${JOBS:-$(nproc)}
packages=(
	build-essential linux-headers-amd64 autoconf automake libtool pkg-config
	libyaml-dev libnl-3-dev libnl-genl-3-dev libkeyutils-dev libmount-dev
	libselinux1-dev xz-utils
)
modules=(
	libcfs/libcfs/libcfs.ko
	lnet/lnet/lnet.ko
	lnet/klnds/socklnd/ksocklnd.ko
	lnet/klnds/in-kernel-o2iblnd/ko2iblnd.ko
	lnet/selftest/lnet_selftest.ko
)

log() { echo "build-lustre: $*" >&2; }
die() { log "error: $*"; exit 1; }

install_packages() {
	local p status missing=()
	for p in "${packages[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$status" = installed ] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	[ "$(id -u)" -eq 0 ] || die "need root to install packages"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

[ -f "$tarball" ] || die "Lustre tarball $tarball missing: it comes from the shared" \
	"directory ($shared/interop, see its README.md; LNET_SHARED=<dir> to point elsewhere)"
install_packages
kver=$("$top/scripts/stock-kernel.sh")
kbase=${kver%-amd64}
ksrc=/usr/src/linux-headers-$kbase-common
kobj=/usr/src/linux-headers-$kver
[ -d "$ksrc" ] || die "$ksrc missing (linux-headers-amd64)"
[ -d "$kobj" ] || die "$kobj missing (linux-headers-amd64)"

key=$(printf 'recipe %s\ntarball %s\nkernel %s\n' "$RECIPE" "$SHA256" "$kver" |
	sha256sum | cut -c1-16)
out=$cache/lustre-$key
mkdir -p "$cache"
exec 9>"$cache/.lustre.lock"
flock 9

if [ -f "$out/.done" ]; then
	log "cached: $out"
	echo "$out"
	exit 0
fi

log "checking the sha256 of $tarball"
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
[ "$sum" = "$SHA256" ] || die "$tarball: sha256 $sum, expected $SHA256 (README.md)"

# Built in a scratch tree beside the result, then the products move into
# place; a failed build leaves its tree and build.log for a look, and the
# next run starts it again from scratch.
work=$out.build
stage=$out.tmp
rm -rf "$out" "$work" "$stage"
mkdir -p "$work"
blog=$work/build.log
# run DESCRIPTION CMD...: one build phase, its output in build.log
run() {
	local what=$1 t0=$SECONDS
	shift
	log "$what"
	if ! "$@" >>"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		die "$what failed; full log: $blog"
	fi
	log "  $what: $((SECONDS - t0)) s"
}
start=$SECONDS
log "unpacking into $work"
tar -xJf "$tarball" -C "$work" --strip-components=1
cd "$work"
run "autogen" sh autogen.sh
run "configure (LNet only, kernel $kver)" ./configure \
	--with-linux="$ksrc" --with-linux-obj="$kobj" \
	--disable-server --disable-client --disable-tests --disable-gss \
	--disable-crypto --disable-ldiskfs --disable-iokit --disable-doc \
	--disable-manpages --with-o2ib=yes
# only libcfs and LNet: the generated kbuild Makefile also lists lustre/
grep -q '^obj-m += lustre/' Makefile || die "no 'obj-m += lustre/' line in the generated Makefile"
sed -i '/^obj-m += lustre\/$/d' Makefile
run "modules ($jobs jobs)" make -j"$jobs" modules
run "tools" sh -c "make -j$jobs -C libcfs && make -j$jobs -C lnet"

mkdir -p "$stage/modules" "$stage/bin" "$stage/lib"
for m in "${modules[@]}"; do
	[ -f "$m" ] || die "$m not built; log: $blog"
	cp "$m" "$stage/modules/"
done
for t in lnetctl lst; do
	[ -x "lnet/utils/.libs/$t" ] || die "lnet/utils/.libs/$t not built; log: $blog"
	cp "lnet/utils/.libs/$t" "$stage/bin/"
done
# the shared libraries of the build tree that the tools link against
# (the libtool .libs dirs), with their version symlinks
mapfile -t libdirs < <(find . -type d -name .libs)
needed=$(for t in "$stage"/bin/*; do
	objdump -p "$t" | awk '$1 == "NEEDED" { print $2 }'
done | sort -u)
for lib in $needed; do
	for d in "${libdirs[@]}"; do
		[ -e "$d/$lib" ] || continue
		cp -a "$d/$lib" "$stage/lib/"	# the soname's symlink, or the file
		[ -L "$d/$lib" ] && cp "$(readlink -f "$d/$lib")" "$stage/lib/"
		break
	done
done
for t in "$stage"/bin/*; do
	if LD_LIBRARY_PATH=$stage/lib ldd "$t" | grep -q 'not found'; then
		LD_LIBRARY_PATH=$stage/lib ldd "$t" >&2
		die "$t: a shared library is missing from $stage/lib"
	fi
done
{
	echo "lustre 2.17.0 tarball sha256 $SHA256"
	echo "kernel $kver"
	echo "recipe $RECIPE"
	modinfo -F vermagic "$stage/modules/lnet.ko"
} >"$stage/build-info"
cd /
touch "$stage/.done"
mv "$stage" "$out"
rm -rf "$work"
log "built in $((SECONDS - start)) s: $out"
# results of other keys are never used again
for old in "$cache"/lustre-*; do
	[ "$old" = "$out" ] || rm -rf "$old"
done
echo "$out"
