#!/bin/bash
# Two guests. g1 is an LNet node (lnet.ko, ksocklnd.ko sock_timeout=5,
# lnet_lndtest.ko mode=server). g0 runs no LNet: "lnet-sockpeer peer" (a
# socklnd peer written from the protocol, Documentation/wire/socklnd.md;
# tools/sockpeer) connects to g1's acceptor with good and bad connection
# requests, hellos and messages. Each
# of its checks is a result on g0; g1 then unloads everything. The console
# must stay clean: bad input closes connections, never more.
#
# Needs make tools (build/tools/sockpeer/lnet-sockpeer).
#
# Run: lnet-vmtest --suite socklnd-bad --kernel debug --guests 2 \
#	--timeout 600 --script $LNET_TOP/tests/scenarios/socklnd-bad.sh
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
	"$sockpeer" peer "$peer" "$me" >/tmp/fake.out 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*)
			t_ok "${line#ok }"
			;;
		"not ok "*)
			rest=${line#not ok }
			t_fail "${rest%% # *}" "${rest#* # }"
			;;
		*)
			echo "$line"
			;;
		esac
	done </tmp/fake.out
	t_check "fake peer finished cleanly" test "$rc" = 0
	exit 0
fi

test_ko=$M/tests/lndtest/lnet_lndtest.ko
if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi
t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || exit 1
t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" sock_timeout=5 || exit 1
t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
t_retry "fake peer done" 400 \
	grep -qx '[1-9][0-9]*' /sys/module/lnet_lndtest/parameters/peer_done
t_check "unload lnet_lndtest" rmmod lnet_lndtest
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
