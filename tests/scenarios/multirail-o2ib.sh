#!/bin/bash
# Multi-Rail over ko2iblnd: two of our nodes, each with two rails, o2ib on
# rxe0 (eth0) and o2ib1 on rxe1 (eth1), two links between the guests.
# Guest 0 is the lst console and client, guest 1 the server.
#
# - Discovery: guest 0 finds guest 1's two NIDs under one primary.
# - Spread: lst brw 1 MiB x8 goes out on both of guest 0's NIs.
# - Failover: rail 1 is cut under a brw run (stopped once the rail is
#   back). ko2iblnd's link_down fails what rail 1's connections held as
#   dropped here (our NI counts the drops), LNet resends it on rail 0,
#   rail 0 carries the traffic, and rail 1 carries traffic again once
#   restored. Unlike over tcp, a few RPCs may fail: the server's bulk GET
#   is answered by an RDMA write into the server's memory on that rail,
#   which no other rail can do, and the resent GET finds the client's MD
#   used up (-ENODATA). At most one per RPC in flight (8) may fail.
#
# Run (debug kernel; make modules-debug && make tools):
#   lnet-vmtest --suite multirail-o2ib --kernel debug --guests 2 --link 0-1 \
#	--link 0-1 --timeout 1200 \
#	--script $LNET_TOP/tests/scenarios/multirail-o2ib.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
# shellcheck source=tests/scenarios/multirail-lib.sh
. "$LNET_TOP/tests/scenarios/multirail-lib.sh"

LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
OUT=/tmp/mr.out
export LST_SESSION=$$

me0=$(t_addr_on eth0)
me1=$(t_addr_on eth1)
other() { echo "${1%.*}.$((GUEST_INDEX == 0 ? 2 : 1))"; }
MY0=$me0@o2ib
MY1=$me1@o2ib1
PEER0=$(other "$me0")@o2ib
PEER1=$(other "$me1")@o2ib1

if [ -z "$me0" ] || [ -z "$me1" ]; then
	t_fail "two links" "run with --link 0-1 --link 0-1"
	exit 1
fi

# ni_field NID KEY: the first value of KEY under our NI NID (net show -v)
ni_field() {
	"$LNETCTL" net show -v >"$OUT" 2>&1 || return 1
	awk -v n="$1" -v k="$2:" '
		/- nid:/ { cur = $NF }
		$1 == k && cur == n { print $NF; exit }' "$OUT"
}

# --- both: two rails up ------------------------------------------------------
modprobe -q rdma_rxe 2>/dev/null
modprobe -q rdma_cm 2>/dev/null
t_check "soft-RoCE rxe0 on eth0" rdma link add rxe0 type rxe netdev eth0 || exit 1
t_check "soft-RoCE rxe1 on eth1" rdma link add rxe1 type rxe netdev eth1 || exit 1
t_insmod "load lnet (o2ib on eth0, o2ib1 on eth1)" \
	"$LNET_MODDIR/lnet/lnet.ko" "networks=o2ib0(eth0),o2ib1(eth1)" || exit 1
t_insmod "load ko2iblnd" "$LNET_MODDIR/klnds/o2iblnd/ko2iblnd.ko" || exit 1
t_insmod "load lnet_selftest" "$LNET_MODDIR/lnet/selftest/lnet_selftest.ko" || exit 1
t_check "lnetctl lnet configure" "$LNETCTL" lnet configure
t_flag_set up
t_flag_wait up 300 || t_abort

if [ "$GUEST_INDEX" != 0 ]; then
	t_flag_wait finished 1100 || t_abort
	t_check "unload lnet_selftest" rmmod lnet_selftest
	t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
	t_check "unload ko2iblnd" rmmod ko2iblnd
	t_check "unload lnet" rmmod lnet
	t_flag_bye 120
	exit 0
fi

