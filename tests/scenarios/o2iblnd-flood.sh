#!/bin/bash
# A flood of connection requests while an existing peer keeps its traffic
# going (Documentation/hardening.md, "o2iblnd").
#
# Each o2ib connection request that is accepted costs a QP and 2Q+2
# receive pages. g1 (lnet_lndtest server, ko2iblnd's default limits:
# max_conns_per_peer=4, max_nids_per_addr=4, max_passive=64) is the
# target. g0 is a client with a stream running to g1 when its test knobs
# send 200 requests claiming 200 NIDs that are not its own
# (test_flood_nids) and 50 claiming its own NID (test_flood_same), all
# from its one address. g1 must refuse all but a few (connreqs_refused in
# /sys/kernel/debug/ko2iblnd/stats), never hold more than
# max_conns_per_peer x max_nids_per_addr connections (conns_max) nor keep
# a peer for each refused NID, and g0's stream must finish with every
# check passed. g0's NI is first set to health 0, so that its recovery
# pings connect it to itself: the flood must not go to that peer.
#
# With the argument "unlimited", g1 loads with limits too high to matter,
# as before they existed: then the bounds checks fail (a self-check that
# the test catches a flood).
#
# Run: lnet-vmtest --suite o2iblnd-flood --kernel debug --guests 2 \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/o2iblnd-flood.sh
# shellcheck source=tests/scenarios/o2iblnd-lib.sh
. "$LNET_TOP/tests/scenarios/o2iblnd-lib.sh"
limits=
[ "${1:-}" = unlimited ] &&
	limits="max_conns_per_peer=100000 max_nids_per_addr=100000 max_passive=100000"

t_flag_serve
# shellcheck disable=SC2086 # limits is a list
kib_load timeout=10 $limits || t_abort

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || t_abort
	t_flag_wait flooded 600 || t_abort
	# g0 makes its 250 requests one after the other (address and route
	# resolution, a QP each): under TCG that takes a while
	t_retry "most of the 250 requests refused" 240 stat_gt connreqs_refused 200
	cat $STATS
	echo "figures: conns_max $(stat conns_max) peers $(stat peers)" \
		"connreqs_refused $(stat connreqs_refused) passive_max $(stat passive_max)"
	t_check "connections bounded (max_conns_per_peer x max_nids_per_addr)" \
		stat_le conns_max 16
	t_check "no peer kept for a refused NID" stat_le peers 4
	t_retry "client's second run done" 600 grep -qx '[2-9]' $P/peer_done
	kib_server_end
fi

kib_client_run1 || t_abort

# An NI in recovery pings its own NID through itself: a peer of our own
# NID gets a connection, and the flood must still go to g1 (which counts
# what it refused: a flood sent to ourselves fails that check).
t_check "net set --all --health 0" "$LNET_TOP/build/tools/lnetctl/lnetctl" \
	net set --all --health 0
t_retry "... its recovery pings connect it to itself (2 peers)" 60 stat_gt peers 1

# run 2: the flood starts while a stream runs
dmesg -C
echo 1024 >$P/count
echo 60 >$P/timeout_secs
echo 1 >$P/start_client
sleep 4
t_check "run 2 busy when the flood starts" grep -qx 1 $P/client_running
t_check "200 requests from other NIDs" sh -c "echo 200 >$K/test_flood_nids"
t_check "50 requests from our own NID" sh -c "echo 50 >$K/test_flood_same"
t_flag_set flooded
t_retry "run 2 ended" 600 grep -qx 0 $P/client_running
t_lndtest_results run2
t_check "run 2 (under the flood) had no failure" grep -qx 0 $P/failures
kib_unload
t_flag_bye 120
