#!/bin/bash
# lnet_selftest between two guests on NET0(eth0) (NET: tcp or o2ib), driven
# by the real lst: guest 0 is the console and a test node, guest 1 a test
# node. Checks: a session, groups, batches; brw write/read with full data
# checks (4 KiB at an offset, 64 KiB, 1 MiB) and ping, each direction;
# stat (table and CSV) and show_error with zero errors; bad commands get
# clear errors; unloading lnet_selftest with a batch running stops it and
# ends the peer's session. Guest 1 stays until its session is over.
# Hardening (Documentation/hardening.md, "Selftest"): oversize TESTs are
# refused (E2BIG) without holding memory; a failed group allocation leaves
# the group sound; the peer unloads its module under brw load while its
# request buffers wait to be reposted, then serves a new session.
# Recovery over the LND: guest 0's NI and its peer, set to health 0,
# are pinged back to 1000 (the NI at its own NID, through itself); a ping
# whose REPLY is dropped ends at transaction_timeout and costs the peer
# health, which recovery pings bring back.
#
# Run: lnet-vmtest --suite selftest --kernel debug --guests 2 --timeout 900 \
#	--script $LNET_TOP/tests/scenarios/selftest.sh --arg tcp
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
LST=$LNET_TOP/build/tools/lst/lst
net=${1:-tcp}
peer=$(t_peer_addrs | head -n1)@$net
me=$(ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1 | head -n1)@$net

[ -x "$LST" ] || { t_fail "lst built" "$LST missing (make tools)"; exit 1; }
t_lnd_load "$net" || exit 1
t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko" || exit 1

# msgs PATTERN: how many kernel log lines match
msgs() {
	dmesg | grep -c "$1"
}

if [ "$GUEST_INDEX" = 1 ]; then
	# a test node: served until the console's session is gone
	t_retry "joined a console session" 300 \
		sh -c "dmesg | grep -q 'lnet_selftest: session .* from console'"
	# Unloaded under brw load while served request buffers wait before
	# their repost (debug knob): a buffer reposted after the stop looked
	# at it would hold the unload for ever.
	t_flag_wait loaded 900
	echo 200 >/sys/module/lnet_selftest/parameters/recycle_delay_ms
	sleep 3
	rmmod lnet_selftest &
	pid=$!
	for ((i = 0; i < 120; i++)); do
		kill -0 $pid 2>/dev/null || break
		sleep 1
	done
	if kill -0 $pid 2>/dev/null; then
		t_fail "unload lnet_selftest under load" "rmmod still waiting after 120 s"
		t_flag_set abort
		exit 1
	fi
	t_check "unload lnet_selftest under load" wait $pid
	t_insmod "load lnet_selftest again" "$M/lnet/selftest/lnet_selftest.ko" || exit 1
	t_flag_set reloaded
	# (sh -c: counted again at every try, not once when t_retry starts)
	t_retry "joined the console's next session" 300 \
		sh -c "test \$(dmesg | grep -c 'lnet_selftest: session .* from console') -ge 2"
	t_retry "console session ended (module unload on the console)" 600 \
		sh -c "test \$(dmesg | grep -c 'lnet_selftest: session .* ended') -ge 2"
	# ended by the console's REMOVE_SESSION, not by the node's timeout
	t_check "session removed by its console" \
		sh -c "! dmesg | grep -q 'lnet_selftest: session .* no console for'"
	t_check "unload lnet_selftest" rmmod lnet_selftest
	t_check "unload $LND_NAME" rmmod "$LND_NAME"
	t_check "unload lnet" rmmod lnet
	exit 0
fi

export LST_SESSION=$$
# lst_ok NAME ARGS...: lst succeeds; lst_fails NAME WANT ARGS...: lst
# exits non-zero and says WANT (a regex) on stderr.
lst_ok() {
	local name=$1
	shift
	echo "\$ lst $*"
	t_check "$name" "$LST" "$@"
}
lst_fails() {
	local name=$1 want=$2 rc err
	shift 2
	echo "\$ lst $* (must fail)"
	err=$("$LST" "$@" 2>&1 >/dev/null)
	rc=$?
	echo "$err"
	if [ $rc -ne 0 ] && grep -qiE "$want" <<<"$err"; then
		t_ok "$name"
	else
		t_fail "$name" "exit $rc, said: $err"
	fi
}
# wait_idle BATCH SECONDS: the batch's units are all over
wait_idle() {
	t_retry "batch $1 finished" "$2" sh -c "'$LST' query $1 | grep -q idle"
}

lst_fails "no session yet: clear error" "no session" show_session
lst_ok "new_session" new_session --timeout 120 selftest
lst_fails "second session refused" "exist" new_session other
lst_ok "show_session" show_session
t_retry "add_group servers $peer (peer's module up)" 120 "$LST" add_group servers "$peer"
lst_ok "add_group clients $me" add_group clients "$me"
lst_fails "add_group with a bad NID" "nid|invalid" add_group bad "not-a-nid@@"
lst_ok "list_group" list_group
lst_ok "list_group servers --all" list_group servers --all
lst_ok "ping servers" ping servers

