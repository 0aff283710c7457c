#!/bin/bash
# LNet routing across three guests (Documentation/routing.md, "Tests"):
#
#   A (g0) tcp0 --- link 0 --- R (g1) tcp0 + FAR --- link 1 --- B (g2) FAR
#
# FAR is the argument: tcp (tcp1, ksocklnd on both ends) or o2ib (o2ib0,
# ko2iblnd over soft-RoCE on link 1). R forwards (forwarding=enabled, with
# router buffer pools small enough that 8-way 1 MiB traffic runs them
# out: 2 tiny, 2 small, 1 large); A and B know each other's network
# through R (routes=).
#
# 1. Traffic: A and B each run lnet_lndtest against the other through R
#    (ping, PUT/GET of 0 B..1 MiB with every byte checked, then a stream
#    with 8 in flight: 10,000 operations from A (the second argument),
#    256 from B), both ways at once. Then A's lst (lnet_selftest on A and
#    B) runs brw write and read of 1 MiB with check=full (8 units, --loop
#    the third argument) and a ping test, A the client and then B, with no
#    error node. Then R's buffers and router credits are all
#    back, its pools did run out (messages waited, none was lost: every
#    check passed), and it counted what it forwarded.
#    A and B load LNet with check_routers_before_use=1: their bring-up
#    waits for R's first ping, and the first message finds the route up.
# 2. Router failure: R unloads LNet. A's and B's checkers see the gateway
#    gone and their routes go down; a ping across fails with "no route".
#    R comes back: the routes come up and pings cross again.
#
# Guests A and B share no link, so they meet through R's flags only.
#
# Run: lnet-vmtest --suite routing --kernel debug --guests 3 --timeout 900 \
#	--script $LNET_TOP/tests/scenarios/routing.sh --arg tcp [--arg COUNT [--arg LOOPS]]
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

M=$LNET_MODDIR
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
D=/sys/kernel/debug/lnet
far=${1:-tcp}
stream=${2:-10000}	# A's stream: operations (B's is 256)
lst_loops=${3:-8}	# --loop of each lst brw test (the third argument)
A_IP=192.0.2.1
R_IP0=192.0.2.2
R_IP1=198.51.100.2
B_IP=198.51.100.3
case $far in
tcp)
	FARNET=tcp1
	FAR_SUFFIX=tcp1
	;;
o2ib)
	FARNET=o2ib0
	FAR_SUFFIX=o2ib
	;;
*)
	t_fail "routing: a far network" "unknown type '$far' (tcp or o2ib)"
	exit 1
	;;
esac
A_NID=$A_IP@tcp
R_NEAR=$R_IP0@tcp
R_FAR=$R_IP1@$FAR_SUFFIX
B_NID=$B_IP@$FAR_SUFFIX
# The checkers ping every 2 s; a ping lost as R goes is given up after
# 60 s. Not shorter: the LNDs' timeouts follow transaction_timeout (a third
# of it), and 1 MiB messages queued for R's one large buffer on the debug
# kernel under TCG wait seconds for it.
CHECK=(alive_router_check_interval=2 lnet_transaction_timeout=60)
test_ko=$M/tests/lndtest/lnet_lndtest.ko

rxe_on() {	# rxe_on IFACE: soft-RoCE for ko2iblnd on IFACE
	modprobe -q rdma_rxe 2>/dev/null
	modprobe -q rdma_cm 2>/dev/null
	t_check "soft-RoCE rxe0 on $1" rdma link add rxe0 type rxe netdev "$1"
}

lnd_ko() {	# lnd_ko tcp|o2ib: the LND module file
	case $1 in
	tcp) echo "$M/klnds/socklnd/ksocklnd.ko" ;;
	*) echo "$M/klnds/o2iblnd/ko2iblnd.ko" ;;
	esac
}

# route_state NET: up or down, as "lnetctl route show -v" says for NET
route_state() {
	"$LNETCTL" route show -v --net "$1" 2>/dev/null |
		sed -n 's/^ *state: //p' | head -n1
}

