#!/bin/bash
# Link cut mid-transfer (phase 2), approximated inside the client guest with
# "ip link set eth0 down" for 15 s: the lnet-vmtest runner cannot yet relay
# qemu monitor commands (set_link) for a guest (Documentation/socklnd.md).
#
# g1: lnet_lndtest server. g0: client, three runs: a short one (all ok);
# a long stream during which the link goes down (it must end, with
# failures, within the timeouts: no hang); one after the link came back
# (all ok: the connections were re-established). Both guests then unload
# with connections up. sock_timeout=10 and max_reconnectms=4000 keep it
# short.
#
# Run: lnet-vmtest --suite socklnd-cut --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/socklnd-cut.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
test_ko=$M/tests/lndtest/lnet_lndtest.ko
P=/sys/module/lnet_lndtest/parameters

if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi
t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || exit 1
t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" sock_timeout=10 \
	max_reconnectms=4000 || exit 1

unload() {
	t_check "unload lnet_lndtest" rmmod lnet_lndtest
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
}

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
	t_retry "client's third run done" 800 grep -qx '[3-9]' $P/peer_done
	unload
	exit 0
fi

# results RUN: one result per client check line since the last dmesg -C
results() {
	local run=$1 line rest
	dmesg | sed -n 's/.*lnet_lndtest: \(ok .*\|not ok .*\)$/\1/p' >/tmp/checks
	while IFS= read -r line; do
		case $line in
		"ok "*)
			t_ok "$run ${line#ok }"
			;;
		"not ok "*)
			rest=${line#not ok }
			t_fail "$run ${rest%% # *}" "${rest#* # }"
			;;
		esac
	done </tmp/checks
}

dmesg -C
t_insmod "load lnet_lndtest (client run 1)" "$test_ko" mode=client \
	target="$peer@tcp" count=64 || exit 1
results run1

# run 2: the link goes down for 15 s in the middle of a long stream
dmesg -C
echo 100000 >$P/count
echo 20 >$P/timeout_secs
echo 1 >$P/start_client
sleep 4
t_check "run 2 busy when the link goes down" grep -qx 1 $P/client_running
t_check "link down" ip link set eth0 down
sleep 15
t_check "link up" ip link set eth0 up
t_retry "carrier back" 30 grep -qx 1 /sys/class/net/eth0/carrier
start=$(date +%s)
t_retry "run 2 ended (no hang)" 180 grep -qx 0 $P/client_running
echo "run 2 ended $(($(date +%s) - start)) s after the link came back"
dmesg | grep 'lnet_lndtest' >/tmp/run2
cat /tmp/run2
t_check "run 2 saw the cut (a check failed)" grep -q 'lnet_lndtest: not ok' /tmp/run2

# run 3: everything works again
dmesg -C
echo 256 >$P/count
echo 60 >$P/timeout_secs
echo 1 >$P/start_client
t_retry "run 3 ended" 300 grep -qx 0 $P/client_running
results run3
t_check "run 3 had no failure" grep -qx 0 $P/failures
unload
