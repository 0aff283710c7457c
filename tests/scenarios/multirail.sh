#!/bin/bash
# Multi-Rail between two of our nodes, each with two rails: tcp on eth0 and
# tcp1 on eth1 (two links between the guests). Guest 0 is the lst console
# and client, guest 1 the server.
#
# - Discovery both ways: guest 0's discover of guest 1's tcp NID finds
#   both of its NIDs under one primary, Multi-Rail; guest 0's push taught
#   guest 1 guest 0's two NIDs without guest 1 asking.
# - Spread: lst brw 1 MiB x8 to guest 1's primary NID goes out on both of
#   guest 0's NIs (per-NI send counters, and the NI pairs the lnet_send
#   tracepoint names).
# - Failover: rail 1 (link 1) is cut under a long lst brw run: what was
#   on rail 1 is resent on rail 0 (both ends fail it at once when the
#   carrier goes; sends to a Multi-Rail peer are confirmed by ZC-ACKs, so
#   none is lost in a socket buffer), health counts the failures, rail 0
#   carries the traffic meanwhile, the cut NI is not pinged back to
#   health while its link is down, the run ends with no failed RPC, and
#   rail 1 recovers and carries traffic again once restored.
# - A --non_mr peer configured on both ends keeps one NI pair; --lock_prim keeps the
#   primary through discovery, and its peer del needs --force.
# - discovery 0: guest 1, which knew guest 0 as Multi-Rail, hears it in a
#   last push and knows it by one NID; a new peer is not Multi-Rail.
#
# Run (debug kernel; make modules-debug && make tools):
#   lnet-vmtest --suite multirail --kernel debug --guests 2 --link 0-1 \
#	--link 0-1 --timeout 900 --script $LNET_TOP/tests/scenarios/multirail.sh
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
peer0=$(other "$me0")
peer1=$(other "$me1")
MY0=$me0@tcp
MY1=$me1@tcp1
PEER0=$peer0@tcp
PEER1=$peer1@tcp1

if [ -z "$me0" ] || [ -z "$me1" ]; then
	t_fail "two links" "run with --link 0-1 --link 0-1"
	exit 1
fi

# mr_is PRIMARY True|False: peer show says PRIMARY is (not) Multi-Rail
mr_is() {
	"$LNETCTL" peer show >"$OUT" 2>&1 || return 1
	awk -v p="$1" -v want="$2" '
		/primary nid:/ { cur = $NF }
		/Multi-Rail:/ && cur == p { found = ($NF == want) }
		END { exit !found }' "$OUT"
}

# tcp_nid_hex IP NETNUM: the NID IP@tcpNETNUM as the tracepoints print it
tcp_nid_hex() {
	local a b c d
	IFS=. read -r a b c d <<<"$1"
	printf '0x%x%02x%02x%02x%02x' $((0x20000 + $2)) "$a" "$b" "$c" "$d"
}

# rail_failures LOCAL PEER: the failures health counted against our NI
# LOCAL and the peer NI PEER (they only grow)
rail_failures() {
	{
		"$LNETCTL" net show -v
		"$LNETCTL" peer show -v
	} >"$OUT" 2>&1 || return 1
	awk -v a="$1" -v b="$2" '
		/- nid:/ { cur = $NF }
		/^ *(interrupts|dropped|aborted|no route|timeouts|error|timeout|network timeout): [0-9]+$/ &&
			(cur == a || cur == b) { n += $NF }
		END { print n + 0 }' "$OUT"
}

# lst_session_brw BATCH FROM TO LOOPS: brw write and read 1 MiB x8, then no
# brw error in this lst session (lst show_error's RPC counters are the
# node's since its start: the cut's failures stay in them)
lst_session_brw() {
	local b=$1 f=$2 t=$3 loops=$4 out
	t_lst_ok "add_batch $b" add_batch "$b" || return 1
	t_lst_ok "$b: brw write 1M check=full" add_test --batch "$b" --loop "$loops" \
		--concurrency 8 --from "$f" --to "$t" brw write size=1M check=full
	t_lst_ok "$b: brw read 1M check=full" add_test --batch "$b" --loop "$loops" \
		--concurrency 8 --from "$f" --to "$t" brw read size=1M check=full
	t_lst_ok "run $b" run "$b" || return 1
	t_retry "$b: batch finished" 600 t_lst_idle "$b"
	out=$("$OURS_LST" show_error "$f" "$t" 2>&1)
	echo "$out"
	t_check "$b: no brw error" test -z "$(grep 'Session: [1-9]' <<<"$out")"
}

