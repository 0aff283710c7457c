#!/bin/bash
# Routing with a real Lustre 2.17.0 LNet node (the reference node,
# scripts/build-lustre.sh), three guests on the stock kernel:
#
#   A (g0) tcp0 --- link 0 --- R (g1) tcp0 + FAR --- link 1 --- B (g2) FAR
#
# Arguments: router=lustre|ours says who routes: Lustre's node between two
# of ours, or ours between two Lustre nodes; far=tcp|o2ib chooses FAR:
# tcp1, or o2ib0 over soft-RoCE on link 1 (default tcp). The routers forward from
# the moment their lnet.ko loads (forwarding=enabled; Lustre's "lnetctl
# set routing 1" would keep saying "routing disabled" in its ping info
# for 110 s). The end nodes know the other network through R.
#
# Checks: each end node's own lnetctl pings the other end through R; A's
# lst (A's kind) runs brw write and read of 1 MiB with check=full and a
# ping test, A the client and then B the client, with no error node, and
# A has discovered B through R (peer show: Multi-Rail);
# each end node's route is up after its router checker has pinged R (so
# R's ping info says it routes and its NIs are up); R counted forwarded
# messages (ours: every router buffer back too).
#
# Guests A and B share no link: they meet through R's flags.
#
# Run: lnet-vmtest --suite interop-routing-lustre --kernel stock --guests 3 \
#	--mem 2048 --timeout 1200 --env LUSTRE_DIR=$(scripts/build-lustre.sh | tail -n1) \
#	--script $LNET_TOP/tests/scenarios/interop-routing.sh --arg router=lustre \
#	[--arg far=o2ib]
# (modules: make modules LNET_BENCH=1; tools: make tools)
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

router=lustre
far=tcp
for a in "$@"; do
	case $a in
	router=lustre | router=ours) router=${a#router=} ;;
	far=tcp | far=o2ib) far=${a#far=} ;;
	*)
		t_fail "arguments" "unknown argument '$a'"
		exit 1
		;;
	esac
done
if [ "$router" = lustre ]; then
	ends=ours
else
	ends=lustre
fi
A_IP=192.0.2.1
R_IP0=192.0.2.2
R_IP1=198.51.100.2
B_IP=198.51.100.3
A_NID=$A_IP@tcp
if [ "$far" = tcp ]; then
	FARNET=tcp1 FAR_SUFFIX=tcp1 FAR_LND=ksocklnd
else
	FARNET=o2ib0 FAR_SUFFIX=o2ib FAR_LND=ko2iblnd
fi
B_NID=$B_IP@$FAR_SUFFIX
WAIT=900
D=/sys/kernel/debug/lnet
M=$LUSTRE_DIR/modules

# rxe_on IFACE: soft-RoCE on IFACE, for the o2ib LNDs
rxe_on() {
	modprobe -q rdma_rxe 2>/dev/null
	modprobe -q ib_core
	modprobe -q rdma_cm
	t_check "soft-RoCE rxe0 on $1" rdma link add rxe0 type rxe netdev "$1"
}

rxe_off() {
	if [ -e /sys/class/infiniband/rxe0 ]; then
		t_check "remove rxe0" rdma link delete rxe0
	fi
}

# lustre_modules "LNDS" CONFIGURE LNET_PARAMS...: Lustre's libcfs, lnet
# (with the parameters) and the LNDS, then "lnetctl lnet CONFIGURE"
lustre_modules() {
	local lnds=$1 configure=$2 lnd
	shift 2
	if [ -z "$LUSTRE_DIR" ] || [ ! -f "$M/lnet.ko" ]; then
		t_fail "lustre: build present" "LUSTRE_DIR='${LUSTRE_DIR:-}' has no modules"
		return 1
	fi
	modprobe -q sunrpc
	t_lustre_insmod "lustre: load libcfs" "$M/libcfs.ko" &&
		t_insmod "lustre: load lnet $*" "$M/lnet.ko" "$@" || return 1
	for lnd in $lnds; do
		t_lustre_insmod "lustre: load $lnd" "$M/$lnd.ko" || return 1
	done
	# shellcheck disable=SC2086 # "configure --all": two words
	t_check "lustre: lnetctl lnet $configure" lustre_lnetctl lnet $configure
}

lustre_unload() {
	local lnd
	[ -d /sys/module/lnet_selftest ] &&
		t_check "lustre: unload lnet_selftest" rmmod lnet_selftest
	t_check "lustre: lnetctl lnet unconfigure" lustre_lnetctl lnet unconfigure
	for lnd in ko2iblnd ksocklnd; do
		if [ -d "/sys/module/$lnd" ]; then
			t_check "lustre: unload $lnd" rmmod "$lnd"
		fi
	done
	t_check "lustre: unload lnet" rmmod lnet
	t_check "lustre: unload libcfs" rmmod libcfs
	rxe_off
}

