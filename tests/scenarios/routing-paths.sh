#!/bin/bash
# Two routers in parallel, a router's far side cut, a router drained, a
# network nobody pings and a route of two hops, across four guests
# (Documentation/routing.md, "Tests"):
#
#        link 0          link 2
#   A (g0) ----- R1 (g1) ----- B (g3)        tcp0: A, R1, R2
#      \            | link 4   /             tcp1: B, R1, R2
#       ----- R2 (g2) --------               tcp2: R1, R2 (link 4)
#        link 1          link 3
#
# The links are point to point; an LNet network spans two of them through
# host routes: A's NI is on eth0 (link 0) and R2 reaches it over link 1;
# B's NI is on eth1 (link 3) and R1 reaches it over link 2. The routers
# forward (16 large buffers: the default 1024 do not fit a guest) with
# router_ping_timeout=20: a network of theirs that nobody pings for 22 s
# says DOWN in their ping info.
#
# 1. Parallel: A routes to tcp1 through R1 and R2 (same priority and hops),
#    B to tcp0 likewise. A's pings cross, taking turns: both routers
#    forwarded some of them.
# 2. Cut: link 2 (R1-B) loses its carrier. R1's tcp1 NI says DOWN (link
#    state), A's checker takes the route through R1 down, and A's lst runs
#    with no error node, all of it through R2: R1 forwards nothing. lst's
#    RPCs are A's first messages to B: A discovered B through R2, and R2
#    discovered B before forwarding them.
# 3. Back: link 2 up again: the route through R1 comes back and R1
#    forwards again.
# 4. Drained: R1's admin runs "lnetctl set routing 0". R1 says
#    RTE_DISABLED at once, A's route through it goes down and A's pings
#    cross through R2; R1 stops forwarding once idle after 22 s. "set
#    routing 1": R1 forwards at once but says RTE_DISABLED for 22 s more,
#    so A's route through it stays down about that long.
# 5. Quiet: B deletes its route through R1, so nobody pings R1 on tcp1: R1
#    says its tcp1 NI is DOWN once 22 s passed, and A's route through R1
#    goes down although R1 still answers A. B adds the route back: up again.
# 6. Two hops: R1 leaves tcp1 and routes to it through R2 over tcp2; A
#    prefers R1 (priority 0, 2 hops) over R2 (priority 1). A's lst crosses
#    A -> R1 -> R2 -> B: R2 received it from R1 on tcp2.
#
# Each step waits for both end nodes' checkers: B's lst server sends its
# replies as new messages, through a gateway of its own choosing.
#
# Flags: A drives; R1 answers A (link 0, never cut); R2 answers A and
# relays between A and B (links 1 and 3, never cut).
#
# Run: lnet-vmtest --suite routing-paths --kernel debug --guests 4 \
#	--link 0-1 --link 0-2 --link 1-3 --link 2-3 --link 1-2 --timeout 1500 \
#	--script $LNET_TOP/tests/scenarios/routing-paths.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

M=$LNET_MODDIR
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
D=/sys/kernel/debug/lnet
# the addresses lnet-vmtest gives: link k's network, guest i at .(i+1)
A_IP=192.0.2.1		# A eth0, link 0: A's NI
R1_IP0=192.0.2.2	# R1 eth0, link 0
A_IP1=198.51.100.1	# A eth1, link 1: flags only
R2_IP0=198.51.100.3	# R2 eth0, link 1
R1_IP1=203.0.113.2	# R1 eth1, link 2
R2_IP1=10.99.3.3	# R2 eth1, link 3
B_IP=10.99.3.4		# B eth1, link 3: B's NI
R1_IP2=10.99.4.2	# R1 eth2, link 4
R2_IP2=10.99.4.3	# R2 eth2, link 4
A_NID=$A_IP@tcp
B_NID=$B_IP@tcp1
R1_TCP0=$R1_IP0@tcp
R2_TCP0=$R2_IP0@tcp
R1_TCP1=$R1_IP1@tcp1
R2_TCP1=$R2_IP1@tcp1
R2_TCP2=$R2_IP2@tcp2
CHECK=(alive_router_check_interval=2 lnet_transaction_timeout=60)
SOCK=$M/klnds/socklnd/ksocklnd.ko
WAIT=1500	# a flag that comes after lst runs: minutes on the debug kernel

lc() { "$LNETCTL" "$@" 2>/tmp/lc.err; }

# gw_state NET GATEWAY: up or down, as route show -v says
gw_state() {
	"$LNETCTL" route show -v --net "$1" 2>/dev/null |
		awk -v g="$2" '$1 == "gateway:" { cur = $2 }
			$1 == "state:" && cur == g { print $2; exit }'
}

