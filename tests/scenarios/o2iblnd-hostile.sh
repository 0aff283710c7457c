#!/bin/bash
# A hostile o2ib peer (issue 15, "Tests that make this last";
# Documentation/hardening.md, "o2iblnd"). Two guests. g1 is the target:
# lnet.ko and a test build of ko2iblnd on rxe0 (timeout=10 like the other
# o2iblnd suites; its default limits: max_conns_per_peer=4,
# max_nids_per_addr=4, max_passive=64) with lnet_lndtest's server
# (portal 42: a 1 MiB sink for PUTs, pattern MDs for GETs). g0 runs no
# LNet: lnet-ibpeer (librdmacm / libibverbs over its own rxe0) speaks the
# o2iblnd wire to g1:
#   ping:          a well-behaved peer: connect, 20 pings (more than the
#                  queue depth: credits must come back), REPLY checked;
#                  its first three requests are refused late, after g1
#                  made their QP and posted their receives (the test knob
#                  test_refuse_after_qp=3, the path a request takes when
#                  the limits were reached meanwhile or the peer went):
#                  connect_retry's fourth attempt connects, and the
#                  refused connections must go without a trace;
#   stale-rkey:    RDMA writes to sinks whose PUT is over (the connection
#                  torn down after PUT_ACK without PUT_DONE, or the PUT
#                  completed / a later PUT NAKed), from a new QP: each must
#                  fail (g1's finalized_mr_live stays 0);
#   connreq-flood: 200 requests claiming other NIDs and 50 claiming ours,
#                  none completed (no RTU), then malformed ones: refused
#                  (NO_RESOURCES / the reason the wire spec names) or
#                  bounded, while a well-behaved connection keeps pinging;
#   bad-desc:      bad cookies, descriptors (0, 258, overflowing
#                  fragments), nob / checksum / stamp / NID lies, credit
#                  overruns on an established connection: the connection
#                  is closed (or the message dropped) and a fresh
#                  connection is served.
# Each ends with a ping. g1 samples Slab (/proc/meminfo) every second
# from before the first connection until every connection is gone: the
# peak may exceed
# the start by at most SLAB_LIMIT_KB (64 MiB) and the end by at most
# SLAB_END_LIMIT_KB (16 MiB). Why these bounds: what a peer can make g1
# hold is at most 16 connections (max_conns_per_peer x max_nids_per_addr)
# plus 64 half-open requests (max_passive), each a QP and a few small
# objects (the 2Q+2 receive buffers are pages, not slab) - well under
# 1 MiB of slab; the rest of the margin is KASAN's quarantine of freed
# objects (1/32 of the guest's memory), which counts as slab and empties
# only lazily. An unbounded flood (a connection or peer per request) or a
# leak per bad message would grow by far more over 250 requests and
# hundreds of messages. The counters of /sys/kernel/debug/ko2iblnd/stats
# are checked, and the console must stay clean.
#
# Needs make tools (build/tools/ibpeer/lnet-ibpeer).
#
# Run: lnet-vmtest --suite o2iblnd-hostile --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/o2iblnd-hostile.sh
# shellcheck source=tests/scenarios/o2iblnd-lib.sh
. "$LNET_TOP/tests/scenarios/o2iblnd-lib.sh"
me=$(t_my_addr)
SLAB_LIMIT_KB=${SLAB_LIMIT_KB:-65536}
SLAB_END_LIMIT_KB=${SLAB_END_LIMIT_KB:-16384}

if [ "$GUEST_INDEX" = 0 ]; then
	ibpeer=$LNET_TOP/build/tools/ibpeer/lnet-ibpeer
	if [ ! -x "$ibpeer" ]; then
		t_fail "lnet-ibpeer present" "build it with make tools"
		exit 1
	fi
	t_flag_serve
	# user-space verbs and rdma_cm (modules on the stock kernel)
	modprobe -q ib_uverbs 2>/dev/null
	modprobe -q rdma_ucm 2>/dev/null
	t_rxe_up || t_abort
	t_flag_wait target-up 300 || exit 1
	for mode in ping stale-rkey connreq-flood bad-desc; do
		start=$SECONDS
		"$ibpeer" "$mode" "$peer" "$me" >"/tmp/$mode.out" 2>"/tmp/$mode.err"
		rc=$?
		echo "$mode took $((SECONDS - start)) s"
		t_results_from "/tmp/$mode.out" "$mode: "
		cat "/tmp/$mode.err"
		t_check "$mode: lnet-ibpeer finished with every check passed" test "$rc" = 0
	done
	"$ibpeer" ping --count 4 "$peer" "$me" >/tmp/last.out 2>&1
	t_results_from /tmp/last.out "last: "
	t_flag_set hostile-done
	t_flag_bye 120
	exit 0
fi

t_flag_serve
kib_load timeout=10 || t_abort
# what the hostile peer makes fail would cost the NI health, and its
# recovery pings would connect it to itself: the connection counts below
# are meant to be the hostile peer's alone
echo 0 >/sys/module/lnet/parameters/lnet_health_sensitivity
t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || t_abort
echo 3 >/sys/module/ko2iblnd/parameters/test_refuse_after_qp
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
t_flag_wait hostile-done 840
# g0's connections are closed and half-open requests end at their deadline
t_retry "every connection gone" 180 stat_is conns 0
kill $sampler
end=$(t_slab_kb)
peak=$(sort -n /tmp/slab.log | tail -n1)
cat $STATS
echo "slab: before ${base} kB, peak ${peak} kB (+$((peak - base)) kB)," \
	"end ${end} kB (+$((end - base)) kB), $(wc -l </tmp/slab.log) samples"
echo "figures: conns_max $(stat conns_max) passive_max $(stat passive_max)" \
	"peers $(stat peers) connreqs_refused $(stat connreqs_refused)" \
	"sinks_registered $(stat sinks_registered) sinks_invalidated $(stat sinks_invalidated)" \
	"sinks_deregistered $(stat sinks_deregistered) finalized_mr_live $(stat finalized_mr_live)"
t_check "slab peak within ${SLAB_LIMIT_KB} kB of the start (+$((peak - base)) kB)" \
	test $((peak - base)) -le "$SLAB_LIMIT_KB"
t_check "slab at the end within ${SLAB_END_LIMIT_KB} kB of the start (+$((end - base)) kB)" \
	test $((end - base)) -le "$SLAB_END_LIMIT_KB"
t_check "no message finalized with its sink MR live" stat_is finalized_mr_live 0
t_check "three requests refused after their QP was made" \
	test "$(cat /sys/module/ko2iblnd/parameters/test_refuse_after_qp)" = 0
t_check "sinks were registered for the peer's PUTs" stat_gt sinks_registered 0
t_check "connection requests refused over the limits" stat_gt connreqs_refused 200
t_check "connections bounded (max_conns_per_peer x max_nids_per_addr)" stat_le conns_max 16
t_check "half-open requests bounded (max_passive)" stat_le passive_max 64
t_check "no peer kept for a refused NID" stat_le peers 4
kib_unload
t_flag_bye 120
