#!/bin/bash
# Interoperability with a real Lustre 2.17.0 LNet node (the reference
# node, scripts/build-lustre.sh) on NET0 (eth0): one guest runs Lustre's
# libcfs, lnet, LND and lnet_selftest with its lnetctl and lst, the other
# runs ours. Arguments, in any order:
#   tcp | o2ib        the network (o2ib: both LNDs over soft-RoCE on eth0)
#   lustre=0|1        the guest that runs Lustre (default 0)
#   full | compact    what to run (default full)
#
# Both: LNet ping each way, each node with its own lnetctl, and each node's
# view of the other (the ping reply, peer show, its own NID in net show).
# full: each node's lst in turn is the console of a session holding group
# "lustre" and group "ours": lst ping of both groups, brw write and read of
# 4 KiB at offset 8 and of 1 MiB with check=full and a ping test, first
# with the console's node as client, then the other node as client,
# show_error with no error node after each. Then each node in turn is
# restarted (modules unloaded, reloaded and reconfigured) while the other,
# the console, keeps pinging it with its lnetctl (two loops); afterwards
# the pings answer again and a new session's brw both ways has no error.
# While ours restarts, the Lustre console also keeps a brw batch running
# (our node the client); while Lustre restarts, our console's brw batch to
# it is stopped first (see below).
# compact (make check): the pings, then one lst brw write of 1 MiB with
# check=full from our node to Lustre's, Lustre's lst the console.
# Both modes end with the configuration both ways (config_exchange): each
# node imports the other's "lnetctl export --backup" into a fresh LNet.
#
# Guests share no files: they wait for each other with the flags of lib.sh
# (t_flag_set / t_flag_wait, over eth0).
#
# Bugs of Lustre 2.17.0 itself (each seen between two Lustre nodes too)
# shape the checks:
# - its brw client allocates ceil(size / PAGE_SIZE) pages but fills size
#   bytes from the offset, so a client-side "size=4k off=8" runs into a
#   page it never allocated and the node LBUGs (srpc_init_bulk():
#   ASSERTION(bv_page != NULL)): a Lustre client gets "size=4088 off=8",
#   which ends at the page boundary;
# - its "lst ping --group G" sizes its result list by all the session's
#   groups, printing an empty "LNET_PID_ANY-<?>: Unknown" entry per extra
#   node: ignored;
# - unloading its lnet_selftest while a batch runs through it hangs rmmod
#   for good: as a server, a bulk RPC whose event comes after the shutdown
#   began stays on the active list ("Active RPC ... on shutdown ... wi
#   SWI_STATE_DONE" in its debug log, srpc_wait_service_shutdown() loops);
#   as a client, sfw_destroy_session() waits on its own workqueue (hung
#   task, "waiting for 1 zombie sessions to die"), and the same when its
#   client units still wait for an RPC that a restarting peer lost (64 s
#   timeout) as its session ends. So Lustre leaves its session before it
#   restarts, only pings run through its restart, and in a batch through
#   a restart of ours our node is the client, Lustre's the server.
#
# Run: lnet-vmtest --suite interop-tcp --kernel stock --guests 2 --timeout 1200 \
#	--env LUSTRE_DIR=$(scripts/build-lustre.sh | tail -n1) \
#	--script $LNET_TOP/tests/scenarios/interop.sh --arg tcp --arg lustre=0 --arg full
# (modules: make modules LNET_BENCH=1; tools: make tools)
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

net=tcp
lustre=0
mode=full
for a in "$@"; do
	case $a in
	tcp | o2ib) net=$a ;;
	lustre=[01]) lustre=${a#lustre=} ;;
	full | compact) mode=$a ;;
	*)
		t_fail "arguments" "unknown argument '$a'"
		exit 1
		;;
	esac
done
if [ "$GUEST_INDEX" = "$lustre" ]; then
	kind=lustre other=ours
else
	kind=ours other=lustre
