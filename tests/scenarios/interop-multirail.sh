#!/bin/bash
# Multi-Rail with the reference node: guest 0 runs our LNet, guest 1 Lustre
# 2.17.0's, each with two rails, tcp on eth0 and tcp1 on eth1 (two links
# between the guests). Stock kernel (Lustre is built for it).
#
# - Our discover of Lustre's tcp NID finds both of its NIDs under one
#   primary, Multi-Rail (its ping info says MULTI_RAIL|DISCOVERY).
# - Lustre learns ours (our push, its own discovery): its `peer show` lists
#   our two NIDs under our primary, Multi-Rail True.
# - lst brw 1 MiB x8 (our console and client, Lustre's lnet_selftest the
#   server) to Lustre's primary NID: no error node, and both of our NIs
#   send; Lustre's two NIs send too (it spreads its side over our NIDs).
# - Our `set discovery 0` pushes the info without DISCOVERY: Lustre no
#   longer lists us as Multi-Rail with two NIDs.
#
# Run: lnet-vmtest --suite interop-multirail --kernel stock --guests 2 \
#	--link 0-1 --link 0-1 --env LUSTRE_DIR=$(scripts/build-lustre.sh | tail -n1) \
#	--timeout 900 --script $LNET_TOP/tests/scenarios/interop-multirail.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

OUT=/tmp/imr.out
export LST_SESSION=$$
me0=$(t_addr_on eth0)
me1=$(t_addr_on eth1)
other() { echo "${1%.*}.$((GUEST_INDEX == 0 ? 2 : 1))"; }
if [ -z "$me0" ] || [ -z "$me1" ]; then
	t_fail "two links" "run with --link 0-1 --link 0-1"
	exit 1
fi
MY0=$me0@tcp
MY1=$me1@tcp1
PEER0=$(other "$me0")@tcp
PEER1=$(other "$me1")@tcp1

# peer_nids LNETCTL PRIMARY: the NIDs that lnetctl's peer show lists under
# PRIMARY (both tools print Lustre's YAML)
peer_nids() {
	"$1" peer show >"$OUT" 2>&1 || return 1
	awk -v p="$2" '
		/primary nid:/ { cur = $NF }
		/-[ ]+nid:/ && cur == p { print $NF }' "$OUT" | sort | tr '\n' ' '
}

# peer_is_mr LNETCTL PRIMARY NID0 NID1: PRIMARY is Multi-Rail with both
peer_is_mr() {
	local want
	want=$(printf '%s\n' "$3" "$4" | sort | tr '\n' ' ')
	[ "$(peer_nids "$1" "$2")" = "$want" ] || return 1
	awk -v p="$2" '
		/primary nid:/ { cur = $NF }
		/Multi-Rail:/ && cur == p { ok = (tolower($NF) == "true") }
		END { exit !ok }' "$OUT"
}

# not_mr LNETCTL PRIMARY: peer show works and does not say PRIMARY is
# Multi-Rail
not_mr() {
	"$1" peer show >"$OUT" 2>&1 || return 1
	cat "$OUT"
	awk -v p="$2" '
		/primary nid:/ { cur = $NF }
		/Multi-Rail:/ && cur == p && tolower($NF) == "true" { mr = 1 }
		END { exit mr }' "$OUT"
}

# ni_sends LNETCTL NID: send_count of that local NI (net show -v)
ni_sends() {
	"$1" net show -v >"$OUT" 2>&1 || return 1
	awk -v n="$2" '
		/-[ ]+nid:/ { cur = $NF }
		/send_count:/ && cur == n { print $NF; exit }' "$OUT"
}

if [ "$GUEST_INDEX" != 0 ]; then
	# Lustre, tcp0 on eth0 then tcp1 on eth1
	t_lustre_load tcp || t_abort
	t_check "lustre: lnetctl net add --net tcp1 --if eth1" \
		lustre_lnetctl net add --net tcp1 --if eth1 || t_abort
	t_lustre_selftest_load || t_abort
	lustre_lnetctl net show
	t_flag_set up
	t_flag_wait discovered 600 || t_abort
	t_retry "lustre: peer show lists our two NIDs under $PEER0, Multi-Rail" 60 \
		peer_is_mr lustre_lnetctl "$PEER0" "$PEER0" "$PEER1"
	lustre_lnetctl peer show
	s0=$(ni_sends lustre_lnetctl "$MY0")
	s1=$(ni_sends lustre_lnetctl "$MY1")
	t_flag_set counted
	t_flag_wait finished 1200 || t_abort
	d0=$(($(ni_sends lustre_lnetctl "$MY0") - s0))
	d1=$(($(ni_sends lustre_lnetctl "$MY1") - s1))
	echo "lustre: messages sent during the run: $MY0 $d0, $MY1 $d1"
	t_check "lustre: both of its NIs sent to us during lst" \
		test "$d0" -gt 0 -a "$d1" -gt 0
	t_flag_wait discovery-off 300 || t_abort
	t_retry "lustre: after our last push (discovery off), not Multi-Rail" 60 \
		not_mr lustre_lnetctl "$PEER0"
	t_lustre_unload
	t_flag_set unloaded
	t_flag_bye 120
	exit 0
fi

# ours
t_insmod "load lnet (tcp on eth0, tcp1 on eth1)" \
	"$LNET_MODDIR/lnet/lnet.ko" "networks=tcp0(eth0),tcp1(eth1)" || t_abort
t_insmod "load ksocklnd" "$LNET_MODDIR/klnds/socklnd/ksocklnd.ko" || t_abort
t_insmod "load lnet_selftest" "$LNET_MODDIR/lnet/selftest/lnet_selftest.ko" || t_abort
t_check "lnetctl lnet configure" ours_lnetctl lnet configure
t_flag_wait up 600 || t_abort

t_retry "discover Lustre at $PEER0" 60 ours_lnetctl discover "$PEER0"
ours_lnetctl discover "$PEER0"
t_check "peer show: Lustre's two NIDs under $PEER0, Multi-Rail" \
	peer_is_mr ours_lnetctl "$PEER0" "$PEER0" "$PEER1"
t_check "ping of Lustre's $PEER1 names primary $PEER0" \
	sh -c "'$OURS_LNETCTL' ping '$PEER1' | grep -q 'primary nid: $PEER0'"
t_flag_set discovered
t_flag_wait counted 300 || t_abort

"$OURS_LST" new_session --timeout 300 imr >/dev/null
t_lst_ok "add_group servers $PEER0 (Lustre)" add_group servers "$PEER0"
t_lst_ok "add_group clients $MY0" add_group clients "$MY0"
s0=$(ni_sends ours_lnetctl "$MY0")
s1=$(ni_sends ours_lnetctl "$MY1")
t_lst_brw both clients servers 48 48
d0=$(($(ni_sends ours_lnetctl "$MY0") - s0))
d1=$(($(ni_sends ours_lnetctl "$MY1") - s1))
echo "ours: messages sent during the run: $MY0 $d0, $MY1 $d1"
t_check "ours: both NIs sent to Lustre (each at least a quarter)" \
	test "$d0" -gt 0 -a "$d1" -gt 0 -a $((4 * d0)) -ge "$d1" -a $((4 * d1)) -ge "$d0"
"$OURS_LST" end_session >/dev/null
t_flag_set finished
t_check "set discovery 0 (a last push to Lustre)" ours_lnetctl set discovery 0
t_flag_set discovery-off
t_flag_wait unloaded 300
t_check "unload lnet_selftest" rmmod lnet_selftest
t_check "lnetctl lnet unconfigure" ours_lnetctl lnet unconfigure
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
t_flag_bye 120
