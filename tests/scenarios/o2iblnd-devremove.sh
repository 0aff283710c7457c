#!/bin/bash
# The RDMA device goes away under a running o2ib NI (rdma link delete), as
# when an HCA is unplugged or its driver unloaded.
#
# g1: LNet node (ko2iblnd over rxe0, lnet_lndtest server). g0: client,
# a short run (all ok), then a long stream during which g1 deletes rxe0.
# g1 must release everything of the device through rdma_cm's removal
# events (the deletion completes: it waits for us), log the NI down, and
# unload cleanly afterwards (no leak, no WARN: the runner scans the
# consoles and kmemleak). g0's stream must end with failures instead of
# hanging (ko2iblnd timeout=10, lndtest timeout_secs=20).
#
# Run: lnet-vmtest --suite o2iblnd-devremove --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/o2iblnd-devremove.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
test_ko=$M/tests/lndtest/lnet_lndtest.ko
P=/sys/module/lnet_lndtest/parameters

if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi
t_lnd_load o2ib timeout=10 || exit 1

unload() {
	t_check "unload lnet_lndtest" rmmod lnet_lndtest
	t_check "unload ko2iblnd" rmmod ko2iblnd
	t_check "unload lnet" rmmod lnet
}

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
	t_retry "client's first run done" 300 grep -qx '[1-9]' $P/peer_done
	# the client's stream is running: give it a few seconds in flight
	sleep 5
	t_check "rdma link delete rxe0 (under traffic)" \
		timeout 60 rdma link delete rxe0
	t_retry "NI released the device" 60 \
		bash -c "dmesg | grep -q 'ko2iblnd: eth0: RDMA device gone'"
	t_check "rxe0 gone" bash -c "! rdma link show rxe0/1"
	dmesg | grep 'ko2iblnd:'
	# let the client give up (its operations time out in 20 s), then
	# unload with the NI down
	sleep 45
	unload
	exit 0
fi

t_insmod "load lnet_lndtest (client run 1)" "$test_ko" mode=client \
	target="$peer@o2ib" count=64 || exit 1
t_check "run 1 had no failure" grep -qx 0 $P/failures
echo 100000 >$P/count
echo 20 >$P/timeout_secs
echo 1 >$P/start_client
t_retry "stream ended (the peer's device was removed)" 240 \
	grep -qx 0 $P/client_running
t_check "the stream saw the removal (a check failed)" \
	bash -c "dmesg | grep -q 'lnet_lndtest: not ok'"
dmesg | grep -E 'ko2iblnd|lnet_lndtest: not ok'
unload