# A TEST that would make a node hold 1 GiB of brw buffers (1024 units x
# 1 MiB, module parameter max_bulk_mb: a quarter of RAM) or more units
# than max_units is refused with E2BIG, allocates nothing, and the node
# goes on serving (every test below).
meminfo() {
	awk '/^(MemAvailable|Slab):/ { printf "%s %s kB  ", $1, $2 } END { print "" }' /proc/meminfo
}
avail_kb() {
	awk '/^MemAvailable:/ { print $2 }' /proc/meminfo
}
echo "before the oversize TESTs: $(meminfo)"
before=$(avail_kb)
lst_ok "add_batch huge" add_batch huge
lst_fails "TEST of 1024 x 1 MiB units refused here (E2BIG)" "argument list too long" \
	add_test --batch huge --concurrency 1024 --from clients --to servers brw write size=1M
lst_fails "TEST of 1024 x 1 MiB units refused by the peer (E2BIG)" "argument list too long" \
	add_test --batch huge --concurrency 1024 --from servers --to clients brw read size=1M
echo 64 >/sys/module/lnet_selftest/parameters/max_units
lst_fails "TEST of 128 ping units refused with max_units 64" "argument list too long" \
	add_test --batch huge --concurrency 128 --from clients --to servers ping
echo 16384 >/sys/module/lnet_selftest/parameters/max_units
dmesg | grep "TEST from .* refused" | tail -n 3
t_check "refusal logged" sh -c "dmesg | grep -q 'lnet_selftest: session .*: TEST from .* refused'"
echo "after the oversize TESTs: $(meminfo)"
after=$(avail_kb)
t_check "memory held by the refused TESTs < 32 MiB ($((before - after)) kB)" \
	test $((before - after)) -lt 32768

# Growing a group whose node list fails to allocate (debug knob, the
# debug kernel has no failslab) leaves the group as it was: KASAN
# catches a group left holding a freed array.
lst_ok "add_group grow" add_group grow "$peer"
echo 1 >/sys/module/lnet_selftest/parameters/fail_group_alloc
lst_fails "add_group grow by 50 nodes, allocation failed" "cannot allocate memory" \
	add_group grow "$peer" "192.0.2.[100-149]@$net"
lst_ok "list_group grow --all after the failure" list_group grow --all
lst_ok "add_group grow again" add_group grow "$peer"
lst_ok "del_group grow" del_group grow

lst_ok "add_batch write" add_batch write
lst_fails "add_batch write again" "exist" add_batch write
lst_fails "add_test to a missing batch" "not found|no such" add_test --batch nosuch --from clients --to servers ping
lst_fails "add_test size 2 MiB" "size" add_test --batch write --from clients --to servers brw write size=2M
lst_ok "add_test brw write 4k off=8 check=full" \
	add_test --batch write --loop 200 --concurrency 2 --from clients --to servers brw write size=4k off=8 check=full
lst_ok "add_test brw write 1M check=full" \
	add_test --batch write --loop 8 --concurrency 4 --from clients --to servers brw write size=1M check=full
lst_ok "run write" run write
lst_ok "stat while running" stat --count 1 --delay 2 clients servers
wait_idle write 300

lst_ok "add_batch read" add_batch read
lst_ok "add_test brw read 64k check=full" \
	add_test --batch read --loop 32 --concurrency 4 --from clients --to servers brw read size=64k check=full
lst_ok "add_test brw read 1M check=simple" \
	add_test --batch read --loop 8 --concurrency 2 --from clients --to servers brw read size=1M check=simple
# the peer as client: its destination list comes from this console
lst_ok "add_test ping servers -> clients" \
	add_test --batch read --loop 200 --concurrency 8 --from servers --to clients ping
lst_ok "run read" run read
wait_idle read 300

# every RPC answered, every byte checked: no error anywhere
errors=$("$LST" show_error clients servers 2>&1)
echo "$errors"
t_no_error_nodes "show_error: no error node in clients" "$errors" clients
t_no_error_nodes "show_error: no error node in servers" "$errors" servers

"$LST" stat --csv --count 1 --delay 1 servers >/tmp/stat.csv 2>&1
cat /tmp/stat.csv
t_check "stat --csv: header and one row" test "$(grep -c . /tmp/stat.csv)" -eq 2
# shellcheck disable=SC2016 # awk's fields, not the shell's
t_check "stat --csv: the node answered" \
	awk -F, 'NR == 2 && $3 == 1 && $4 == 1 { ok = 1 } END { exit !ok }' /tmp/stat.csv

lst_fails "del_group in use" "busy|in use|used" del_group servers
lst_ok "add_group spare" add_group spare "$peer"
lst_ok "del_group spare" del_group spare