# ---- the end nodes --------------------------------------------------------------
# end_node LND MY_NET PEER_NID REMOTE_NET GATEWAY R_ADDR COUNT LABEL
end_node() {
	local lnd=$1 mynet=$2 peer=$3 rnet=$4 gw=$5 raddr=$6 count=$7 label=$8 ko
	[ "$lnd" = tcp ] || rxe_on eth0 || t_abort
	# check_routers_before_use: LNet's bring-up (lnet_lndtest's
	# LNetNIInit) waits for the gateway's first ping, so that the test's
	# first send finds the route up
	t_insmod "load lnet ($mynet, route to $rnet via $gw)" "$M/lnet/lnet.ko" \
		"networks=$mynet(eth0)" "routes=\"$rnet $gw\"" "${CHECK[@]}" \
		check_routers_before_use=1 || t_abort
	ko=$(lnd_ko "$lnd")
	t_insmod "load $(basename "$ko" .ko)" "$ko" || t_abort
	t_flag_wait r-ready 300 "$raddr" || t_abort

	t_insmod "lnet_lndtest through R: $label" "$test_ko" mode=both \
		target="$peer" count="$count" inflight=8 timeout_secs=120 ||
		t_abort
	t_lndtest_results "$label"
	t_check "$label: client checks reported" test "$(wc -l </tmp/checks)" -ge 30
	t_check "bring-up waited for the gateway's first ping" \
		sh -c "dmesg | grep -q 'check_routers_before_use: every gateway checked'"
	t_check "$label: route show -v names the gateway" \
		sh -c "'$LNETCTL' route show -v | grep -q 'gateway: $gw'"
	cat $D/routes $D/routers
	# net 0 of a type is printed without its number (o2ib, not o2ib0)
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "debugfs routes: not a router, the route to $rnet up through $gw" \
		awk -v n="$rnet" -v g="$gw" 'NR == 1 && $0 != "Routing disabled" { exit 1 }
			NR > 2 && ($1 == n || $1 "0" == n) && $4 == "up" && $5 == g { f = 1 }
			END { exit !f }' $D/routes
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "debugfs routers: $gw up, one route through it" \
		awk -v g="$gw" 'NR > 1 && $2 == 1 && $3 == "up" && $4 == g { f = 1 } END { exit !f }' \
		$D/routers
	t_retry "the other side's client done with us" 900 \
		grep -qx '[1-9][0-9]*' /sys/module/lnet_lndtest/parameters/peer_done
	t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko"
	t_flag_set traffic-done
	if [ "$GUEST_INDEX" = 0 ]; then
		t_flag_wait lst-go 600 "$raddr" || t_abort
		export LST_SESSION=$$
		t_lst_ok "new_session" new_session --timeout 300 routed &&
			t_lst_ok "add_group a $A_NID" add_group a "$A_NID" &&
			t_lst_ok "add_group b $B_NID" add_group b "$B_NID" &&
			t_lst_brw a_to_b a b "$lst_loops" 100 &&
			t_lst_brw b_to_a b a "$lst_loops" 100
		t_lst_ok "end_session" end_session
		t_flag_set lst-done
	fi

	# ---- R goes away, then comes back (after A's lst runs: minutes)
	t_flag_wait r-down 900 "$raddr" || t_abort
	t_retry "route to $rnet down once R is gone" 120 \
		sh -c "[ \"\$('$LNETCTL' route show -v --net $rnet | sed -n 's/^ *state: //p')\" = down ]"
	if "$LNETCTL" ping --timeout 5 "$peer" >/tmp/ping.out 2>&1; then
		t_fail "ping $peer fails while R is down" "it answered"
	else
		t_ok "ping $peer fails while R is down"
	fi
	cat /tmp/ping.out
	t_check "the failed ping says there is no route" \
		grep -qi "no route\|unreachable" /tmp/ping.out
	t_flag_set saw-down
	t_flag_wait r-up 300 "$raddr" || t_abort
	t_retry "route to $rnet up again once R is back" 120 \
		sh -c "[ \"\$('$LNETCTL' route show -v --net $rnet | sed -n 's/^ *state: //p')\" = up ]"
	t_retry "ping $peer through R again" 60 "$LNETCTL" ping --timeout 5 "$peer"
	t_flag_set all-done
	t_flag_wait bye 300 "$raddr"

	t_check "unload lnet_lndtest" rmmod lnet_lndtest
	t_check "unload lnet_selftest" rmmod lnet_selftest
	t_check "unload $(basename "$ko" .ko)" rmmod "$(basename "$ko" .ko)"
	t_check "unload lnet" rmmod lnet
}

# ---- the router -------------------------------------------------------------------
r_load() {	# r_load LABEL: LNet up on both links, forwarding
	t_insmod "$1" "$M/lnet/lnet.ko" forwarding=enabled \
		"networks=tcp0(eth0),$FARNET(eth1)" \
		tiny_router_buffers=2 small_router_buffers=2 \
		large_router_buffers=1 "${CHECK[@]}" || return 1
	t_insmod "R: load ksocklnd" "$(lnd_ko tcp)" || return 1
	if [ "$far" != tcp ]; then
		t_insmod "R: load ko2iblnd" "$(lnd_ko o2ib)" || return 1
	fi
	lc_ok "R: lnet configure --all" lnet configure --all || return 1
	t_check "R: both networks up" \
		sh -c "grep -q '@tcp ' $D/nis && grep -q '@$FAR_SUFFIX ' $D/nis"
}

