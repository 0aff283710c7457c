#!/bin/bash
# Link cut mid-transfer (phase 2), as a cable pull: the runner cuts the link
# between the two guests (t_link: qemu set_link on both of them, so both
# NICs lose carrier and nothing is delivered either way) while a long stream
# runs, and restores it.
#
# g1: lnet_lndtest server. g0: client, three runs: a short one (all ok);
# a long stream during which the link is cut: it must end, with failures,
# while the link is still cut, within the timeouts (the LND's timeout of
# 10 s closes the connections that stopped moving, timeout_secs=20 bounds
# each operation: no hang); one after the link came back (all ok: the
# connections were re-established). Both guests then unload with
# connections up.
#
# The argument is the network type: tcp (ksocklnd sock_timeout=10,
# max_reconnectms=4000 keeps the reconnection short) or o2ib (ko2iblnd
# timeout=10 over soft-RoCE; the RC transport's own retries may close the
# connections first).
#
# Run: lnet-vmtest --suite socklnd-cut --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/lnd-cut.sh --arg tcp
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
test_ko=$M/tests/lndtest/lnet_lndtest.ko
P=/sys/module/lnet_lndtest/parameters
NET=/sys/class/net/eth0
net=${1:-tcp}
case $net in
tcp)
	lnd_params="sock_timeout=10 max_reconnectms=4000"
	# whichever of its timeouts fires first: a stalled connection, or a
	# zero-copy send the peer did not ACK
	timed_out='ksocklnd: (connection to .* timed out|.* did not ACK a zero-copy send in)'
	;;
o2ib)
	lnd_params="timeout=10"
	# our timeout, the RC transport's retries running out, or the CM
	timed_out='ko2iblnd: .*(messages timed out|failed: |unreachable)'
	;;
esac

if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi
downs=$(cat $NET/carrier_down_count)
# shellcheck disable=SC2086 # lnd_params is a list
t_lnd_load "$net" $lnd_params || exit 1

unload() {
	t_check "unload lnet_lndtest" rmmod lnet_lndtest
	t_check "unload $LND_NAME" rmmod "$LND_NAME"
	t_check "unload lnet" rmmod lnet
}

carrier_went_down() {
	[ "$(cat $NET/carrier_down_count)" -gt "$downs" ]
}

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
	if [ "$net" = tcp ]; then
		# The client's three connections, still open here when the
		# cut came, stall: once one times out, all three go (a sibling
		# left open is half-open, and the first REPLY put on it after
		# the link comes back is reset and lost).
		t_retry "server's carrier went down" 200 carrier_went_down
		t_retry "server's carrier came back" 200 grep -qx 1 $NET/carrier
		dmesg | grep "closed connection to" >/tmp/cut-closed
		cat /tmp/cut-closed
		t_check "all the client's connections closed during the cut" \
			test "$(grep -c "closed connection to $peer@tcp" /tmp/cut-closed)" -ge 3
	fi
	t_retry "client's third run done" 800 grep -qx '[3-9]' $P/peer_done
	# the cut was on both ends of the link, not only the client's
	t_check "server's carrier went down during the run" \
		test "$(cat $NET/carrier_down_count)" -gt "$downs"
	dmesg | grep "$LND_NAME:"
	unload
	exit 0
fi

dmesg -C
t_insmod "load lnet_lndtest (client run 1)" "$test_ko" mode=client \
	target="$peer@$net" count=64 || exit 1
t_lndtest_results run1

# run 2: the link is cut in the middle of a long stream
dmesg -C
echo 100000 >$P/count
echo 20 >$P/timeout_secs
echo 1 >$P/start_client
sleep 4
t_check "run 2 busy when the link is cut" grep -qx 1 $P/client_running
# without the cut, run 2 would go on for an hour: give up at once
t_link 0 off || exit 1
cut=$(date +%s)
t_retry "carrier gone" 10 grep -qx 0 $NET/carrier
# the LND's timeout (10 s) closes the connections with data that does
# not move; each operation, and the closing "done" PUT, gives up after
# timeout_secs (20 s): 90 s is ample, on TCG too
t_retry "run 2 ended while the link is cut (no hang)" 90 grep -qx 0 $P/client_running
echo "run 2 ended $(($(date +%s) - cut)) s after the cut"
t_check "link still cut when run 2 ended" grep -qx 0 $NET/carrier
dmesg | grep -E "lnet_lndtest|$LND_NAME" >/tmp/run2
cat /tmp/run2
t_check "run 2 saw the cut (a check failed)" grep -q 'lnet_lndtest: not ok' /tmp/run2
t_check "$LND_NAME timed the stalled connections out" grep -qE "$timed_out" /tmp/run2
t_link 0 on
t_retry "carrier back" 30 grep -qx 1 $NET/carrier

# run 3: everything works again
dmesg -C
echo 256 >$P/count
echo 60 >$P/timeout_secs
echo 1 >$P/start_client
t_retry "run 3 ended" 300 grep -qx 0 $P/client_running
t_lndtest_results run3
t_check "run 3 had no failure" grep -qx 0 $P/failures
unload
