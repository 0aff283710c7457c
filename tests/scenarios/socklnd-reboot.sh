#!/bin/bash
# Peer restart behind a cut link, as the survivor sees it on the wire.
#
# This is a module reload, not a VM reboot: g0 (the "peer", a lnet_lndtest
# client) has connections up to g1 (the "survivor", a lnet_lndtest server)
# when the runner cuts the link (t_link: carrier gone on both guests). g0
# then "crashes": it unloads lnet_lndtest, ksocklnd and lnet while the link
# is cut, so the FINs of its connections are lost. It reloads lnet and
# ksocklnd (a new NI, so a new socklnd incarnation), the link comes back,
# and its new client connects and runs. g1 still holds the old
# connections, idle: it must see the new incarnation in the first hello
# (ksocklnd logs "<nid> restarted (new incarnation or protocol): closing
# its connections" and closes them with -ESTALE), and traffic must work
# afterwards.
#
# How close to a crash this is: the peer's old TCP sockets do not vanish,
# they stay as orphans in FIN-WAIT-1. The kernel stops all timers of a
# closed kernel socket (tcp_close(), "tcp: properly terminate timers for
# kernel sockets", in 6.1.y), so they never send their FIN again and say
# nothing unless a segment of the old connection arrives - the survivor
# sends none (it is idle; keepalive=300 keepalive_idle=300 keep its NOOP
# and TCP keepalives quiet), so on the wire the peer is silent until its
# new hello, as after a crash. One difference: the orphans hold their
# 4-tuples, so the new connections use other ports; a rebooted node would
# reuse them (the survivor would then first see a reset on one old
# connection - not exercised here).
#
# Client runs: 1 (first incarnation, all ok); after the restart the
# client's run counter starts again, so the new incarnation runs 1 (at
# load) and 2, and the survivor waits for peer_done 2.
#
# Run: lnet-vmtest --suite socklnd-reboot --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/socklnd-reboot.sh
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
	t_check "${1}unload ksocklnd" rmmod ksocklnd
	t_check "${1}unload lnet" rmmod lnet
}

if [ "$GUEST_INDEX" != 0 ]; then
	# the survivor
	downs=$(cat $NET/carrier_down_count)
	t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || exit 1
	t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" keepalive=300 \
		keepalive_idle=300 || exit 1
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
	t_retry "peer's first run done" 300 grep -qx '[1-9]' $P/peer_done
	t_retry "peer's second run after its restart done" 800 grep -qx '[2-9]' $P/peer_done
	dmesg | grep 'ksocklnd:' >/tmp/ksock
	cat /tmp/ksock
	t_check "survivor saw the peer's new incarnation" \
		grep -q "ksocklnd: $peer@tcp restarted (new incarnation" /tmp/ksock
	t_check "survivor closed the old connections as stale (-116)" \
		grep -q "closed connection to $peer@tcp at .*: -116" /tmp/ksock
	# nothing of the old connections (FIN, reset, timeout) came first
	sed -n '/restarted (new incarnation/q;p' /tmp/ksock >/tmp/before
	t_check "survivor kept the old connections until the new hello" \
		bash -c "! grep -q 'closed connection\|timed out\|nothing from' /tmp/before"
	t_check "survivor's carrier went down during the run" \
		test "$(cat $NET/carrier_down_count)" -gt "$downs"
	unload
	exit 0
fi

# TCP sockets of this guest to or from the survivor, any state
tcp_to_survivor() { ss -tanH dst "$peer"; }

load_lnet() {
	t_insmod "${1}load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" &&
		t_insmod "${1}load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" max_reconnectms=4000
}

# the first incarnation
load_lnet || exit 1
dmesg -C
t_insmod "load lnet_lndtest (client run 1)" "$test_ko" mode=client \
	target="$peer@tcp" count=64 || exit 1
t_lndtest_results before
tcp_to_survivor
t_check "connections to the survivor up" \
	test "$(tcp_to_survivor | grep -c ESTAB)" -ge 1

# the crash, behind a cut link
t_link 0 off || exit 1
t_retry "carrier gone" 10 grep -qx 0 $NET/carrier
unload "crash: "
# orphans in FIN-WAIT-1, their FIN lost on the cut link; no timer armed
# means they never send it again
ss -tanoH dst "$peer" | tee /tmp/orphans
t_check "old TCP sockets silent (no timer left to resend their FIN)" \
	bash -c "! grep -q 'timer:(on' /tmp/orphans"

# the new incarnation
load_lnet "restart: " || exit 1
t_link 0 on
t_retry "carrier back" 30 grep -qx 1 $NET/carrier
dmesg -C
t_insmod "load lnet_lndtest (client run 1 after the restart)" "$test_ko" \
	mode=client target="$peer@tcp" count=64 || exit 1
t_lndtest_results after1
dmesg | grep 'ksocklnd:'
dmesg -C
echo 256 >$P/count
echo 1 >$P/start_client
t_retry "run 2 after the restart ended" 300 grep -qx 0 $P/client_running
t_lndtest_results after2
t_check "run 2 after the restart had no failure" grep -qx 0 $P/failures
tcp_to_survivor
unload