ours_unload() {
	local lnd
	[ -d /sys/module/lnet_selftest ] &&
		t_check "ours: unload lnet_selftest" rmmod lnet_selftest
	lc_ok "ours: lnet unconfigure" lnet unconfigure
	for lnd in ko2iblnd ksocklnd; do
		if [ -d "/sys/module/$lnd" ]; then
			t_check "ours: unload $lnd" rmmod "$lnd"
		fi
	done
	t_check "ours: unload lnet" rmmod lnet
	rxe_off
}

ours_lnd() {	# ours_lnd LND: our module file
	case $1 in
	ksocklnd) echo "$LNET_MODDIR/klnds/socklnd/ksocklnd.ko" ;;
	*) echo "$LNET_MODDIR/klnds/o2iblnd/ko2iblnd.ko" ;;
	esac
}

# ---- the end nodes ------------------------------------------------------------
# end_load LND MY_NET REMOTE_NET GATEWAY: an LNet node of kind $ends on
# MY_NET (eth0, LND) with a route to REMOTE_NET, lnet_selftest loaded
end_load() {
	local lnd=$1 mynet=$2 rnet=$3 gw=$4
	[ "$lnd" = ksocklnd ] || rxe_on eth0 || return 1
	if [ "$ends" = lustre ]; then
		# the checker pings R every 5 s instead of 60
		lustre_modules "$lnd" configure alive_router_check_interval=5 &&
			t_check "lustre: net add $mynet on eth0" \
				lustre_lnetctl net add --net "$mynet" --if eth0 &&
			t_check "lustre: route add $rnet via $gw" \
				lustre_lnetctl route add --net "$rnet" --gateway "$gw" &&
			t_lustre_insmod "lustre: load lnet_selftest" \
				"$M/lnet_selftest.ko"
	else
		t_insmod "ours: load lnet" "$LNET_MODDIR/lnet/lnet.ko" \
			"networks=$mynet(eth0)" "routes=\"$rnet $gw\"" \
			alive_router_check_interval=5 &&
			t_insmod "ours: load $lnd" "$(ours_lnd "$lnd")" &&
			lc_ok "ours: lnet configure --all" lnet configure --all &&
			t_insmod "ours: load lnet_selftest" \
				"$LNET_MODDIR/lnet/selftest/lnet_selftest.ko"
	fi
}

end_checks() {	# end_checks PEER_NID REMOTE_NET GATEWAY
	local peer=$1 rnet=$2 gw=$3
	t_retry "$ends: lnetctl ping $peer through R" 120 \
		node_lnetctl ping --timeout 5 "$peer"
	node_lnetctl ping --timeout 5 "$peer" >/tmp/ping 2>&1
	cat /tmp/ping
	t_check "$ends: the ping reply lists $peer" grep -qwF "$peer" /tmp/ping
	# the checker pings every 5 s: by now it has judged R at least once
	sleep 12
	node_lnetctl route show -v >/tmp/route 2>&1
	cat /tmp/route
	t_check "$ends: route to $rnet via $gw listed" grep -qF "$gw" /tmp/route
	t_check "$ends: route to $rnet up (R's ping info: routing, NIs up)" \
		grep -qE 'state: up' /tmp/route
}

lst_ok() {
	local name=$1
	shift
	echo "\$ lst $*"
	t_check "A console: $name" node_lst "$@"
}

batch_idle() {
	local out
	out=$(node_lst query "$1" 2>&1) || return 1
	if [ "$ends" = lustre ]; then
		grep -q 'is stopped' <<<"$out"
	else
		grep -q 'Batch is idle' <<<"$out"
	fi
}

no_errors() {
	local out
	out=$(node_lst show_error a b 2>&1)
	echo "$out"
	t_no_error_nodes "A console: $1: show_error: no error node" "$out" a b
}

brw_batch() {	# brw_batch NAME FROM TO
	local b=$1 f=$2 t=$3
	lst_ok "add_batch $b" add_batch "$b" || return 1
	lst_ok "$b: brw write 1M check=full $f -> $t" add_test --batch "$b" \
		--loop 8 --concurrency 2 --from "$f" --to "$t" brw write size=1M check=full
	lst_ok "$b: brw read 1M check=full $f -> $t" add_test --batch "$b" \
		--loop 8 --concurrency 2 --from "$f" --to "$t" brw read size=1M check=full
	lst_ok "$b: ping $f -> $t" add_test --batch "$b" \
		--loop 50 --concurrency 4 --from "$f" --to "$t" ping
	lst_ok "run $b" run "$b" || return 1
	t_retry "A console: batch $b finished" 600 batch_idle "$b"
	node_lst stat --count 1 --delay 1 a b 2>&1
	no_errors "$b"
}

