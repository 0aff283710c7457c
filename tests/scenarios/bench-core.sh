#!/bin/bash
# Core benchmarks on one guest (stock kernel: no KASAN/lockdep overhead).
# Each measurement is one load of lnet_bench.ko on a freshly loaded lnet.ko;
# results go to /mnt/bench.txt as "key value" lines for scripts/bench.sh.
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
lnet=$LNET_MODDIR/lnet/lnet.ko
bench=$LNET_MODDIR/tests/bench/lnet_bench.ko
out=/mnt/bench.txt
: >"$out"

# measure NAME LNET_PARAMS BENCH_PARAMS...: the result line's numbers.
measure() {
	local name=$1 lnet_params=$2 line
	shift 2
	dmesg -C
	# shellcheck disable=SC2086
	if insmod "$lnet" $lnet_params && insmod "$bench" "$@"; then
		line=$(dmesg | grep -o 'lnet_bench: .*' | tail -n1)
		echo "$name $line" >>"$out"
		t_ok "$name"
	else
		t_fail "$name" "$(dmesg | grep lnet_bench | tail -n1)"
	fi
	rmmod lnet_bench 2>/dev/null
	rmmod lnet 2>/dev/null
}

for n in 10 1000 100000; do
	measure "match-$n" "" mode=match mes=$n messages=20000
done
for slots in 0 1; do
	for th in 1 0; do
		measure "rate-slots$slots-threads$th" "md_lock_slots=$slots" \
			mode=rate threads=$th seconds=3
	done
done
cat "$out"