fi
peer=$(t_peer_addrs | head -n1)@$net
me=$(ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1 | head -n1)@$net
t_log "this guest runs $kind ($me), the peer $other ($peer); $net, $mode"
# the long waits: the other guest's whole phase, in TCG
WAIT=900

t_flag_serve
if [ "$kind" = ours ]; then
	for tool in "$OURS_LNETCTL" "$OURS_LST"; do
		[ -x "$tool" ] || { t_fail "ours: tools built" "$tool missing (make tools)"; t_abort; }
	done
fi
t_node_load "$kind" "$net" || t_abort

# --- LNet ping both ways, and what each node knows of the other ----------
t_retry "$kind: lnetctl ping $peer ($other)" 120 node_lnetctl ping --timeout 5 "$peer"
node_lnetctl ping --timeout 5 "$peer" >/tmp/ping 2>&1
cat /tmp/ping
t_check "$kind: the ping reply lists $peer" grep -qwF "$peer" /tmp/ping
node_lnetctl net show >/tmp/net 2>&1
cat /tmp/net
t_check "$kind: net show lists its own NID $me" grep -qwF "$me" /tmp/net
node_lnetctl peer show >/tmp/peers 2>&1
cat /tmp/peers
t_check "$kind: peer show lists $peer" grep -qwF "$peer" /tmp/peers
t_flag_set pinged
t_flag_wait pinged "$WAIT" || t_abort

# --- lst, this node's console ---------------------------------------------
nsess=0
lst_ok() {
	local name=$1
	shift
	echo "\$ lst $*"
	t_check "$kind console: $name" node_lst "$@"
}
# lst_ping GROUP NID: every node of GROUP answers as Active
lst_ping() {
	local out
	if [ "$kind" = lustre ]; then
		out=$(node_lst ping --group "$1" 2>&1)
		echo "$out"
		out=$(grep -vF 'LNET_PID_ANY-<?>: Unknown' <<<"$out")	# see the top
	else
		out=$(node_lst ping "$1" 2>&1)
		echo "$out"
	fi
	if grep -qF "$2" <<<"$out" && grep -q Active <<<"$out" &&
		! grep -qiE 'down|unknown|busy|invalid|fail' <<<"$out"; then
		t_ok "$kind console: lst ping group $1 ($2 Active)"
	else
		t_fail "$kind console: lst ping group $1 ($2 Active)" "$(tail -n1 <<<"$out")"
	fi
}
# batch_idle BATCH: the console says BATCH has no unit running
batch_idle() {
	local out
	out=$(node_lst query "$1" 2>&1) || return 1
	if [ "$kind" = lustre ]; then
		grep -q 'is stopped' <<<"$out"
	else
		grep -q 'Batch is idle' <<<"$out"
	fi
}
batch_running() {
	local out
	out=$(node_lst query "$1" 2>&1) || return 1
	echo "$out"
	if [ "$kind" = lustre ]; then
		grep -q 'is running' <<<"$out"
	else
		grep -q 'Batch is running' <<<"$out"
	fi
}
wait_idle() {
	t_retry "$kind console: batch $1 finished" "$2" batch_idle "$1"
}
# no_errors [--session] GROUP...: show_error finds no error node in any GROUP
no_errors() {
	local out args=()
	[ "$1" = --session ] && { args=(--session); shift; }
	out=$(node_lst show_error "${args[@]}" "$@" 2>&1)
	echo "$out"
	t_no_error_nodes "$kind console: show_error ${args[*]:+${args[*]} }$*: no error node" \
		"$out" "$@"
}
new_session() {
	nsess=$((nsess + 1))
	export LST_SESSION=$((GUEST_INDEX * 1000 + nsess))
	lst_ok "new_session ($1)" new_session --timeout 300 "$1" &&
		lst_ok "add_group $kind $me" add_group "$kind" "$me" &&
		lst_ok "add_group $other $peer" add_group "$other" "$peer"
}
# small CLIENT: the size and offset of the small brw tests of CLIENT's
# group: 4 KiB at offset 8, 4088 bytes at offset 8 for Lustre (see the top)
small() {
	if [ "$1" = lustre ]; then
		echo "size=4088 off=8"
	else
		echo "size=4k off=8"
	fi
}

