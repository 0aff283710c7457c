#!/bin/bash
# Fuzzing our passive side while a real peer keeps working. Two guests.
#
# g1 is the LNet node under attack: lnet.ko networks="tcp0(eth0)",
# ksocklnd.ko, lnet_lndtest.ko mode=server. It stays until g0 says it is
# finished (lnet_lndtest's done marker with run number 1000), then unloads
# everything.
#
# g0 is both a real LNet peer and the attacker:
#   before: lnet_lndtest mode=client against g1 (count=64), all checks;
#   then "lnet-sockpeer fuzz" (tools/sockpeer) in the background: CASES
#   malformed connection requests, hellos and frames against g1's port 988
#   from privileged ports, PARALLEL at a time, seed SEED; its hellos and
#   messages claim NIDs of 10.254.0.0/23 (never g0's own: ksocklnd keys a
#   peer by the hello's NID whatever the source address, so the real peer
#   is left alone, and g1's replies to those NIDs fail at once: no route);
#   during: the client again, all checks, then again and again until the
#   fuzz is over, none may fail;
#   after: the client once more, all checks, no failure.
# Every client check and every fuzz check is a result on g0; the fuzz log
# (one line per case: what was sent, the outcome, what came back) is
# RUN/g0/fuzz.log. A failing case is replayed with
#   lnet-sockpeer fuzz --seed SEED --only ID 192.0.2.2 192.0.2.1
# The consoles must stay clean: bad input closes connections, never more.
#
# Arguments (lnet-vmtest --arg, in this order): SEED (default 1), CASES
# (default 3000), PARALLEL connections at a time (default 8).
# Needs make modules-debug tools.
#
# Run: lnet-vmtest --suite socklnd-fuzz --kernel debug --guests 2 \
#	--timeout 600 --script $LNET_TOP/tests/scenarios/socklnd-fuzz.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
me=$(t_my_addr)
test_ko=$M/tests/lndtest/lnet_lndtest.ko
P=/sys/module/lnet_lndtest/parameters
seed=${1:-1}
cases=${2:-3000}
parallel=${3:-8}
finished=1000		# the done marker's run number: g0 is finished

if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi

unload() {
	t_check "unload lnet_lndtest" rmmod lnet_lndtest
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
}

if [ "$GUEST_INDEX" != 0 ]; then
	t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || exit 1
	t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" sock_timeout=10 || exit 1
	t_insmod "load lnet_lndtest (server)" "$test_ko" mode=server || exit 1
	t_retry "g0 finished" 560 grep -qx $finished $P/peer_done
	dmesg | grep -c 'ksocklnd\|lnet:' | sed 's/^/kernel messages of lnet and ksocklnd: /'
	unload
	exit 0
fi

sockpeer=$LNET_TOP/build/tools/sockpeer/lnet-sockpeer
if [ ! -x "$sockpeer" ]; then
	t_fail "lnet-sockpeer present" "build it with make tools"
	exit 1
fi


# client_again: run the client again (in the background) and wait for it
client_again() {
	echo 1 >$P/start_client
	for ((i = 0; i < 300; i++)); do
		grep -qx 0 $P/client_running && return 0
		sleep 1
	done
	return 1
}

# client_run RUN: the client again, a result per check
client_run() {
	dmesg -C
	t_check "$1: client run ended" client_again
	t_lndtest_results "$1"
}

t_insmod "load lnet" "$M/lnet/lnet.ko" networks="tcp0(eth0)" || exit 1
t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" max_reconnectms=4000 ||
	exit 1

dmesg -C
t_insmod "before: load lnet_lndtest (client of $peer@tcp)" "$test_ko" \
	mode=client target="$peer@tcp" count=64 || exit 1
t_lndtest_results before
t_check "before: no client failure" grep -qx 0 $P/failures

start=$(date +%s)
"$sockpeer" fuzz --seed "$seed" --cases "$cases" --parallel "$parallel" \
	--log /mnt/fuzz.log \
	"$peer" "$me" >/tmp/fuzz.out 2>&1 &
fuzz=$!

client_run during
t_check "during: the fuzz was still going when the run ended" kill -0 $fuzz
t_check "during: no client failure" grep -qx 0 $P/failures
# and again until the fuzz is over
runs=0
failed=0
while kill -0 $fuzz 2>/dev/null; do
	client_again || { failed=$((failed + 1)); break; }
	runs=$((runs + 1))
	grep -qx 0 $P/failures || failed=$((failed + 1))
done
echo "$runs more client runs during the fuzz, $failed failed"
dmesg | grep 'lnet_lndtest: not ok'
t_check "during: more client runs until the fuzz ended, none failed" test $failed = 0

wait $fuzz
rc=$?
echo "fuzz took $(($(date +%s) - start)) s"
t_results_from /tmp/fuzz.out ""
t_check "fuzzer finished cleanly" test "$rc" = 0

client_run after
t_check "after: no client failure" grep -qx 0 $P/failures

# g1 may go now
"$sockpeer" 'done' --run $finished "$peer" "$me" >/tmp/done.out 2>&1
t_results_from /tmp/done.out "g1 told: "
unload