r_unload() {
	lc_ok "R: lnet unconfigure" lnet unconfigure
	# shellcheck disable=SC2016 # the inner shell's $m
	t_check "R: unload the LNDs" sh -c \
		'for m in ko2iblnd ksocklnd; do ! grep -q "^$m " /proc/modules || rmmod $m || exit 1; done'
	t_check "R: unload lnet" rmmod lnet
}

# each pool: credits back to its count; min below it (buffers were used)
pools_back() {
	awk 'NR > 1 && $3 != $2 { bad = 1 } END { exit bad || NR < 2 }' $D/buffers
}

# rtr_credits_shown NID: peer show -v gives the peer's router credits and
# their low-water mark as debugfs has them
rtr_credits_shown() {
	local rtr min out
	rtr=$(awk -v n="$1" '$1 == n { print $6 }' $D/peers)
	min=$(awk -v n="$1" '$1 == n { print $7 }' $D/peers)
	out=$("$LNETCTL" peer show -v --nid "$1")
	echo "$out"
	[ -n "$rtr" ] && grep -q "available_rtr_credits: $rtr\$" <<<"$out" &&
		grep -q "min_rtr_credits: $min\$" <<<"$out"
}

router() {
	[ "$far" = tcp ] || rxe_on eth1 || exit 1
	r_load "R: load lnet (forwarding=enabled, tcp0 + $FARNET)" || t_abort
	t_check "R: forwarding enabled logged" sh -c "dmesg | grep -q 'lnet: forwarding enabled'"
	t_check "R: debugfs routes says so" sh -c "head -n1 $D/routes | grep -qx 'Routing enabled'"
	t_check "R: buffers lists 3 pools per CPT" \
		awk 'NR > 1 { n++ } END { exit n < 3 || n % 3 }' $D/buffers
	cat $D/buffers
	t_flag_set r-ready

	t_flag_wait traffic-done 1200 "$A_IP" || t_abort
	t_flag_wait traffic-done 600 "$B_IP" || t_abort
	t_flag_set lst-go	# B is ready: A's lst may start
	t_flag_wait lst-done 900 "$A_IP" || t_abort
	cat $D/buffers $D/peers $D/stats
	t_retry "R: every router buffer back in its pool" 30 pools_back
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "R: pools ran out (messages waited for buffers)" \
		awk 'NR > 1 && $4 < 0 { f = 1 } END { exit !f }' $D/buffers
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "R: router and send credits of every peer back" \
		awk 'NR > 1 && $1 != "0@lo" && ($6 != $5 || $8 != $5) { bad = 1 } END { exit bad }' $D/peers
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "R: messages forwarded (stats route_count)" \
		awk -v n="$stream" '$6 > n { f = 1 } END { exit !f }' $D/stats
	t_check "R: peer show -v: A's router credits (as in debugfs)" \
		rtr_credits_shown "$A_NID"
	t_check "R: A and B known as peers" \
		sh -c "grep -q '^$A_NID ' $D/peers && grep -q '^$B_NID ' $D/peers"
	"$LNETCTL" routing show
	t_check "R: routing show: forwarding, a large pool of 256-page buffers" \
		sh -c "'$LNETCTL' routing show | grep -q 'enable: 1' &&
			'$LNETCTL' routing show | grep -q 'npages: 256'"
	lc_ok "R: set routing 0" set routing 0
	t_check "R: routing show: not forwarding" \
		sh -c "'$LNETCTL' routing show | grep -q 'enable: 0'"
	t_check "R: forwarding disabled logged" \
		sh -c "dmesg | grep -q 'lnet: forwarding disabled'"
	lc_ok "R: set routing 1" set routing 1
	t_check "R: routing show: forwarding again" \
		sh -c "'$LNETCTL' routing show | grep -q 'enable: 1'"
	lc_ok "R: set small_buffers 64" set small_buffers 64
	t_check "R: routing show: 64 small buffers, all free" \
		sh -c "'$LNETCTL' routing show | grep -q 'small: 64' &&
			awk 'NR > 1 && \$1 == 1 { s += \$2; c += \$3 } END { exit s != 64 || c != 64 }' $D/buffers"

	r_unload
	t_flag_set r-down
	t_flag_wait saw-down 300 "$A_IP"
	t_flag_wait saw-down 300 "$B_IP"
	rm -f "$T_FLAG_DIR/r-down"
	r_load "R: load lnet again" || t_abort
	t_flag_set r-up
	t_flag_wait all-done 300 "$A_IP"
	t_flag_wait all-done 300 "$B_IP"
	t_flag_set bye
	r_unload
	# let A and B see "bye" before this guest powers off
	sleep 5
}

t_flag_serve
case $GUEST_INDEX in
0) end_node tcp tcp0 "$B_NID" "$FARNET" "$R_NEAR" "$R_IP0" "$stream" "A->B" ;;
1) router ;;
2) end_node "$far" "$FARNET" "$A_NID" tcp0 "$R_FAR" "$R_IP1" 256 "B->A" ;;
esac