gw_is() {	# gw_is NET GATEWAY STATE
	[ "$(gw_state "$1" "$2")" = "$3" ]
}

# route_count: messages this node forwarded (debugfs stats, Lustre's order)
route_count() {
	awk '{ print $6 }' $D/stats
}

# lst_session NAME: a console session with groups a (A) and b (B). One per
# step: the console pings its nodes while a session is open, and a ping
# that B answers through a router B has not yet seen go would count as an
# expired RPC in the next step's show_error.
lst_session() {
	t_lst_ok "new_session $1" new_session --timeout 300 "$1" &&
		t_lst_ok "add_group a $A_NID" add_group a "$A_NID" &&
		t_lst_ok "add_group b $B_NID" add_group b "$B_NID"
}

# losses_on / losses_show: the tracepoints of messages dropped or failed
# (Documentation/tracing.md), so that a step that lost some says where
T=/sys/kernel/tracing
losses_on() {
	grep -qs " $T tracefs " /proc/mounts || mount -t tracefs nodev $T || return 1
	echo 'status != 0' >$T/events/lnet/lnet_finalize/filter &&
		echo 1 >$T/events/lnet/lnet_finalize/enable &&
		echo 1 >$T/events/lnet/lnet_drop/enable
}

losses_show() {
	cat $D/stats $D/peers
	grep -v '^#' $T/trace | tail -n 40
}

# end_load NAME NETWORK REMOTE GW1 GW2: an end node's LNet, lnet_selftest
# loaded, once both routers are ready (flags at GW1's and GW2's addresses)
end_load() {
	local name=$1 net=$2 rnet=$3 gw1=$4 gw2=$5
	t_flag_wait r-ready 300 "${gw1%@*}" || return 1
	t_flag_wait r-ready 300 "${gw2%@*}" || return 1
	t_insmod "$name: load lnet ($net, $rnet via R1 and R2)" "$M/lnet/lnet.ko" \
		"networks=$net" "routes=\"$rnet $gw1; $rnet $gw2\"" "${CHECK[@]}" &&
		t_insmod "$name: load ksocklnd" "$SOCK" &&
		lc_ok "$name: lnet configure --all" lnet configure --all &&
		t_insmod "$name: load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko" &&
		t_check "$name: trace losses" losses_on
}

end_unload() {	# end_unload NAME
	t_check "$1: unload lnet_selftest" rmmod lnet_selftest
	lc_ok "$1: lnet unconfigure" lnet unconfigure
	t_check "$1: unload ksocklnd" rmmod ksocklnd
	t_check "$1: unload lnet" rmmod lnet
}

pings_b() {	# pings_b WHEN: 20 LNet pings of B from A, all answered
	local i ok=0
	for i in $(seq 20); do
		"$LNETCTL" ping --timeout 10 "$B_NID" >/dev/null 2>&1 && ok=$((ok + 1))
	done
	t_check "A: 20 pings of B $1: all answered" test "$ok" = 20
}