# brw_batch NAME FROM TO: brw write and read, 4 KiB at offset 8 and 1 MiB,
# with full data checks, and a ping test, FROM's nodes the clients
brw_batch() {
	local b=$1 f=$2 t=$3 sm
	read -ra sm <<<"$(small "$f")"
	lst_ok "add_batch $b" add_batch "$b" || return 1
	lst_ok "$b: brw write ${sm[*]} check=full $f -> $t" add_test --batch "$b" \
		--loop 64 --concurrency 2 --from "$f" --to "$t" brw write "${sm[@]}" check=full
	lst_ok "$b: brw read ${sm[*]} check=full $f -> $t" add_test --batch "$b" \
		--loop 64 --concurrency 2 --from "$f" --to "$t" brw read "${sm[@]}" check=full
	lst_ok "$b: brw write 1M check=full $f -> $t" add_test --batch "$b" \
		--loop 8 --concurrency 2 --from "$f" --to "$t" brw write size=1M check=full
	lst_ok "$b: brw read 1M check=full $f -> $t" add_test --batch "$b" \
		--loop 8 --concurrency 2 --from "$f" --to "$t" brw read size=1M check=full
	lst_ok "$b: ping $f -> $t" add_test --batch "$b" \
		--loop 100 --concurrency 4 --from "$f" --to "$t" ping
	lst_ok "run $b" run "$b" || return 1
	wait_idle "$b" 600
	node_lst stat --count 1 --delay 1 "$kind" "$other" 2>&1
}

# console_full: this node's lst drives both nodes, each direction
console_full() {
	new_session "interop_$kind" || return 1
	lst_ping "$other" "$peer"
	lst_ping "$kind" "$me"
	brw_batch "to_$other" "$kind" "$other"
	no_errors "$kind" "$other"
	brw_batch "from_$other" "$other" "$kind"
	no_errors "$kind" "$other"
	lst_ok "end_session" end_session
}

# console_compact: one brw write, ours the client, Lustre the server
console_compact() {
	new_session "interop_compact" || return 1
	lst_ok "add_batch bulk" add_batch bulk &&
		lst_ok "bulk: brw write 1M check=full ours -> lustre" add_test --batch bulk \
			--loop 16 --concurrency 2 --from ours --to lustre brw write size=1M check=full &&
		lst_ok "run bulk" run bulk &&
		wait_idle bulk 300
	no_errors "$kind" "$other"
	lst_ok "end_session" end_session
}

# --- a restart of the other node under traffic ------------------------------
# pingers_start / pingers_stop: two loops of lnetctl pings at the peer, one
# line "SECONDS ok|fail" each in /tmp/pings
pingers=()
pingers_start() {
	rm -f /tmp/pings /tmp/pings.stop
	for _ in 1 2; do
		(
			while [ ! -e /tmp/pings.stop ]; do
				if node_lnetctl ping --timeout 2 "$peer" >/dev/null 2>&1; then
					echo "$SECONDS ok"
				else
					echo "$SECONDS fail"
				fi >>/tmp/pings
				sleep 0.2
			done
		) &
		pingers+=($!)
	done
}
pingers_stop() {
	touch /tmp/pings.stop
	wait "${pingers[@]}"
	pingers=()
}