# --- both: two rails up ------------------------------------------------------
t_insmod "load lnet (tcp on eth0, tcp1 on eth1)" \
	"$LNET_MODDIR/lnet/lnet.ko" "networks=tcp0(eth0),tcp1(eth1)" || exit 1
# sock_timeout stays at its 50 s: the cut (45 s) must be survived by the
# link-down failover, not by a connection timing out within lst's 64 s
t_insmod "load ksocklnd" "$LNET_MODDIR/klnds/socklnd/ksocklnd.ko" || exit 1
t_insmod "load lnet_selftest" "$LNET_MODDIR/lnet/selftest/lnet_selftest.ko" || exit 1
t_check "lnetctl lnet configure" "$LNETCTL" lnet configure
t_check "discovery on by default" grep -qx 0 \
	/sys/module/lnet/parameters/lnet_peer_discovery_disabled
t_flag_set up
t_flag_wait up 300 || t_abort

if [ "$GUEST_INDEX" != 0 ]; then
	# the server: learns guest 0's NIDs from its push, then serves
	t_retry "push: guest 0's two NIDs under its primary, unasked" 120 \
		peer_has "$PEER0" "$PEER0" "$PEER1"
	t_check "push: guest 0 is Multi-Rail" mr_is "$PEER0" True
	t_check "discover guest 0 from here: both NIDs" \
		"$LNETCTL" discover "$PEER1"
	cat "$OUT"
	t_check "discovery from this side: still one peer, primary $PEER0" \
		peer_has "$PEER0" "$PEER0" "$PEER1"
	t_flag_set served
	# guest 0 tries a --non_mr pair on rail 1: both ends must agree
	t_flag_wait nonmr 1500 || t_abort
	t_check "peer del $PEER0 (guest 0, discovered)" "$LNETCTL" peer del --prim_nid "$PEER0"
	t_check "peer add --prim_nid $PEER1 --non_mr" \
		"$LNETCTL" peer add --prim_nid "$PEER1" --non_mr
	t_flag_set nonmr-ready
	t_flag_wait nonmr-done 900 || t_abort
	t_check "peer del $PEER1 (--non_mr)" "$LNETCTL" peer del --prim_nid "$PEER1"
	t_flag_set nonmr-gone
	# guest 0 discovers us again, then turns discovery off
	t_flag_wait rediscovered 300 || t_abort
	t_retry "push again: guest 0's two NIDs under its primary" 60 \
		peer_has "$PEER0" "$PEER0" "$PEER1"
	t_check "push again: guest 0 is Multi-Rail" mr_is "$PEER0" True
	t_flag_set pushed
	t_flag_wait discovery-off 300 || t_abort
	t_retry "guest 0's last push (discovery off): not Multi-Rail any more" 60 \
		mr_is "$PEER0" False
	t_check "... and known by one NID" peer_has "$PEER0" "$PEER0"
	t_flag_set heard-off
	t_flag_wait finished 900 || t_abort
	t_check "unload lnet_selftest" rmmod lnet_selftest
	t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
	t_flag_bye 120
	exit 0
fi

# --- guest 0: discovery ------------------------------------------------------
t_check "lnetctl discover $PEER0" "$LNETCTL" discover "$PEER0"
"$LNETCTL" discover "$PEER0" | tee "$OUT.disc"
t_check "discover: Multi-Rail True" grep -q "Multi-Rail: True" "$OUT.disc"
t_check "discover: primary nid $PEER0" grep -q "primary nid: $PEER0" "$OUT.disc"
t_check "peer show: $PEER0 with $PEER1 under it" \
	peer_has "$PEER0" "$PEER0" "$PEER1"