# --- guest 0 -----------------------------------------------------------------
t_check "lnetctl discover $PEER0" "$LNETCTL" discover "$PEER0"
t_check "peer show: $PEER0 with $PEER1 under it" \
	peer_has "$PEER0" "$PEER0" "$PEER1"

"$OURS_LST" new_session --timeout 300 mr >/dev/null
t_lst_ok "add_group servers $PEER0" add_group servers "$PEER0"
t_lst_ok "add_group clients $MY0" add_group clients "$MY0"
s0=$(ni_sends "$MY0")
s1=$(ni_sends "$MY1")
t_lst_brw spread clients servers 8 8
d0=$(($(ni_sends "$MY0") - s0))
d1=$(($(ni_sends "$MY1") - s1))
echo "spread: messages sent: $MY0 $d0, $MY1 $d1"
t_check "spread: both NIs sent (each at least a quarter)" \
	test "$d0" -gt 0 -a "$d1" -gt 0 -a $((4 * d0)) -ge "$d1" -a $((4 * d1)) -ge "$d0"
"$OURS_LST" end_session >/dev/null

# --- failover: cut rail 1 under load ----------------------------------------
# soft-RoCE's pace under TCG varies: the run goes on until stopped once
# the rail is back (a stop lets each RPC in flight finish)
mr_cut_start "$PEER0" "$MY0" 1000000
sleep 5
drops0=$(ni_field "$MY1" dropped)
r0=$(ni_sends "$MY0")
resent0=$(lnet_stat resend_count)
t_link 1 off
sleep 30
drops=$(($(ni_field "$MY1" dropped) - drops0))
d0=$(($(ni_sends "$MY0") - r0))
echo "30 s into the cut: $MY1 dropped $drops, rail 0 sent $d0"
t_check "cut: link_down failed rail 1's messages as dropped here" test "$drops" -gt 0
t_check "cut: rail 0 carried the traffic meanwhile (> 50 messages)" test "$d0" -gt 50
t_link 1 on
sleep 10
t_lst_ok "cut: stop the run" stop cut
t_retry "cut: batch stopped (no hang)" 600 t_lst_idle cut
out=$("$OURS_LST" show_error clients servers 2>&1)
echo "$out"
failed=$(($(lst_failures <<<"$out") - cut_failed0))
resent=$(($(lnet_stat resend_count) - resent0))
echo "cut: $failed RPCs failed or expired, $resent messages resent"
t_check "cut: what was on rail 1 was resent" test "$resent" -gt 0
t_check "cut: at most the 8 RPCs in flight failed ($failed)" test "$failed" -le 8
"$OURS_LST" end_session >/dev/null

t_retry "rail 1 recovered: its NI and peer NI at health 1000" 300 rail1_whole
"$OURS_LST" new_session --timeout 300 mr1 >/dev/null
t_lst_ok "add_group servers $PEER0 again" add_group servers "$PEER0"
t_lst_ok "add_group clients $MY0 again" add_group clients "$MY0"
s1=$(ni_sends "$MY1")
t_lst_ok "add_batch after" add_batch after
t_lst_ok "after: brw write 1M check=full" add_test --batch after --loop 4 \
	--concurrency 8 --from clients --to servers brw write size=1M check=full
t_lst_ok "run after" run after
t_retry "after: batch finished" 600 t_lst_idle after
# show_error's RPC counters are the node's since its start: the session's
out=$("$OURS_LST" show_error clients servers 2>&1)
echo "$out"
t_check "after: no brw error in this session" test -z "$(grep 'Session: [1-9]' <<<"$out")"
t_check "rail 1 carries traffic again" test "$(ni_sends "$MY1")" -gt "$s1"
"$OURS_LST" end_session >/dev/null

t_check "unload lnet_selftest" rmmod lnet_selftest
t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
t_check "unload ko2iblnd" rmmod ko2iblnd
t_check "unload lnet" rmmod lnet
t_flag_set finished
t_flag_bye 120
