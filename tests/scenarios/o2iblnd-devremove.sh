#!/bin/bash
# The RDMA device goes away under a running o2ib NI (rdma link delete), as
# when an HCA is unplugged or its driver unloaded.
#
# Both guests are lnet_lndtest servers and clients of each other. g1
# deletes rxe0 while both streams run: g0's to g1, and g1's own to g0,
# whose senders the test knob test_send_delay_ms holds in ko2iblnd's
# send() with a tx taken (as a preempted sender would be) when the device
# goes. The NI stays up, so send() goes on being called: g1 must stop its
# senders (send() fails with -ENETDOWN: sends_refused in
# /sys/kernel/debug/ko2iblnd/stats), wait for those holding a tx, and only
# then free the tx pool and the PD (freeing them under a sleeping sender
# is a use-after-free KASAN reports). It must release everything of the
# device through rdma_cm's removal events (the deletion completes: it
# waits for us), log the NI down, keep the LNet NI up, and unload cleanly
# afterwards (no leak, no WARN: the runner scans the consoles and
# kmemleak). Both streams must end with failures instead of hanging
# (ko2iblnd timeout=10, lndtest timeout_secs=20 and wait_secs=20: a
# stream's next run asks the peer for 20 s, not the default 120).
#
# Run: lnet-vmtest --suite o2iblnd-devremove --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/o2iblnd-devremove.sh
# shellcheck source=tests/scenarios/o2iblnd-lib.sh
. "$LNET_TOP/tests/scenarios/o2iblnd-lib.sh"

kib_load timeout=10 || exit 1

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet_lndtest (server, client run 1)" "$test_ko" \
		mode=both target="$peer@o2ib" count=16 || exit 1
	t_check "g1's run 1 had no failure" grep -qx 0 $P/failures
	t_retry "client's first run done" 300 grep -qx '[1-9]' $P/peer_done
	# our own stream, its sender held in send() for 5 s with its tx each
	# time, so that one is asleep there whenever the device goes
	echo 5000 >$K/test_send_delay_ms
	echo 100000 >$P/count
	echo 20 >$P/timeout_secs
	echo 20 >$P/wait_secs
	echo 1 >$P/start_client
	# both streams are running: give them a few seconds in flight
	sleep 8
	t_check "g1's stream busy at the removal" grep -qx 1 $P/client_running
	t_check "rdma link delete rxe0 (under traffic)" \
		timeout 60 rdma link delete rxe0
	t_retry "NI released the device" 60 \
		bash -c "dmesg | grep -q 'ko2iblnd: eth0: RDMA device gone'"
	t_check "rxe0 gone" bash -c "! rdma link show rxe0/1"
	t_check "the LNet NI stays up" \
		grep -q '@o2ib up' /sys/kernel/debug/lnet/nis_detail
	t_retry "g1's stream ended" 120 grep -qx 0 $P/client_running
	echo 0 >$K/test_send_delay_ms
	cat $STATS
	t_check "senders got -ENETDOWN after the removal" stat_gt sends_refused 0
	t_check "no tx left out of the closed pool" stat_is txs_out 0
	dmesg | grep 'ko2iblnd:'
	# let the client give up (its operations time out in 20 s), then
	# unload with the NI down
	sleep 45
	kib_unload
	exit 0
fi

t_insmod "load lnet_lndtest (server, client run 1)" "$test_ko" mode=both \
	target="$peer@o2ib" count=64 || exit 1
t_check "run 1 had no failure" grep -qx 0 $P/failures
echo 100000 >$P/count
echo 20 >$P/timeout_secs
# a peer without its device never serves again: 20 s of asking is plenty
echo 20 >$P/wait_secs
echo 1 >$P/start_client
t_retry "stream ended (the peer's device was removed)" 240 \
	grep -qx 0 $P/client_running
t_check "the stream saw the removal (a check failed)" \
	bash -c "dmesg | grep -q 'lnet_lndtest: not ok'"
dmesg | grep -E 'ko2iblnd|lnet_lndtest: not ok'
kib_unload
