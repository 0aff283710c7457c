#!/usr/bin/env bash
# Build (or reuse) the debug test kernel: Debian's linux-source-6.1 with
# tinyconfig + scripts/kernel/debug.config (KUnit, lockdep, KASAN, kmemleak).
#
# The result is cached outside the work tree, keyed by the fragment, the
# source package version and RECIPE below, and compiled through ccache so a
# rebuild of a changed fragment takes about a minute.
#
# Prints the build directory (usable as KDIR for out-of-tree modules) on the
# last line of stdout. Progress goes to stderr.
set -euo pipefail

RECIPE=3	# bump when the steps below change what gets built
top=$(cd "$(dirname "$0")/.." && pwd)
fragment=$top/scripts/kernel/debug.config
tarball=/usr/src/linux-source-6.1.tar.xz
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}
jobs=${JOBS:-$(nproc)}

log() { echo "build-debug-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$tarball" ] || die "$tarball missing (run scripts/install-deps.sh)"
command -v ccache >/dev/null || die "ccache missing (run scripts/install-deps.sh)"

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$( { echo "recipe $RECIPE"; echo "source $srcver"; cat "$fragment"; } |
	sha256sum | cut -c1-16)
src=$cache/linux-source-$srcver
out=$cache/kernel-$key
mkdir -p "$cache"

exec 9>"$cache/.kernel.lock"
flock 9

if [ -f "$out/.done" ]; then
	touch "$out/.done"	# last use, for the clean-up below
	log "cached: $out"
	echo "$out"
	exit 0
fi

if [ ! -f "$src/.unpacked" ]; then
	log "unpacking $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.unpacked"
	mv "$src.tmp" "$src"
fi

export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=5G
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
export KBUILD_BUILD_TIMESTAMP='2024-01-01'
export KBUILD_BUILD_USER=lnet
export KBUILD_BUILD_HOST=bench
kmake() { make -s -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$jobs" "$@"; }

rm -rf "$out"
mkdir -p "$out"
log "configuring $out"
kmake tinyconfig >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$fragment" >&2
kmake olddefconfig >&2

# A fragment option that Kconfig silently dropped (unmet dependency) would
# give a kernel that boots but lacks a check: refuse it.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$out/.config" || {
			log "option not in final .config: $line"
			missing=1
		}
		;;
	esac
done <"$fragment"
[ "$missing" = 0 ] || die "fragment options dropped by Kconfig"

log "building bzImage and modules with $jobs jobs (ccache: $CCACHE_DIR)"
start=$(date +%s)
kmake bzImage modules >&2
kmake modules_prepare >&2
log "built in $(( $(date +%s) - start )) s"
touch "$out/.done"
# Trees of other fragments are a gigabyte each: drop those unused for two
# days. Not at once: another checkout (a branch, a worktree) may still be
# on an older fragment, and removing its tree would make the two rebuild
# each other's kernels in turn.
for old in "$cache"/kernel-*; do
	[ "$old" = "$out" ] && continue
	if [ -z "$(find "$old/.done" -mtime -2 2>/dev/null)" ]; then
		rm -rf "$old"
	fi
done
echo "$out"