# ---- A: the client and conductor --------------------------------------------
node_a() {
	# R2 reaches A's NI over link 1 (its host route); A answers from there
	end_load A "tcp0(eth0)" tcp1 "$R1_TCP0" "$R2_TCP0" || t_abort
	t_flag_wait b-ready 600 "$R2_IP0" || t_abort

	# ---- 1. parallel
	t_retry "A: route via R1 up" 120 gw_is tcp1 "$R1_TCP0" up
	t_retry "A: route via R2 up" 120 gw_is tcp1 "$R2_TCP0" up
	t_retry "A: lnetctl ping B through a router" 120 \
		"$LNETCTL" ping --timeout 5 "$B_NID"
	pings_b "both routers up"
	t_flag_set p-done
	t_flag_wait p-checked "$WAIT" "$R1_IP0" || t_abort
	t_flag_wait p-checked "$WAIT" "$R2_IP0" || t_abort

	# ---- 2. R1's far side cut
	t_link 2 off
	t_flag_set cut
	t_retry "A: route via R1 down (R1 says its tcp1 NI is DOWN)" 90 \
		gw_is tcp1 "$R1_TCP0" down
	t_check "A: route via R2 still up" gw_is tcp1 "$R2_TCP0" up
	t_flag_wait b-saw-cut 300 "$R2_IP0" || t_abort
	export LST_SESSION=$$
	lst_session cut || t_abort
	t_lst_brw cut a b 2 50
	t_lst_ok "end_session cut" end_session
	losses_show	# for the record: lst's losses, if any
	# lst's RPCs were A's first messages to B: discovery pinged B through R2
	t_check "A: B, behind routers, discovered (Multi-Rail)" \
		peer_shows_mr "$B_NID" "$LNETCTL"
	t_check "A: lnetctl ping B while link 2 is cut" \
		"$LNETCTL" ping --timeout 10 "$B_NID"
	t_flag_set c-done
	t_flag_wait c-checked "$WAIT" "$R1_IP0" || t_abort
	t_flag_wait c-checked "$WAIT" "$R2_IP0" || t_abort

	# ---- 3. back
	t_link 2 on
	t_flag_set back
	t_retry "A: route via R1 up again" 120 gw_is tcp1 "$R1_TCP0" up
	t_flag_wait b-saw-back 300 "$R2_IP0" || t_abort
	pings_b "after link 2 came back"
	t_flag_set back-done
	t_flag_wait back-checked "$WAIT" "$R1_IP0" || t_abort

	# ---- 4. R1 drained by its admin
	t_flag_set d-go
	t_flag_wait d-off 300 "$R1_IP0" || t_abort
	t_retry "A: route via R1 down once R1 says RTE_DISABLED" 30 \
		gw_is tcp1 "$R1_TCP0" down
	pings_b "while R1 drains"
	t_flag_set d-pinged
	t_flag_wait d-on 300 "$R1_IP0" || t_abort
	local start=$SECONDS
	t_retry "A: route via R1 up once R1 advertises routing again" 120 \
		gw_is tcp1 "$R1_TCP0" up
	# 22 s from R1's "set routing 1", less the flag's and the checker's lag
	t_check "A: R1 said RTE_DISABLED about 22 s after set routing 1 ($((SECONDS - start)) s)" \
		test $((SECONDS - start)) -ge 16

	# ---- 5. nobody pings R1 on tcp1
	t_flag_set q-go
	t_retry "A: route via R1 down once B stopped pinging R1 (22 s)" 120 \
		gw_is tcp1 "$R1_TCP0" down
	t_flag_set q-seen
	t_retry "A: route via R1 up once B pings R1 again" 120 \
		gw_is tcp1 "$R1_TCP0" up

	# ---- 6. two hops: A -> R1 -> R2 -> B
	t_flag_set m-go
	t_flag_wait m-ready "$WAIT" "$R1_IP0" || t_abort
	t_flag_wait b-m-ready 300 "$R2_IP0" || t_abort
	lc_ok "A: route del tcp1 via R1" route del --net tcp1 --gateway "$R1_TCP0"
	lc_ok "A: route del tcp1 via R2" route del --net tcp1 --gateway "$R2_TCP0"
	lc_ok "A: route add tcp1 via R1, 2 hops, priority 0" \
		route add --net tcp1 --gateway "$R1_TCP0" --hop 2 --priority 0
	lc_ok "A: route add tcp1 via R2, priority 1" \
		route add --net tcp1 --gateway "$R2_TCP0" --priority 1
	t_retry "A: 2-hop route via R1 up" 120 gw_is tcp1 "$R1_TCP0" up
	t_retry "A: route via R2 up" 120 gw_is tcp1 "$R2_TCP0" up
	"$LNETCTL" route show -v --net tcp1 | tee /tmp/routes
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "A: route show -v: via R1, hop 2, multi-hop" \
		awk -v g="$R1_TCP0" '$1 == "gateway:" { cur = $2 }
			cur == g && $0 ~ /hop: 2$/ { h = 1 }
			cur == g && $0 ~ /type: multi-hop$/ { t = 1 }
			END { exit !(h && t) }' /tmp/routes
	lst_session two_hops || t_abort
	t_lst_brw two_hops a b 1 20
	t_lst_ok "end_session two_hops" end_session
	t_check "A: lnetctl ping B over two hops" "$LNETCTL" ping --timeout 10 "$B_NID"
	t_flag_set m-done
	t_flag_wait m-checked "$WAIT" "$R1_IP0" || t_abort
	t_flag_wait m-checked "$WAIT" "$R2_IP0" || t_abort

	t_flag_set all-done
	t_flag_wait unloaded 600 "$R1_IP0"
	t_flag_wait unloaded 600 "$R2_IP0"
	end_unload A
}