t_check "peer show: Multi-Rail True" mr_is "$PEER0" True
t_check "ping $PEER1 names primary $PEER0" \
	sh -c "'$LNETCTL' ping '$PEER1' | grep -q 'primary nid: $PEER0'"
t_flag_wait served 300 || t_abort

# --- spread over both rails -------------------------------------------------
"$OURS_LST" new_session --timeout 300 mr >/dev/null
t_lst_ok "add_group servers $PEER0" add_group servers "$PEER0"
t_lst_ok "add_group clients $MY0" add_group clients "$MY0"
# each message's NI pair, as an admin sees the spread (lnet:lnet_send)
tracing=/sys/kernel/tracing
[ -d $tracing/events ] || mount -t tracefs nodev $tracing
t_check "trace lnet:lnet_send on" sh -c "echo 1 > $tracing/events/lnet/lnet_send/enable"
s0=$(ni_sends "$MY0")
s1=$(ni_sends "$MY1")
t_lst_brw spread clients servers 8 8
echo 0 >$tracing/events/lnet/lnet_send/enable
grep -o 'ni=0x[0-9a-f]* to=0x[0-9a-f]*' $tracing/trace | sort | uniq -c
t_check "trace: lnet_send names the pair of rail 0" \
	grep -q "ni=$(tcp_nid_hex "$me0" 0) to=$(tcp_nid_hex "$peer0" 0) " $tracing/trace
t_check "trace: lnet_send names the pair of rail 1" \
	grep -q "ni=$(tcp_nid_hex "$me1" 1) to=$(tcp_nid_hex "$peer1" 1) " $tracing/trace
d0=$(($(ni_sends "$MY0") - s0))
d1=$(($(ni_sends "$MY1") - s1))
echo "messages sent during the run: $MY0 $d0, $MY1 $d1"
t_check "spread: both NIs sent (each at least a quarter)" \
	test "$d0" -gt 0 -a "$d1" -gt 0 -a $((4 * d0)) -ge "$d1" -a $((4 * d1)) -ge "$d0"

# --- failover: cut rail 1 under load ----------------------------------------
# a session of its own: show_error counts for the whole session
mr_cut_start "$PEER0" "$MY0" 100
failed0=$cut_failed0
before=$(rail_failures "$MY1" "$PEER1")
r0=$(ni_sends "$MY0")
resent0=$(lnet_stat resend_count)
t_link 1 off
sleep 45
h=$(mr_health "$PEER1")
hl=$(mr_health "$MY1")
after=$(rail_failures "$MY1" "$PEER1")
d0=$(($(ni_sends "$MY0") - r0))
echo "45 s into the cut: peer NI $PEER1 health $h, our $MY1 health $hl, rail 1 failures $before -> $after, rail 0 sent $d0"
t_check "cut: health counted failures on rail 1" test "$after" -gt "$before"
t_check "cut: rail 0 carried the traffic meanwhile (> 100 messages)" test "$d0" -gt 100
# recovery pings an NI at once and each REPLY gives it 300; its own ping
# would come back through the host's loopback route while the link is cut
t_check "cut: net set --nid $MY1 --health 0" "$LNETCTL" net set --nid "$MY1" --health 0
sleep 8
hl=$(mr_health "$MY1")
t_check "cut: $MY1 not pinged back while its link is down (health $hl < 300)" \
	test "${hl:-1000}" -lt 300
t_link 1 on
t_retry "cut: batch finished (no hang)" 900 t_lst_idle cut
out=$("$OURS_LST" show_error clients servers 2>&1)
echo "$out"
failed=$(($(lst_failures <<<"$out") - failed0))
resent=$(($(lnet_stat resend_count) - resent0))
echo "cut: $failed RPCs failed or expired, $resent messages resent"
t_check "cut: what was on rail 1 was resent" test "$resent" -gt 0
t_check "cut: no RPC failed or expired" test "$failed" -eq 0
t_retry "rail 1 recovered: its NI and peer NI at health 1000" 300 rail1_whole
# a new session: the cut's counts stay in the last one
"$OURS_LST" end_session >/dev/null
"$OURS_LST" new_session --timeout 300 mr1 >/dev/null
t_lst_ok "add_group servers $PEER0 again" add_group servers "$PEER0"
t_lst_ok "add_group clients $MY0 again" add_group clients "$MY0"
s1=$(ni_sends "$MY1")
lst_session_brw after clients servers 8
t_check "rail 1 carries traffic again" test "$(ni_sends "$MY1")" -gt "$s1"
"$OURS_LST" end_session >/dev/null

