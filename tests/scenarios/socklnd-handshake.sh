#!/bin/bash
# Two guests, both LNet nodes (lnet.ko, ksocklnd.ko sock_timeout=5). g0
# also runs "lnet-sockpeer hostile slow-handshake" against g1: 100
# connections to g1's acceptor trickling their connection request or
# socklnd hello one byte a second, reopened as g1 closes them, for 45 s
# (Documentation/hardening.md, "Handshakes"). While it runs:
#  1. g0 LNet-pings g1: a passive connection on the flooded node;
#  2. g0 reloads its LNet, and g1 pings g0: an active connection from the
#     flooded node.
# Each ping must succeed within 10 s (the time is printed). The flood's own
# checks (on g0): g1 closed every hostile connection, nine in ten within
# the handshake deadline (accept_timeout, 5 s) + 8 s (TCG), none beyond
# twice that. On g1 the pending bounds (accept_max_pending,
# max_pending_hellos) are 16, well below what the flood keeps pending even
# on a slow guest (a run with 32 once saw no eviction), so the oldest
# pending handshakes are dropped for new ones; no connection on
# port 988 is left once the flood is over, and slab (SUnreclaim) grows by
# less than 8 MiB. The console must stay clean.
#
# Needs make tools (build/tools/sockpeer/lnet-sockpeer, lnetctl).
#
# Run: lnet-vmtest --suite socklnd-handshake --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/socklnd-handshake.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
sockpeer=$LNET_TOP/build/tools/sockpeer/lnet-sockpeer
peer=$(t_peer_addrs | head -n1)
me=$(t_my_addr)

load() {
	t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || t_abort
	t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" sock_timeout=5 || t_abort
	t_check "lnetctl lnet configure --all" "$LNETCTL" lnet configure --all || t_abort
}

unload() {
	t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
}

# ping_within NAME NID: LNet-ping NID until it answers (at most 60 s); ok if
# that took at most 10 s.
ping_within() {
	local name=$1 nid=$2 t0 ms
	t0=$(date +%s%N)
	while (($(date +%s%N) - t0 < 60000000000)); do
		"$LNETCTL" ping -t 2 "$nid" >/dev/null 2>&1 && break
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	t_log "first ping of $nid during the flood: $ms ms"
	if ((ms <= 10000)); then
		t_ok "$name ($ms ms)"
	else
		t_fail "$name" "$ms ms"
	fi
}

# Established TCP connections whose local port is 988 (0x03DC).
conns_988() {
	awk '$2 ~ /:03DC$/ && $4 == "01"' /proc/net/tcp | wc -l
}

sunreclaim_kb() {
	awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo
}

if [ "$GUEST_INDEX" = 0 ]; then
	if [ ! -x "$sockpeer" ]; then
		t_fail "lnet-sockpeer present" "build it with make tools"
		t_abort
	fi
	load
	t_flag_wait up 120 || t_abort
	"$sockpeer" hostile slow-handshake --conns 100 --seconds 45 --slack-ms 8000 \
		"$peer" "$me" >/tmp/hostile.out 2>&1 &
	flood=$!
	sleep 5
	ping_within "passive connection during the flood" "$peer@tcp"
	unload
	load
	t_flag_set reloaded
	t_flag_wait active-done 120
	wait "$flood"
	rc=$?
	t_results_from /tmp/hostile.out ""
	t_check "hostile flood finished cleanly" test "$rc" = 0
	t_flag_set flood-over
	t_flag_wait g1-done 120
	unload
	t_flag_bye 120
	exit 0
fi

before=$(sunreclaim_kb)
load
# Bounds well below the flood's 100 (50 requests, 50 hellos pending), so
# that the oldest pending handshakes are dropped for new ones all along.
bounded=0
if [ -w /sys/module/lnet/parameters/accept_max_pending ]; then
	echo 16 >/sys/module/lnet/parameters/accept_max_pending
	echo 16 >/sys/module/ksocklnd/parameters/max_pending_hellos
	bounded=1
fi
t_flag_set up
t_flag_wait reloaded 180 || t_abort
ping_within "active connection during the flood" "$peer@tcp"
t_flag_set active-done
t_flag_wait flood-over 180
t_retry "no connection left on port 988" 10 test "$(conns_988)" = 0
after=$(sunreclaim_kb)
if ((bounded)); then
	t_check "pending handshakes bounded (oldest dropped)" \
		sh -c "dmesg | grep -q 'too many handshakes at once'"
fi
t_log "SUnreclaim before the flood ${before} kB, after ${after} kB"
t_check "slab growth under 8 MiB ($((after - before)) kB)" test $((after - before)) -lt 8192
unload
t_flag_set g1-done
t_flag_bye 120