# ---- the routers ----------------------------------------------------------------
# r_load NAME: forwarding on tcp0 (eth0), tcp1 (eth1) and tcp2 (eth2)
r_load() {
	t_insmod "$1: load lnet (forwarding, tcp0 + tcp1 + tcp2)" "$M/lnet/lnet.ko" \
		forwarding=enabled "networks=tcp0(eth0),tcp1(eth1),tcp2(eth2)" \
		router_ping_timeout=20 tiny_router_buffers=64 small_router_buffers=64 \
		large_router_buffers=16 "${CHECK[@]}" || return 1
	t_insmod "$1: load ksocklnd" "$SOCK" || return 1
	lc_ok "$1: lnet configure --all" lnet configure --all &&
		t_check "$1: trace losses" losses_on
}

r_unload() {	# r_unload NAME
	t_check "$1: unload lnet_selftest" sh -c \
		'! grep -q "^lnet_selftest " /proc/modules || rmmod lnet_selftest'
	lc_ok "$1: lnet unconfigure" lnet unconfigure
	t_check "$1: unload ksocklnd" rmmod ksocklnd
	t_check "$1: unload lnet" rmmod lnet
}

# ni_status NID: its status column in debugfs nis
ni_status() {
	awk -v n="$1" '$1 == n { print $2 }' $D/nis
}

router1() {
	t_check "R1: reach B's NI over link 2" ip route add "$B_IP/32" dev eth1
	r_load R1 || t_abort
	t_flag_set r-ready

	t_flag_wait p-done "$WAIT" "$A_IP" || t_abort
	cat $D/stats
	local c1 c2
	c1=$(route_count)
	t_check "R1: forwarded some of A's traffic ($c1 messages)" test "$c1" -gt 0
	t_flag_set p-checked

	t_flag_wait c-done "$WAIT" "$A_IP" || t_abort
	cat $D/nis $D/stats
	dmesg | grep 'link down' | tail -n 3
	t_check "R1: link down logged for its tcp1 NI" \
		sh -c "dmesg | grep -q '$R1_TCP1: link down on eth1'"
	t_check "R1: debugfs nis: tcp1 NI down" test "$(ni_status "$R1_TCP1")" = down
	t_check "R1: debugfs nis: tcp0 NI up" test "$(ni_status "$R1_TCP0")" = up
	c2=$(route_count)
	t_check "R1: forwarded nothing while its far side was cut ($c1 -> $c2)" \
		test "$c2" = "$c1"
	t_flag_set c-checked

	t_flag_wait back-done "$WAIT" "$A_IP" || t_abort
	t_check "R1: debugfs nis: tcp1 NI up again" test "$(ni_status "$R1_TCP1")" = up
	c2=$(route_count)
	t_check "R1: forwards again once link 2 is back ($c1 -> $c2)" test "$c2" -gt "$c1"
	t_flag_set back-checked

	t_flag_wait d-go "$WAIT" "$A_IP" || t_abort
	c1=$(route_count)
	lc_ok "R1: set routing 0" set routing 0
	t_check "R1: logged: RTE_DISABLED now, forwarding stops in 22 to 66 s" \
		sh -c "dmesg | grep -q 'forwarding disabled: the ping info says so now, forwarding stops in 22 to 66 s'"
	t_check "R1: routing show: enable 0 at once" \
		sh -c "'$LNETCTL' routing show | grep -q 'enable: 0'"
	t_flag_set d-off
	t_flag_wait d-pinged 300 "$A_IP" || t_abort
	t_retry "R1: forwarding stopped once idle, 22 s after set routing 0" 60 \
		sh -c "dmesg | grep -q 'lnet: forwarding stopped'"
	c2=$(route_count)
	t_check "R1: forwarded nothing once it said RTE_DISABLED ($c1 -> $c2)" \
		test "$c2" = "$c1"
	lc_ok "R1: set routing 1" set routing 1
	t_flag_set d-on

	t_flag_wait m-go "$WAIT" "$A_IP" || t_abort
	t_check "R1: the quiet tcp1 NI logged DOWN, then UP when pinged again" \
		sh -c "dmesg | grep -q '$R1_TCP1: no ping for 22 s: it says DOWN' &&
			dmesg | grep -q '$R1_TCP1: pinged again: it says UP'"
	lc_ok "R1: net del tcp1" net del --net tcp1
	lc_ok "R1: route add tcp1 via R2 over tcp2" route add --net tcp1 --gateway "$R2_TCP2"
	t_retry "R1: route to tcp1 via R2 up" 120 gw_is tcp1 "$R2_TCP2" up
	c1=$(route_count)
	t_flag_set m-ready

	t_flag_wait m-done "$WAIT" "$A_IP" || t_abort
	cat $D/stats $D/peers
	c2=$(route_count)
	t_check "R1: forwarded A's traffic to R2 ($c1 -> $c2)" test "$c2" -gt "$c1"
	t_check "R1: R2's tcp2 NID is a peer" grep -q "^$R2_TCP2 " $D/peers
	t_flag_set m-checked

	t_flag_wait all-done "$WAIT" "$A_IP"
	r_unload R1
	t_flag_set unloaded
	sleep 5		# A sees "unloaded" before this guest powers off
}

