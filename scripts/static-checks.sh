#!/usr/bin/env bash
# static-checks.sh sparse KDIR | checkpatch
# Prints every finding and a suite line; exit status 1 on any finding.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}
cd "$top"

kernel_sources() {
	find lnet klnds include tests/selfcheck tests/bench tests/lndtest -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | sort
}

# checkpatch.pl and its data files, extracted once from linux-source-6.1.
checkpatch_path() {
	local ver dir
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1) || return 1
	dir=$cache/checkpatch-$ver
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir" && mkdir -p "$dir"
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$dir" --strip-components=1 \
			linux-source-6.1/scripts/checkpatch.pl \
			linux-source-6.1/scripts/spelling.txt \
			linux-source-6.1/scripts/const_structs.checkpatch || return 1
		touch "$dir/.done"
	fi
	echo "$dir/scripts/checkpatch.pl"
}

case "${1:-}" in
sparse)
	kdir=${2:?kdir}
	make -s modules KDIR="$kdir" >/dev/null 2>&1 || { echo "sparse: the module build fails"; echo "suite sparse: 0 passed, 1 failed"; exit 1; }
	out=$(make -C "$kdir" M="$("$top/scripts/kbuild-top.sh")/build/stock" C=2 CHECK=sparse modules 2>&1)
	findings=$(echo "$out" | grep -E ': (warning|error):' || true)
	nfiles=$(echo "$out" | grep -c '^  CHECK' || true)
	if [ -n "$findings" ]; then
		echo "$findings"
		echo "suite sparse: 0 passed, 1 failed ($(echo "$findings" | wc -l) findings in $nfiles files)"
		exit 1
	fi
	echo "suite sparse: 1 passed, 0 failed ($nfiles files checked)"
	;;
checkpatch)
	cp=$(checkpatch_path) || { echo "checkpatch: cannot extract checkpatch.pl"; echo "suite checkpatch: 0 passed, 1 failed"; exit 1; }
	pass=0 fail=0
	while IFS= read -r f; do
		if out=$(perl "$cp" --no-tree --file --terse --show-types "$f" 2>&1); then
			pass=$((pass + 1))
		else
			echo "$out" | grep -v '^total:'
			fail=$((fail + 1))
		fi
	done < <(kernel_sources)
	echo "suite checkpatch: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	;;
*)
	echo "usage: $0 sparse KDIR | checkpatch" >&2
	exit 2
	;;
esac
