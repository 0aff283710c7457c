#!/bin/bash
# Two guests. g1 is an LNet node (lnet.ko with small lazy-portal caps and a
# 15 s transaction_timeout, ksocklnd.ko, lnet_selftest.ko for its lazy
# portals). g0 runs no LNet: "lnet-sockpeer hostile" floods g1
# (Documentation/hardening.md):
#   handshake-deadline: 4 connections whose connection request is complete
#               at 3 s and whose hello comes at 6.5 s: g1 must close them at
#               its handshake deadline (accept_timeout, 5 s, for request and
#               hello together) without answering the hello;
#   zc-flood:   0-byte PUTs asking for zero-copy ACKs, read back a few bytes
#               at a time: g1 must coalesce its ZC-ACKs, bound the NOOPs
#               queued on the connection and close it;
#   lazy-flood: PUTs no service takes on lazy portal 50: those over the
#               caps are dropped at once, the others at their deadline;
#   lst:        a selftest console forcing 200 sessions, sending TESTs over
#               max_tests / max_units / max_bulk_mb (E2BIG) and malformed
#               requests (dropped, EPROTO, EINVAL), then a ping and a fresh
#               session. g1 records Slab and MemAvailable just before and
#               after it: Slab may grow by at most LST_SLAB_LIMIT_KB.
# Meanwhile a well-behaved fake peer pings g1 (checks on g0). g1 samples
# its slab usage (/proc/meminfo Slab) every second: the peak may not exceed
# the usage before the floods by more than SLAB_LIMIT_KB; the figures are
# printed. The console must stay clean.
#
# Needs make tools (build/tools/sockpeer/lnet-sockpeer).
#
# Run: lnet-vmtest --suite socklnd-hostile --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/socklnd-hostile.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
me=$(t_my_addr)
# KASAN's quarantine of freed objects alone (1/32 of the guest's memory)
# counts as slab: the limit leaves room for it
SLAB_LIMIT_KB=${SLAB_LIMIT_KB:-65536}
LST_SLAB_LIMIT_KB=${LST_SLAB_LIMIT_KB:-4096}

avail_kb() {
	awk '/^MemAvailable:/ { print $2 }' /proc/meminfo
}

if [ "$GUEST_INDEX" = 0 ]; then
	sockpeer=$LNET_TOP/build/tools/sockpeer/lnet-sockpeer
	if [ ! -x "$sockpeer" ]; then
		t_fail "lnet-sockpeer present" "build it with make tools"
		exit 1
	fi
	t_flag_serve
	t_flag_wait target-up 300 || exit 1
	for mode in handshake-deadline zc-flood lazy-flood; do
		start=$SECONDS
		"$sockpeer" hostile "$mode" "$peer" "$me" >/tmp/$mode.out 2>&1
		rc=$?
		echo "$mode took $((SECONDS - start)) s"
		t_results_from /tmp/$mode.out ""
		t_check "$mode: lnet-sockpeer finished cleanly" test "$rc" = 0
	done
	t_flag_set lst-begin
	t_flag_wait lst-ready 120 || exit 1
	start=$SECONDS
	"$sockpeer" hostile lst "$peer" "$me" >/tmp/lst.out 2>&1
	rc=$?
	echo "lst took $((SECONDS - start)) s"
	t_results_from /tmp/lst.out ""
	t_check "lst: lnet-sockpeer finished cleanly" test "$rc" = 0
	t_flag_set hostile-done
	t_flag_bye 120
	exit 0
fi

t_flag_serve
# discovery off: the hostile peer (lnet-sockpeer) answers no discovery
# ping, so selftest's replies to it would wait for one
t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" \
	lazy_portal_max=8 lazy_peer_max=2 lnet_transaction_timeout=15 \
	lnet_peer_discovery_disabled=1 || exit 1
t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" || exit 1
t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko" || exit 1
sleep 2
base=$(t_slab_kb)
(
	while :; do
		t_slab_kb
		sleep 1
	done
) >/tmp/slab.log &
sampler=$!
t_flag_set target-up
t_flag_wait lst-begin 700 || exit 1
lst_slab0=$(t_slab_kb)
lst_avail0=$(avail_kb)
t_flag_set lst-ready
t_flag_wait hostile-done 300
lst_slab1=$(t_slab_kb)
lst_avail1=$(avail_kb)
kill $sampler
echo "lst: Slab before ${lst_slab0} kB, after ${lst_slab1} kB ($((lst_slab1 - lst_slab0)) kB);" \
	"MemAvailable before ${lst_avail0} kB, after ${lst_avail1} kB ($((lst_avail1 - lst_avail0)) kB)"
t_check "lst: Slab grew by less than ${LST_SLAB_LIMIT_KB} kB ($((lst_slab1 - lst_slab0)) kB)" \
	test $((lst_slab1 - lst_slab0)) -lt "$LST_SLAB_LIMIT_KB"
t_check "lst: the oversize TESTs logged as refused" \
	sh -c "dmesg | grep -q 'lnet_selftest: session .*: TEST from .* refused'"
end=$(t_slab_kb)
peak=$(sort -n /tmp/slab.log | tail -n1)
echo "slab: before ${base} kB, peak ${peak} kB (+$((peak - base)) kB), end ${end} kB, $(wc -l </tmp/slab.log) samples"
t_check "slab peak within ${SLAB_LIMIT_KB} kB of the start (+$((peak - base)) kB)" \
	test $((peak - base)) -le "$SLAB_LIMIT_KB"
t_check "the ZC flood's connection closed for its queued NOOPs" \
	sh -c "dmesg | grep -q 'does not read its ZC-ACKs'"
dmesg | grep -c 'ksocklnd\|lnet:' | sed 's/^/kernel messages of lnet and ksocklnd: /'
t_check "unload lnet_selftest" rmmod lnet_selftest
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
t_flag_bye 60