# survive N: this node is the console and keeps pinging the peer while the
# peer restarts (flags traffic-N, restarted-N); with ours restarting, a brw
# batch through it runs too. Afterwards the pings answer again and a new
# session's brw both ways has no error (flag checked-N).
survive() {
	local n=$1 ok fail last sm
	read -ra sm <<<"$(small "$other")"
	new_session "restart_$other" || return 1
	# our node the client, Lustre's the server (Lustre as a client through
	# a restart of ours hangs it later: see the top)
	lst_ok "add_batch forever" add_batch forever &&
		lst_ok "forever: brw write 64k check=full ours -> lustre (no loop count)" \
			add_test --batch forever --concurrency 2 --from ours --to lustre \
			brw write size=64k check=full &&
		lst_ok "forever: brw read 64k check=full ours -> lustre (no loop count)" \
			add_test --batch forever --concurrency 2 --from ours --to lustre \
			brw read size=64k check=full || return 1
	lst_ok "run forever" run forever || return 1
	pingers_start
	sleep 5
	node_lst stat --count 1 --delay 1 "$kind" "$other" 2>&1
	t_check "$kind: pings answered before $other restarts" \
		sh -c "grep -q ok /tmp/pings && ! grep -q fail /tmp/pings"
	t_check "$kind console: forever runs before $other restarts" batch_running forever
	if [ "$other" = lustre ]; then
		# Lustre cannot unload its lnet_selftest with a batch running (top)
		lst_ok "stop forever before $other restarts" stop forever
		wait_idle forever 300
		no_errors "$kind" "$other"
		lst_ok "end_session before $other restarts" end_session
	fi
	t_flag_set "traffic-$n"
	t_flag_wait "restarted-$n" "$WAIT" || { pingers_stop; return 1; }
	t_retry "$kind: lnetctl ping $peer after its restart" 120 \
		node_lnetctl ping --timeout 5 "$peer"
	sleep 5
	pingers_stop
	ok=$(grep -c ok /tmp/pings)
	fail=$(grep -c fail /tmp/pings)
	last=$(tail -n 4 /tmp/pings | grep -c ok)
	t_log "pings during $other's restart: $ok answered, $fail not"
	t_check "$kind: the last pings after $other's restart answered" test "$last" -eq 4
	if [ "$other" = ours ]; then
		# its old session is gone with it: the stop cannot reach it
		echo "\$ lst stop forever"
		node_lst stop forever 2>&1
		sleep 3
		lst_ok "end_session after $other restarted" end_session
	fi
	new_session "after_restart_$other" || return 1
	lst_ping "$other" "$peer"
	lst_ok "add_batch again" add_batch again &&
		lst_ok "again: brw write 1M check=full $kind -> $other" add_test --batch again \
			--loop 8 --concurrency 2 --from "$kind" --to "$other" brw write size=1M check=full &&
		lst_ok "again: brw read ${sm[*]} check=full $other -> $kind" add_test --batch again \
			--loop 32 --concurrency 2 --from "$other" --to "$kind" brw read "${sm[@]}" check=full &&
		lst_ok "again: brw write 1M check=full $other -> $kind" add_test --batch again \
			--loop 8 --concurrency 2 --from "$other" --to "$kind" brw write size=1M check=full &&
		lst_ok "run again" run again &&
		wait_idle again 600
	no_errors --session "$kind" "$other"
	lst_ok "end_session (after the restart)" end_session
	t_flag_set "checked-$n"
}

# restart N: the other side of survive
restart() {
	local n=$1
	t_flag_wait "traffic-$n" "$WAIT" || return 1
	sleep 3
	t_node_unload "restart $n: "
	t_node_load "$kind" "$net" "restart $n: " || return 1
	t_retry "restart $n: $kind: lnetctl ping $peer" 120 node_lnetctl ping --timeout 5 "$peer"
	t_flag_set "restarted-$n"
	t_flag_wait "checked-$n" "$WAIT"
}

if [ "$mode" = compact ]; then
	if [ "$kind" = lustre ]; then
		console_compact
		t_flag_set compact-done
	else
		t_flag_wait compact-done "$WAIT" || t_abort
	fi
