#!/bin/bash
# Peer restart behind a cut link, over o2ib (ko2iblnd on soft-RoCE).
#
# g0 (the "peer", a lnet_lndtest client) has a connection up to g1 (the
# "survivor", a lnet_lndtest server) when the runner cuts the link. g0
# then "crashes": it unloads lnet_lndtest, ko2iblnd and lnet while the link
# is cut, so its disconnect requests are lost. It reloads lnet and
# ko2iblnd (a new NI: a new incarnation), the link comes back and its new
# client connects and runs. The survivor still holds the old connection,
# idle (keepalive=300 keeps it quiet). Either it learns of the restart from
# the new connection request (a different source stamp: it closes the old
# connection as stale, -ESTALE, and rejects the request with CONN_STALE;
# the peer reconnects at once), or a disconnect request the CM retried
# after the link came back closes it first (-ECONNRESET). Either way the
# old connection must be gone and every check of the new incarnation's two
# runs must pass, with no timeout on the survivor.
#
# Run: lnet-vmtest --suite o2iblnd-restart --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/o2iblnd-restart.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
test_ko=$M/tests/lndtest/lnet_lndtest.ko
P=/sys/module/lnet_lndtest/parameters
NET=/sys/class/net/eth0

if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi

unload() {
	t_check "${1}unload lnet_lndtest" rmmod lnet_lndtest
	t_check "${1}unload ko2iblnd" rmmod ko2iblnd
	t_check "${1}unload lnet" rmmod lnet
}

if [ "$GUEST_INDEX" != 0 ]; then
	# the survivor
	t_lnd_load o2ib keepalive=300 || exit 1
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
	t_retry "peer's first run done" 300 grep -qx '[1-9]' $P/peer_done
	t_retry "peer's second run after its restart done" 800 grep -qx '[2-9]' $P/peer_done
	dmesg | grep 'ko2iblnd:' >/tmp/kib
	cat /tmp/kib
	t_check "survivor closed the old connection (stale or reset)" \
		grep -qE "closing connection to $peer@o2ib: error -(116|104)" /tmp/kib
	t_check "survivor timed nothing out" \
		bash -c "! grep -q 'timed out' /tmp/kib"
	unload
	exit 0
fi

load_lnet() {
	t_insmod "${1}load lnet" "$M/lnet/lnet.ko" networks="o2ib0(eth0)" &&
		t_insmod "${1}load ko2iblnd" "$M/klnds/o2iblnd/ko2iblnd.ko"
}

# the first incarnation
t_rxe_up || exit 1
load_lnet || exit 1
dmesg -C
t_insmod "load lnet_lndtest (client run 1)" "$test_ko" mode=client \
	target="$peer@o2ib" count=64 || exit 1
t_lndtest_results before

# the crash, behind a cut link
t_link 0 off || exit 1
t_retry "carrier gone" 10 grep -qx 0 $NET/carrier
unload "crash: "

# the new incarnation
load_lnet "restart: " || exit 1
t_link 0 on
t_retry "carrier back" 30 grep -qx 1 $NET/carrier
dmesg -C
t_insmod "load lnet_lndtest (client run 1 after the restart)" "$test_ko" \
	mode=client target="$peer@o2ib" count=64 || exit 1
t_lndtest_results after1
dmesg | grep 'ko2iblnd:'
dmesg -C
echo 256 >$P/count
echo 1 >$P/start_client
t_retry "run 2 after the restart ended" 300 grep -qx 0 $P/client_running
t_lndtest_results after2
t_check "run 2 after the restart had no failure" grep -qx 0 $P/failures
unload
