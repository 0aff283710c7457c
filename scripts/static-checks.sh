#!/usr/bin/env bash
# static-checks.sh sparse KDIR | checkpatch | shellcheck
# Prints every finding and a suite line; exit status 1 on any finding.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}
cd "$top" || exit 1

kernel_sources() {
	find lnet klnds include tests/selfcheck tests/bench tests/lndtest -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | sort
}

# Every shell script of the tree: *.sh, and any other file whose first line
# runs sh, bash or dash (build/ and .git left out).
shell_scripts() {
	local f
	find . \( -path ./build -o -path ./.git \) -prune -o -type f -print | sed 's|^\./||' | sort |
		while IFS= read -r f; do
			case "$f" in
			*.sh) echo "$f" ;;
			*) head -n1 -- "$f" 2>/dev/null |
				grep -qE '^#! *(/usr)?/bin/(env +)?(ba|da)?sh( |$)' && echo "$f" ;;
			esac
		done
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
	# MAKEFLAGS cleared: an outer "make -s" would hide the CHECK lines counted below
	out=$(MAKEFLAGS='' make -C "$kdir" M="$("$top/scripts/kbuild-top.sh")/build/stock" C=2 CHECK=sparse modules 2>&1)
	findings=$(echo "$out" | grep -E ': (warning|error):' || true)
	nfiles=$(echo "$out" | grep -c '^  CHECK' || true)
	if [ -n "$findings" ]; then
		echo "$findings"
		echo "suite sparse: 0 passed, 1 failed ($(echo "$findings" | wc -l) findings in $nfiles files)"
		exit 1
	fi
	if [ "$nfiles" -eq 0 ]; then
		echo "sparse: no file was checked (is sparse installed?)"
		echo "suite sparse: 0 passed, 1 failed"
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
shellcheck)
	if ! command -v shellcheck >/dev/null; then
		echo "shellcheck: not installed (make deps)"
		echo "suite shellcheck: 0 passed, 1 failed"
		exit 1
	fi
	mapfile -t scripts < <(shell_scripts)
	# The shebang (or a "# shellcheck shell=" line) picks the dialect;
	# -x follows "source" into the files that the "# shellcheck source="
	# lines name relative to the top.
	out=$(shellcheck --norc -x -f gcc -- "${scripts[@]}" 2>&1)
	rc=$?
	[ -n "$out" ] && echo "$out"
	fail=$(echo "$out" | grep -oE '^[^:]+:[0-9]+:[0-9]+: ' | cut -d: -f1 | sort -u | grep -c . || true)
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		# no finding, yet an error: the tool itself failed
		fail=${#scripts[@]}
	fi
	echo "suite shellcheck: $((${#scripts[@]} - fail)) passed, $fail failed"
	[ "$rc" -eq 0 ]
	;;
*)
	echo "usage: $0 sparse KDIR | checkpatch | shellcheck" >&2
	exit 2
	;;
esac
