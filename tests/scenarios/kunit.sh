#!/bin/bash
# Run the KUnit suites of lnet.ko (lnet_kunit.ko) and of ko2iblnd.ko
# (ko2iblnd_kunit.ko) on the debug kernel; the suites run while the module
# loads. Their results are collected before any rmmod (which drops them from
# debugfs). Then unload everything: kmemleak and lockdep reports from the
# whole run fail it (runner's console scan).
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
# insmod runs the suites and waits, uninterruptibly, for each case, which
# KUnit itself gives up after 300 s. The debug kernel calls a task hung
# after 60 s in that state; under TCG with KASAN and kmemleak a correct
# long case (match_100k_exact) can come close to that. A task is hung here
# only when KUnit would have timed it out.
echo 330 >/proc/sys/kernel/hung_task_timeout_secs
# The suites drive the message engine against test LNDs whose peers do
# not answer discovery pings: a first PUT would wait transaction_timeout
# for one. Discovery itself is tested between real nodes (multirail.sh).
t_insmod "load lnet (discovery off)" "$LNET_MODDIR/lnet/lnet.ko" \
	lnet_peer_discovery_disabled=1 || exit 1
t_insmod "load lnet_kunit (runs the suites)" "$LNET_MODDIR/lnet/tests/lnet_kunit.ko"
# the debug kernel has INFINIBAND and rdma_cm built in
o2ib=0 o2ib_kunit=0
t_insmod "load ko2iblnd" "$LNET_MODDIR/klnds/o2iblnd/ko2iblnd.ko" && o2ib=1
[ $o2ib -eq 1 ] &&
	t_insmod "load ko2iblnd_kunit (runs the suites)" \
		"$LNET_MODDIR/klnds/o2iblnd/tests/ko2iblnd_kunit.ko" && o2ib_kunit=1
t_kunit_collect
[ -n "$(ls /mnt/kunit 2>/dev/null)" ] || t_fail "kunit results present" "no suite results in debugfs"
for s in o2iblnd_wire o2iblnd_connect; do
	[ -f "/mnt/kunit/$s.ktap" ] || t_fail "kunit results of $s present" "no $s results in debugfs"
done
if [ $o2ib -eq 1 ]; then
	[ $o2ib_kunit -eq 1 ] && t_check "unload ko2iblnd_kunit" rmmod ko2iblnd_kunit
	t_check "unload ko2iblnd" rmmod ko2iblnd
fi
t_check "unload lnet_kunit" rmmod lnet_kunit
t_check "unload lnet" rmmod lnet
