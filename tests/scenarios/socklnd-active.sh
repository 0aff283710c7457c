#!/bin/bash
# Two guests. g0 runs no LNet: "lnet-sockpeer server" (a passive socklnd
# node written from the protocol, Documentation/wire/socklnd.md;
# tools/sockpeer) listens on TCP 988, steers the handshake (V2 fallback,
# NONE, typed order) and serves
# lnet_lndtest's client. g1 is an LNet node running lnet_lndtest.ko
# mode=client against g0: every client check (ping, PUT/GET 0 B..1 MiB,
# stream) is a result on g1, and the fake server's checks of our active
# side are results on g0.
#
# Needs make tools (build/tools/sockpeer/lnet-sockpeer).
#
# Run: lnet-vmtest --suite socklnd-active --kernel debug --guests 2 \
#	--timeout 600 --script $LNET_TOP/tests/scenarios/socklnd-active.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
me=$(t_my_addr)

if [ "$GUEST_INDEX" = 0 ]; then
	sockpeer=$LNET_TOP/build/tools/sockpeer/lnet-sockpeer
	if [ ! -x "$sockpeer" ]; then
		t_fail "lnet-sockpeer present" "build it with make tools"
		exit 1
	fi
	"$sockpeer" server "$me" "$peer" >/tmp/fake.out 2>&1
	rc=$?
	t_results_from /tmp/fake.out ""
	t_check "fake server finished cleanly" test "$rc" = 0
	exit 0
fi

test_ko=$M/tests/lndtest/lnet_lndtest.ko
if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi
t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || exit 1
# short reconnect back-off: the fake server listens only once it is ready
t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" max_reconnectms=4000 ||
	exit 1
t_insmod "load lnet_lndtest (client of the fake server)" "$test_ko" \
	mode=client target="$peer@tcp" || exit 1
t_lndtest_results client
t_check "client checks reported" test "$(wc -l </tmp/checks)" -ge 30
t_check "unload lnet_lndtest (live connections)" rmmod lnet_lndtest
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
