#!/bin/bash
# Registered sinks outlived by their connection, and completions that claim
# more than the sink (Documentation/hardening.md, "o2iblnd").
#
# A sink (the buffer of a GET_REQ, or of the PUT_ACK that answers a
# PUT_REQ) is fast-registered for the peer's RDMA writes. When its
# connection dies before the LOCAL_INV that ends the registration, the MR
# stays valid, and the PD is shared by every QP of the NI: the LNet
# message (and with it the buffer) must complete only after the MR was
# deregistered. ko2iblnd counts it in /sys/kernel/debug/ko2iblnd/stats:
# sinks_deregistered (registrations killed with their MR),
# finalized_after_dereg (messages that waited for that) and
# finalized_mr_live (messages finalized while their MR was still valid:
# must stay 0). Health is off (health_sensitivity 0), so that no
# recovery ping adds a connection of the NI to itself.
#
# g1: lnet_lndtest server; g0: client. Run 1: a short run, all ok. Run 2:
# a long stream of PUTs and GETs (sinks on both sides) during which the
# link is cut; ko2iblnd's timeout (10 s) closes the connections with their
# sinks registered. Each guest then checks its counters (that a sink did
# outlive its connection only on g0, whose stalled GETs always hold one). Run 3: both
# sides' test knob test_done_extra=1 makes every GET_DONE and PUT_DONE
# claim one byte more than the sink it answers: the receiver must fail the
# message (-EPROTO, done_nob_rejected) instead of giving LNet a length
# beyond the sink (lnet_lndtest would report "N+1 bytes, not N"). Run 4:
# honest again, all ok.
#
# Run: lnet-vmtest --suite o2iblnd-sink --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/o2iblnd-sink.sh
# shellcheck source=tests/scenarios/o2iblnd-lib.sh
. "$LNET_TOP/tests/scenarios/o2iblnd-lib.sh"
NET=/sys/class/net/eth0

t_flag_serve
# keepalive 15: g1's side of a connection g0 dropped during the cut
# carries nothing; only its keepalive NOOP (default: after 100 s idle)
# finds it dead
kib_load timeout=10 keepalive=15 || t_abort
# The cut fails messages as network timeouts, which cost the NI health
# (spec 3.2), and the NI's recovery pings would then connect it to
# itself: the connection counts below are meant to be the peer's alone.
echo 0 >/sys/module/lnet/parameters/lnet_health_sensitivity

# after the cut: every connection closed, its sinks' messages completed.
# The client always has a GET_REQ sink registered when the stream stalls
# (two of every eight operations, posted with their REG_MR); the server
# has a PUT_ACK sink only if a PUT_REQ got through before the cut.
sink_checks() {
	t_retry "connections of the cut closed" 90 stat_is conns 0
	t_retry "every tx back in the pool" 30 stat_is txs_out 0
	cat $STATS
	if [ "$GUEST_INDEX" = 0 ]; then
		t_check "a registered sink outlived its connection" \
			stat_gt sinks_deregistered 0
		t_check "its message completed after the MR was deregistered" \
			stat_gt finalized_after_dereg 0
	fi
	t_check "no message completed while its MR was valid" \
		stat_is finalized_mr_live 0
}

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || t_abort
	# the flags travel on the link g0 cuts: silence is no reason to quit
	T_FLAG_SILENCE=600 t_flag_wait cut-over 600 || t_abort
	sink_checks
	echo 1 >$K/test_done_extra
	t_flag_set lie
	t_flag_wait lie-over 600 || t_abort
	echo 0 >$K/test_done_extra
	t_check "the client's over-long PUT_DONEs were refused" \
		stat_gt done_nob_rejected 0
	t_flag_set honest
	t_retry "client's fourth run done" 600 grep -qx '[4-9]' $P/peer_done
	t_check "still no message completed while its MR was valid" \
		stat_is finalized_mr_live 0
	kib_server_end
fi

kib_client_run1 || t_abort

# run 2: the link is cut under a stream of sinks
echo 100000 >$P/count
echo 20 >$P/timeout_secs
echo 1 >$P/start_client
sleep 6
t_check "run 2 busy when the link is cut" grep -qx 1 $P/client_running
t_link 0 off || t_abort
t_retry "run 2 ended while the link is cut" 90 grep -qx 0 $P/client_running
sink_checks
t_link 0 on
t_retry "carrier back" 30 grep -qx 1 $NET/carrier
t_flag_set cut-over

# run 3: both sides claim a byte more than each sink
t_flag_wait lie 600 || t_abort
echo 1 >$K/test_done_extra
dmesg -C
# each refused completion costs its operation the wait for an event that
# will not come: keep that short
echo 64 >$P/count
echo 5 >$P/timeout_secs
echo 1 >$P/start_client
t_retry "run 3 ended" 300 grep -qx 0 $P/client_running
echo 0 >$K/test_done_extra
dmesg | grep -E 'lnet_lndtest|ko2iblnd' >/tmp/run3
cat /tmp/run3
t_check "the server's over-long GET_DONEs were refused" stat_gt done_nob_rejected 0
t_check "run 3: no LNet message longer than its sink" \
	bash -c "! grep -q 'bytes, not' /tmp/run3"
t_check "run 3: the lies failed operations" grep -q 'lnet_lndtest: not ok' /tmp/run3
t_flag_set lie-over

# run 4: everything works again
t_flag_wait honest 600 || t_abort
dmesg -C
echo 256 >$P/count
echo 60 >$P/timeout_secs
echo 1 >$P/start_client
t_retry "run 4 ended" 300 grep -qx 0 $P/client_running
t_lndtest_results run4
t_check "run 4 had no failure" grep -qx 0 $P/failures
t_check "still no message completed while its MR was valid" \
	stat_is finalized_mr_live 0
kib_unload
t_flag_bye 120