# the peer unloads its module under brw load, then comes back
lst_ok "add_batch load" add_batch load
lst_ok "add_test load brw write 64k" \
	add_test --batch load --concurrency 8 --from clients --to servers brw write size=64k check=simple
lst_ok "run load" run load
sleep 3
t_flag_set loaded
t_flag_wait reloaded 300 || exit 1
lst_ok "stop load --force" stop --force load
wait_idle load 120
lst_ok "end_session after the peer's unload" end_session
lst_ok "new_session after the peer's unload" new_session --timeout 120 selftest2
t_retry "add_group servers $peer (reloaded peer)" 120 "$LST" add_group servers "$peer"
lst_ok "add_group clients $me again" add_group clients "$me"
lst_ok "ping servers after the peer's reload" ping servers

# recovery pings over this LND: an NI set low is pinged at its own NID
# through itself, a peer set low at its NID, until both are back at 1000
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
t_check "set max_recovery_ping_interval 1" "$LNETCTL" set max_recovery_ping_interval 1
t_check "net set --health 0 ($me)" "$LNETCTL" net set --nid "$me" --health 0
t_retry "recovery pings of its own NID bring $me back to 1000" 60 \
	sh -c "'$LNETCTL' net show -v --net '$net' | grep -q 'health value: 1000\$'"
t_retry "... and it leaves the recovery queue" 30 \
	sh -c "'$LNETCTL' debug recovery --local | grep -qx 'local NI recovery: \[\]'"
# (local traffic takes the loopback NI and makes no peer)
t_check "... the pings went out through $LND_NAME (a peer for its own NID)" \
	sh -c "'$LNETCTL' peer show --nid '$me' | grep -q 'nid: $me'"
t_check "peer set --health 0 ($peer)" "$LNETCTL" peer set --nid "$peer" --health 0
t_retry "recovery pings bring $peer back to 1000" 60 \
	sh -c "'$LNETCTL' peer show -v --nid '$peer' | grep -q 'health value: 1000\$'"
t_retry "... and it leaves the recovery queue" 30 \
	sh -c "'$LNETCTL' debug recovery --peer | grep -qx 'peer NI recovery: \[\]'"
# a REPLY that never comes: the GET ends at transaction_timeout over this
# LND too, and costs the peer that owed it health until recovery pings
# bring it back
t_check "set transaction_timeout 3" "$LNETCTL" set transaction_timeout 3
# the peer's "timeout" health statistic (its health value goes back up with
# any message from it, which may come before the check below)
peer_timeouts() {
	"$LNETCTL" peer show -v --nid "$peer" | awk '$1 == "timeout:" { print $2 }'
}
timeouts=$(peer_timeouts)
t_check "drop add: $peer's REPLYs dropped on arrival" "$LNETCTL" fault drop add \
	--source "$peer" --dest "$me" --rate 1 --message REPLY
t0=$(date +%s)
if "$LNETCTL" ping "$peer" --timeout 60 >/tmp/ping.out 2>&1; then
	t_fail "ping without its REPLY fails" "it succeeded"
else
	t_ok "ping without its REPLY fails"
fi
took=$(($(date +%s) - t0))
t_check "... at transaction_timeout (3 s), not the ping's 60 s ($took s)" \
	test "$took" -ge 2 -a "$took" -le 15
t_check "... and $peer is charged a timeout for it ($timeouts before)" \
	test "$(peer_timeouts)" -gt "${timeouts:-0}"
t_check "drop del --all" "$LNETCTL" fault drop del --all
t_retry "recovery pings bring $peer back to 1000" 60 \
	sh -c "'$LNETCTL' peer show -v --nid '$peer' | grep -q 'health value: 1000\$'"
t_retry "... and it leaves the recovery queue" 30 \
	sh -c "'$LNETCTL' debug recovery --peer | grep -qx 'peer NI recovery: \[\]'"
t_check "set transaction_timeout 150" "$LNETCTL" set transaction_timeout 150
t_check "set max_recovery_ping_interval 900" "$LNETCTL" set max_recovery_ping_interval 900

# a batch that runs until stopped: stop, then one left running at unload
lst_ok "add_batch forever" add_batch forever
lst_ok "add_test forever brw write 64k" \
	add_test --batch forever --concurrency 4 --from clients --to servers brw write size=64k check=simple
lst_ok "run forever" run forever
sleep 3
t_check "forever is running" sh -c "'$LST' query forever | grep -q running"
lst_ok "stop forever" stop forever
wait_idle forever 120
lst_ok "run forever again" run forever
sleep 2
lst_fails "add_test to a running batch" "running|busy" \
	add_test --batch forever --from clients --to servers ping
t_check "unload lnet_selftest with a batch running" rmmod lnet_selftest
t_check "no console session left" sh -c "! '$LST' show_session 2>/dev/null"
t_check "unload $LND_NAME" rmmod "$LND_NAME"
t_check "unload lnet" rmmod lnet
