#!/usr/bin/env bash
# make deb: the Debian packages (debian/), built by dpkg-buildpackage from a
# copy of the tree's sources in build/deb/lnet-VERSION, so the work tree
# gets no build products. The .deb files land in build/deb/; their paths
# are the last lines of the output.
#
# The tools' own tests run in make check (tools step); the package build
# skips them (nocheck) unless DEB_BUILD_OPTIONS says otherwise.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/deb
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}

cd "$top"
version=$(dpkg-parsechangelog -SVersion)
src=$out/lnet-$version
rm -rf "$out"
mkdir -p "$src"

# The sources as a clean clone has them, plus files not yet committed
# (a work tree under test), never build products or ignored files.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		rsync -a --from0 --files-from=- "$top/" "$src/"
else
	rsync -a --exclude=/build --exclude=/.git "$top/" "$src/"
fi

export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-nocheck parallel=$(nproc)}
# CMake 3.17+ reads the launcher from the environment: a warm ccache
# rebuilds the tools in seconds.
if command -v ccache >/dev/null; then
	export CMAKE_CXX_COMPILER_LAUNCHER=ccache
	export CCACHE_DIR=$cache/ccache
	export CCACHE_BASEDIR=$src
	export CCACHE_NOHASHDIR=1
fi
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	echo "make-deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
}
rm -rf "$src"
ls "$out"/*.deb