relay() {	# relay FLAG ADDR: raise FLAG once the guest at ADDR has
	t_flag_wait "$1" "$WAIT" "$2" && t_flag_set "$1"
}

router2() {
	t_check "R2: reach A's NI over link 1" ip route add "$A_IP/32" dev eth0
	r_load R2 || t_abort
	t_flag_set r-ready
	t_flag_wait b-ready 600 "$B_IP" || t_abort
	t_flag_set b-ready

	t_flag_wait p-done "$WAIT" "$A_IP1" || t_abort
	local c1 c2
	c1=$(route_count)
	t_check "R2: forwarded some of A's traffic ($c1 messages)" test "$c1" -gt 0
	t_flag_set p-checked

	relay cut "$A_IP1" || t_abort
	relay b-saw-cut "$B_IP" || t_abort
	t_flag_wait c-done "$WAIT" "$A_IP1" || t_abort
	losses_show
	c2=$(route_count)
	t_check "R2: carried the traffic while link 2 was cut ($c1 -> $c2)" \
		test "$c2" -gt "$c1"
	# a router discovers the destination of a PUT or GET before it forwards
	t_check "R2: B, which it forwarded A's RPCs to, discovered (Multi-Rail)" \
		peer_shows_mr "$B_NID" "$LNETCTL"
	t_flag_set c-checked

	relay back "$A_IP1" || t_abort
	relay b-saw-back "$B_IP" || t_abort
	relay q-go "$A_IP1" || t_abort
	relay q-seen "$A_IP1" || t_abort
	relay m-go "$A_IP1" || t_abort
	relay b-m-ready "$B_IP" || t_abort

	t_flag_wait m-done "$WAIT" "$A_IP1" || t_abort
	cat $D/stats $D/peers
	t_check "R2: messages came from R1 on tcp2 (R1's NID a peer)" \
		grep -q "^$R1_IP2@tcp2 " $D/peers
	t_flag_set m-checked

	t_flag_wait all-done "$WAIT" "$A_IP1"
	t_flag_set all-done
	t_flag_wait b-unloaded 300 "$B_IP"
	r_unload R2
	t_flag_set unloaded
	sleep 5
}

# ---- B: the server ------------------------------------------------------------------
node_b() {
	# R1 reaches B's NI over link 2 (its host route); B answers from there
	end_load B "tcp1(eth1)" tcp0 "$R1_TCP1" "$R2_TCP1" || t_abort
	t_retry "B: route via R1 up" 120 gw_is tcp0 "$R1_TCP1" up
	t_retry "B: route via R2 up" 120 gw_is tcp0 "$R2_TCP1" up
	t_flag_set b-ready

	t_flag_wait cut "$WAIT" "$R2_IP1" || t_abort
	t_retry "B: route via R1 down (R1 unreachable)" 150 gw_is tcp0 "$R1_TCP1" down
	t_check "B: route via R2 still up" gw_is tcp0 "$R2_TCP1" up
	t_flag_set b-saw-cut
	t_flag_wait back "$WAIT" "$R2_IP1" || t_abort
	losses_show	# how step 2 (cut) went here
	t_retry "B: route via R1 up again" 150 gw_is tcp0 "$R1_TCP1" up
	t_flag_set b-saw-back

	t_flag_wait q-go "$WAIT" "$R2_IP1" || t_abort
	lc_ok "B: route del tcp0 via R1 (nobody pings R1 on tcp1)" \
		route del --net tcp0 --gateway "$R1_TCP1"
	t_flag_wait q-seen 300 "$R2_IP1" || t_abort
	lc_ok "B: route add tcp0 via R1 again" route add --net tcp0 --gateway "$R1_TCP1"

	# R1 leaves tcp1: its route there is gone, as an admin would do
	t_flag_wait m-go "$WAIT" "$R2_IP1" || t_abort
	lc_ok "B: route del tcp0 via R1 (R1 leaves tcp1)" \
		route del --net tcp0 --gateway "$R1_TCP1"
	t_flag_set b-m-ready

	t_flag_wait all-done "$WAIT" "$R2_IP1"
	end_unload B
	t_flag_set b-unloaded
	sleep 5
}

t_flag_serve
case $GUEST_INDEX in
0) node_a ;;
1) router1 ;;
2) router2 ;;
3) node_b ;;
esac
