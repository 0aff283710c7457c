#!/usr/bin/env bash
# Build lnet.ko and lnet_kunit.ko for the debug kernel and run the KUnit
# suites in one guest. Prints each suite's case counts and the suite line.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export LNET_TOP=$top
make -s modules-debug
make -s tools >/dev/null
rc=0
build/tools/vmtest/lnet-vmtest --suite kunit --kernel debug --guests 1 --timeout 900 \
	--mem 2048 --smp 2 --kernel-arg possible_cpus=8 --kernel-arg numa=fake=2:10,20,20,10 \
	--script "$top/tests/scenarios/kunit.sh" "$@" || rc=$?
for f in build/vmtest/kunit/g0/kunit/*.ktap; do
	[ -f "$f" ] || continue
	printf '%-28s %4d ok %4d not ok\n' "$(basename "$f" .ktap)" \
		"$(grep -cE '^\s*ok [0-9]+' "$f")" "$(grep -cE '^\s*not ok [0-9]+' "$f")"
done
exit $rc
