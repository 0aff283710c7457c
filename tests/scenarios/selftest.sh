#!/bin/bash
# lnet_selftest between two guests on NET0(eth0) (NET: tcp or o2ib), driven
# by the real lst: guest 0 is the console and a test node, guest 1 a test
# node. Checks: a session, groups, batches; brw write/read with full data
# checks (4 KiB at an offset, 64 KiB, 1 MiB) and ping, each direction;
# stat (table and CSV) and show_error with zero errors; bad commands get
# clear errors; unloading lnet_selftest with a batch running stops it and
# ends the peer's session. Guest 1 stays until its session is over.
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

if [ "$GUEST_INDEX" = 1 ]; then
	# a test node: served until the console's session is gone
	t_retry "joined a console session" 300 \
		sh -c "dmesg | grep -q 'lnet_selftest: session .* from console'"
	t_retry "console session ended (module unload on the console)" 600 \
		sh -c "dmesg | grep -q 'lnet_selftest: session .* ended'"
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

lst_ok "add_batch write" add_batch write
lst_fails "add_batch write again" "exist" add_batch write
lst_fails "add_test to a missing batch" "not found|no such" add_test --batch nosuch --from clients --to servers ping
lst_fails "add_test size 2 MiB" "size" add_test --batch write --from clients --to servers brw write size=2M
lst_ok "add_test brw write 4k off=8 check=full" \
	add_test --batch write --loop 200 --concurrency 2 --from clients --to servers brw write size=4k off=8 check=full
lst_ok "add_test brw write 1M check=full" \
	add_test --batch write --loop 16 --concurrency 4 --from clients --to servers brw write size=1M check=full
lst_ok "run write" run write
lst_ok "stat while running" stat --count 1 --delay 2 clients servers
wait_idle write 300

lst_ok "add_batch read" add_batch read
lst_ok "add_test brw read 64k check=full" \
	add_test --batch read --loop 64 --concurrency 4 --from clients --to servers brw read size=64k check=full
lst_ok "add_test brw read 1M check=simple" \
	add_test --batch read --loop 8 --concurrency 2 --from clients --to servers brw read size=1M check=simple
# the peer as client: its destination list comes from this console
lst_ok "add_test ping servers -> clients" \
	add_test --batch read --loop 500 --concurrency 8 --from servers --to clients ping
lst_ok "run read" run read
wait_idle read 300

# every RPC answered, every byte checked: no error anywhere
"$LST" show_error clients servers >/tmp/errors 2>&1
cat /tmp/errors
t_check "show_error: no error node" grep -q "Total 0 error nodes in clients" /tmp/errors
t_check "show_error: no error node on servers" grep -q "Total 0 error nodes in servers" /tmp/errors

"$LST" stat --csv --count 1 --delay 1 servers >/tmp/stat.csv 2>&1
cat /tmp/stat.csv
t_check "stat --csv: header and one row" test "$(grep -c . /tmp/stat.csv)" -eq 2
# shellcheck disable=SC2016 # awk's fields, not the shell's
t_check "stat --csv: the node answered" \
	awk -F, 'NR == 2 && $3 == 1 && $4 == 1 { ok = 1 } END { exit !ok }' /tmp/stat.csv

lst_fails "del_group in use" "busy|in use|used" del_group servers
lst_ok "add_group spare" add_group spare "$peer"
lst_ok "del_group spare" del_group spare

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