node_a() {
	NODE_KIND=$ends
	# R first: Lustre 2.17's acceptor dereferences NULL if a connection
	# arrives before its thread is running (our router checker pings R
	# as soon as our LNet is up)
	t_flag_wait r-ready "$WAIT" "$R_IP0" || t_abort
	end_load ksocklnd tcp0 "$FARNET" "$R_IP0@tcp" || t_abort
	t_flag_wait b-ready "$WAIT" "$R_IP0" || t_abort
	end_checks "$B_NID" "$FARNET" "$R_IP0@tcp"

	export LST_SESSION=7
	lst_ok "new_session" new_session --timeout 300 routed &&
		lst_ok "add_group a $A_NID" add_group a "$A_NID" &&
		lst_ok "add_group b $B_NID" add_group b "$B_NID" &&
		brw_batch a_to_b a b &&
		brw_batch b_to_a b a
	lst_ok "end_session" end_session
	# lst's RPCs were A's first messages to B: discovery pinged B through R
	node_lnetctl peer show -v 2>&1
	t_check "$ends: B, behind R, discovered (Multi-Rail)" \
		peer_shows_mr "$B_NID" node_lnetctl
	t_flag_set a-done
	t_flag_wait bye "$WAIT" "$R_IP0"
	if [ "$ends" = lustre ]; then lustre_unload; else ours_unload; fi
}

node_b() {
	NODE_KIND=$ends
	t_flag_wait r-ready "$WAIT" "$R_IP1" || t_abort	# R first, as A
	end_load "$FAR_LND" "$FARNET" tcp0 "$R_IP1@$FAR_SUFFIX" || t_abort
	t_flag_set b-ready
	end_checks "$A_NID" tcp0 "$R_IP1@$FAR_SUFFIX"
	t_flag_set b-done
	t_flag_wait bye "$WAIT" "$R_IP1"
	if [ "$ends" = lustre ]; then lustre_unload; else ours_unload; fi
}

# ---- the router -----------------------------------------------------------------
node_r() {
	local lnds=ksocklnd lnd
	if [ "$far" = o2ib ]; then
		lnds="ksocklnd ko2iblnd"
		rxe_on eth1 || t_abort
	fi
	if [ "$router" = lustre ]; then
		# forwarding= and networks= are read by "configure --all"
		# only; a DLC bring-up ("configure", "net add") leaves
		# forwarding off
		lustre_modules "$lnds" "configure --all" forwarding=enabled \
			"networks=tcp0(eth0),$FARNET(eth1)" tiny_router_buffers=512 \
			small_router_buffers=512 large_router_buffers=32 || t_abort
		lustre_lnetctl routing show
		t_check "lustre: routing enabled" \
			sh -c "LD_LIBRARY_PATH=$LUSTRE_DIR/lib $LUSTRE_DIR/bin/lnetctl routing show | grep -q 'enable: 1'"
	else
		t_insmod "ours: load lnet (forwarding=enabled)" \
			"$LNET_MODDIR/lnet/lnet.ko" forwarding=enabled \
			"networks=tcp0(eth0),$FARNET(eth1)" tiny_router_buffers=64 \
			small_router_buffers=64 large_router_buffers=8 || t_abort
		for lnd in $lnds; do
			t_insmod "ours: load $lnd" "$(ours_lnd "$lnd")" || t_abort
		done
		lc_ok "ours: lnet configure --all" lnet configure --all || t_abort
		cat $D/buffers
	fi
	t_flag_set r-ready
	# A cannot see B's flags: pass B's on
	t_flag_wait b-ready "$WAIT" "$B_IP" || t_abort
	t_flag_set b-ready
	t_flag_wait b-done "$WAIT" "$B_IP"
	t_flag_wait a-done "$WAIT" "$A_IP"

	if [ "$router" = lustre ]; then
		lustre_lnetctl stats show >/tmp/stats 2>&1
		cat /tmp/stats
		# shellcheck disable=SC2016 # awk's fields, not the shell's
		t_check "lustre: R forwarded messages (route_count)" \
			awk '/route_count:/ && $2 > 0 { f = 1 } END { exit !f }' /tmp/stats
	else
		cat $D/buffers $D/peers $D/stats
		# shellcheck disable=SC2016 # awk's fields, not the shell's
		t_check "ours: R forwarded messages (route_count)" awk '$6 > 0 { f = 1 } END { exit !f }' $D/stats
		# shellcheck disable=SC2016 # awk's fields, not the shell's
		t_retry "ours: every router buffer back in its pool" 30 \
			awk 'NR > 1 && $3 != $2 { bad = 1 } END { exit bad || NR < 2 }' $D/buffers
	fi
	t_flag_set bye
	if [ "$router" = lustre ]; then lustre_unload; else ours_unload; fi
	sleep 5
}

t_flag_serve
case $GUEST_INDEX in
0) node_a ;;
1) node_r ;;
2) node_b ;;
esac