else
	# Lustre's console, then ours
	if [ "$kind" = lustre ]; then
		console_full
		t_flag_set lustre-console-done
		t_flag_wait ours-console-done "$WAIT" || t_abort
	else
		t_flag_wait lustre-console-done "$WAIT" || t_abort
		console_full
		t_flag_set ours-console-done
	fi
	# Lustre restarts under our traffic, then ours under Lustre's
	if [ "$kind" = lustre ]; then
		restart 1 || t_abort
		survive 2 || t_abort
	else
		survive 1 || t_abort
		restart 2 || t_abort
	fi
fi

# --- the configuration both ways --------------------------------------------
# Each node's "lnetctl export --backup" (net with its LND tunables, global,
# ...) goes to the other, which imports it into a fresh LNet (lnet_selftest
# unloaded: it holds LNet). Its own export is then the file it imported
# with its own NID for the other's, byte for byte; the peer sections are
# left out of the comparison (each lists the nodes it talked to, and an
# import skips the importer's own NID). Ours imports first, pinged by
# Lustre's node afterwards, then Lustre's, pinged by ours. (Lustre 2.17's
# lnetctl import takes only conns_per_peer and tos of an NI's LND tunables:
# the others match because both nodes run their LND's defaults. Its export
# writes "map_on_demand: true", which its own import refuses; ours writes
# 1, so the comparison reads the two as the same.)
comparable() {
	t_yaml_section -peer "$1" | sed 's/^\( *map_on_demand: \)true$/\11/'
}

config_exchange() {
	node_lnetctl export --backup >/tmp/mine.yaml 2>/tmp/export.err
	cat /tmp/mine.yaml /tmp/export.err
	cp /tmp/mine.yaml "$T_FLAG_DIR/$kind-backup"
	t_flag_set "$kind-exported"
	t_flag_wait "$other-exported" "$WAIT" || return 1
	t_flag_fetch "$other-backup" >/tmp/theirs.yaml
	t_check "$kind: fetched $other's export --backup" grep -q '^net:' /tmp/theirs.yaml
	if [ "$kind" = lustre ]; then
		t_flag_wait ours-imported "$WAIT" || return 1
	fi
	t_check "$kind: unload lnet_selftest" rmmod lnet_selftest
	# ours: LNet went down with lnet_selftest, the only holder
	if [ "$kind" = lustre ]; then
		t_check "lustre: lnetctl lnet unconfigure" lustre_lnetctl lnet unconfigure
	fi
	t_check "$kind: lnetctl lnet configure" node_lnetctl lnet configure
	t_check "$kind: lnetctl import of $other's export --backup" \
		node_lnetctl import /tmp/theirs.yaml
	node_lnetctl export --backup >/tmp/after.yaml 2>&1
	sed "s/${peer//./\\.}/$me/g" /tmp/theirs.yaml >/tmp/theirs-here.yaml
	comparable /tmp/theirs-here.yaml >/tmp/expect.yaml
	comparable /tmp/after.yaml >/tmp/got.yaml
	diff -u /tmp/expect.yaml /tmp/got.yaml
	t_check "$kind: its export --backup is the file it imported, with its own NID" \
		cmp /tmp/expect.yaml /tmp/got.yaml
	t_retry "$kind: lnetctl ping $peer after the import" 60 \
		node_lnetctl ping --timeout 5 "$peer"
	if [ "$kind" = ours ]; then
		ours_lnetctl import --show /tmp/theirs.yaml >/tmp/shown.yaml 2>&1
		cat /tmp/shown.yaml
		t_check "ours: import --show of the file: its net, now with $me" \
			grep -qF "nid: $me" /tmp/shown.yaml
	fi
	t_flag_set "$kind-imported"
	if [ "$kind" = ours ]; then
		t_flag_wait lustre-imported "$WAIT" || return 1
		t_check "ours: lnetctl lnet unconfigure" ours_lnetctl lnet unconfigure
	fi
}

config_exchange || t_abort
node_lnetctl stats show 2>&1
t_node_unload
t_flag_bye 120
