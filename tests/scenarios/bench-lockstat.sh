#!/bin/bash
# Lock contention of the core under loopback PUTs from every CPU (debug
# kernel, CONFIG_LOCK_STAT): the MD lock table against a single MD lock.
# On a few vCPUs the table's benefit does not show as a rate (lockdep and
# TCG dominate the cost of a PUT); it shows as contended acquisitions.
# For each md_lock_slots value, one load of lnet_bench.ko in rate mode with
# /proc/lock_stat cleared just before; results go to /mnt/bench.txt as
#   lockstat-slotsN puts=P
#   lockstat-slotsN-CLASS contentions=C acquisitions=A
# for every lock class of lnet.ko (it names its classes lnet_*).
. "$LNET_TOP/scripts/guest/lib.sh"
lnet=$LNET_MODDIR/lnet/lnet.ko
bench=$LNET_MODDIR/tests/bench/lnet_bench.ko
out=/mnt/bench.txt
: >"$out"
secs=${BENCH_SECS:-5}

if [ ! -w /proc/lock_stat ]; then
	t_fail lockstat-available "no /proc/lock_stat: the kernel lacks CONFIG_LOCK_STAT"
	exit 0
fi
t_ok lockstat-available
echo 1 >/proc/sys/kernel/lock_stat

for slots in 0 1; do
	name=lockstat-slots$slots
	dmesg -C
	if ! insmod "$lnet" md_lock_slots=$slots; then
		t_fail "$name" "insmod lnet.ko failed"
		continue
	fi
	echo 0 >/proc/lock_stat
	if insmod "$bench" mode=rate threads=0 seconds="$secs"; then
		line=$(dmesg | grep -o 'lnet_bench: rate .*' | tail -n1)
		puts=$(echo "$line" | sed -n 's/.* puts=\([0-9]*\).*/\1/p')
		# A class line is "name: con-bounces contentions waittime-min
		# waittime-max waittime-total waittime-avg acq-bounces
		# acquisitions ..."; lnet.ko names its classes "lnet_*".
		awk -v n="$name" '$1 ~ /^lnet_.*:$/ && NF >= 12 {
			c = $1; sub(/:$/, "", c)
			printf "%s-%s contentions=%s acquisitions=%s\n", n, c, $3, $9
		}' /proc/lock_stat >/tmp/classes
		if [ -n "$puts" ] && [ -s /tmp/classes ]; then
			echo "$name puts=$puts" >>"$out"
			cat /tmp/classes >>"$out"
			t_ok "$name"
		else
			t_fail "$name" "no result (puts '$puts', $(wc -l </tmp/classes) lnet lock classes)"
		fi
	else
		t_fail "$name" "$(dmesg | grep lnet_bench | tail -n1)"
	fi
	rmmod lnet_bench 2>/dev/null
	rmmod lnet 2>/dev/null
done
cat "$out"
