#!/usr/bin/env bash
# The guest bench from a work tree anywhere: copy this tree (its tracked
# files as they are now, and the stock modules already built) to a path
# under /tmp that is deep (longer than a Unix socket address holds) and has
# a space in it, then run the two-guest smoke suite from there. Guests
# mount a tmpfs on /tmp, so this also proves that they see the work tree
# at its own path. Run by make check after build-stock (suite deep-path).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
vmtest=$top/build/tools/vmtest/lnet-vmtest
[ -x "$vmtest" ] || { echo "deep-path: $vmtest missing (make tools)" >&2; exit 1; }
[ -f "$top/build/stock/lnet/lnet.ko" ] || {
	echo "deep-path: $top/build/stock has no lnet.ko (make modules)" >&2
	exit 1
}

base=$(mktemp -d /tmp/lnt-deep.XXXXXX)
trap 'rm -rf "$base"' EXIT
deep="$base/a clone with spaces/$(printf 'very-long-directory-name-%s/' 1 2 3)lnet"
# a sockaddr_un holds 107 bytes: sockets in the run directory could not work
sock="$deep/build/vmtest/deep-path/g0/control.sock"
[ ${#sock} -gt 107 ] || {
	echo "deep-path: $deep is not deep enough to test anything" >&2
	exit 1
}
mkdir -p "$deep/build"
git -C "$top" ls-files -z | rsync -a --from0 --files-from=- "$top/" "$deep/"
cp -a "$top/build/stock" "$deep/build/stock"
echo "deep-path: work tree copied to '$deep' (${#deep} bytes)"
"$vmtest" --top "$deep" --suite deep-path --kernel stock --guests 2 --timeout 300 \
	--script "$deep/tests/scenarios/smoke.sh"