# --- configured peers ---------------------------------------------------------
t_check "peer del $PEER0 (the discovered peer)" "$LNETCTL" peer del --prim_nid "$PEER0"
t_check "peer add --prim_nid $PEER1 --non_mr" \
	"$LNETCTL" peer add --prim_nid "$PEER1" --non_mr
t_flag_set nonmr
t_flag_wait nonmr-ready 120 || t_abort
t_check "non_mr: Multi-Rail False" mr_is "$PEER1" False
s0=$(ni_sends "$MY0")
s1=$(ni_sends "$MY1")
for i in 1 2 3 4 5 6; do "$LNETCTL" ping "$PEER1" >/dev/null; done
"$OURS_LST" new_session --timeout 300 mr2 >/dev/null
t_lst_ok "add_group nmr $PEER1" add_group nmr "$PEER1"
t_lst_ok "add_group me1 $MY1" add_group me1 "$MY1"
lst_session_brw nonmr me1 nmr 8
"$OURS_LST" end_session >/dev/null
t_check "non_mr: nothing left on rail 0" test "$(ni_sends "$MY0")" -eq "$s0"
t_check "non_mr: rail 1 carried it" test "$(ni_sends "$MY1")" -gt "$s1"
t_check "non_mr: still one NID" peer_has "$PEER1" "$PEER1"
t_check "peer del $PEER1" "$LNETCTL" peer del --prim_nid "$PEER1"

t_check "peer add --prim_nid $PEER1 --lock_prim" \
	"$LNETCTL" peer add --prim_nid "$PEER1" --lock_prim
t_check "lock_prim: discover $PEER1" "$LNETCTL" discover --force "$PEER1"
t_check "lock_prim: primary stays $PEER1, $PEER0 added" \
	peer_has "$PEER1" "$PEER1" "$PEER0"
if "$LNETCTL" peer del --prim_nid "$PEER1" >"$OUT" 2>&1; then
	t_fail "lock_prim: peer del without --force refused" "it was deleted"
else
	t_check "lock_prim: peer del without --force refused (EPERM)" \
		grep -qi "errno: -1\b\|not permitted\|EPERM" "$OUT"
fi
t_check "lock_prim: peer del --force" "$LNETCTL" peer del --prim_nid "$PEER1" --force
t_flag_set nonmr-done
t_flag_wait nonmr-gone 120 || t_abort

# --- discovery off --------------------------------------------------------------
# guest 1 knows us as Multi-Rail again, then hears the last push
t_check "discover --force $PEER0 again" "$LNETCTL" discover --force "$PEER0"
t_check "discovered again: both NIDs" peer_has "$PEER0" "$PEER0" "$PEER1"
t_flag_set rediscovered
t_flag_wait pushed 120 || t_abort
t_check "set discovery 0" "$LNETCTL" set discovery 0
t_check "discovery 0: disabled" grep -qx 1 \
	/sys/module/lnet/parameters/lnet_peer_discovery_disabled
t_flag_set discovery-off
t_flag_wait heard-off 120 || t_abort
t_check "discovery 0: peer del $PEER0" "$LNETCTL" peer del --prim_nid "$PEER0"
t_check "discovery 0: ping $PEER0 answers" "$LNETCTL" ping "$PEER0"
t_check "discovery 0: a new peer is not Multi-Rail" mr_is "$PEER0" False
t_check "set discovery 1" "$LNETCTL" set discovery 1

t_check "unload lnet_selftest" rmmod lnet_selftest
t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
t_flag_set finished
t_flag_bye 120
