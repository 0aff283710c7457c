#!/bin/bash
# Bad local input and failing allocations (issue "hardening"): guest 0 is
# the node under test, guest 1 a well-behaved tcp peer running
# lnet_selftest.
#
# 1. lnet-ioctlfuzz (tools/ioctlfuzz): seeded /dev/lnet fuzzing as an
#    unprivileged user (everything but the core's reads refused, the
#    configuration unchanged) and as root (the configuration torn down and
#    rebuilt by random commands); LNet then configures again and pings the
#    peer.
# 2. /dev/lnet commands under failslab and fail_page_alloc (10 % of the
#    allocations of the fuzzer's own task): every command may fail (ENOMEM
#    is then an allowed answer) but must fail cleanly; afterwards, with no
#    faults, LNet configures, pings and unloads.
# 3. Traffic under failslab: lst brw write and read with data checks and
#    ping, 8 in flight, while the LND's scheduler threads and the acceptor
#    fail 2 % of their allocations; RPC errors are allowed, splats are not;
#    afterwards the same batch runs with no error and slab usage is back
#    near where it began (printed).
# kmemleak (init.sh), KASAN and lockdep watch all of it.
#
# FUZZ_SEED (default 1) and FUZZ_CASES (default 10000) choose the fuzz run;
# a failing case N is replayed alone with lnet-ioctlfuzz --seed S --first N
# --cases 1.
#
# Run (debug kernel with CONFIG_FAILSLAB; make modules-debug tools):
#   lnet-vmtest --suite faults --kernel debug --guests 2 --timeout 1500 \
#	--script $LNET_TOP/tests/scenarios/faults.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
LST=$LNET_TOP/build/tools/lst/lst
FUZZ=$LNET_TOP/build/tools/ioctlfuzz/lnet-ioctlfuzz
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
seed=${FUZZ_SEED:-1}
cases=${FUZZ_CASES:-10000}
# lnet_selftest's RPC timeout (default 64 s): a brw RPC whose message a
# failed allocation lost ends after it, and the batch stopped under faults
# is idle only then
LST_RPC_TIMEOUT=20
peer_ip=$(t_peer_addrs | head -n1)
peer=$peer_ip@tcp
me=$(ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1 | head -n1)@tcp

for tool in "$LNETCTL" "$LST" "$FUZZ"; do
	[ -x "$tool" ] || { t_fail "$(basename "$tool") built" "$tool missing (make tools)"; exit 1; }
done
t_lnd_load tcp || exit 1
t_check "lnetctl lnet configure --all" "$LNETCTL" lnet configure --all || exit 1

if [ "$GUEST_INDEX" = 1 ]; then
	t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko" \
		"rpc_timeout=$LST_RPC_TIMEOUT" || exit 1
	# the well-behaved peer: serves until guest 0 is done with it
	t_flag_wait finished 1400
	t_check "unload lnet_selftest" rmmod lnet_selftest
	t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
	t_flag_bye 60
	exit 0
fi

t_retry "lnetctl ping $peer" 120 "$LNETCTL" ping --timeout 5 "$peer"

# --- 1. the ioctl fuzzer ------------------------------------------------------
fuzz() { # fuzz AS [RUNNER...]
	local as=$1
	shift
	echo "\$ lnet-ioctlfuzz --as $as --seed $seed --cases $cases"
	"$@" "$FUZZ" --as "$as" --seed "$seed" --cases "$cases" >/tmp/fuzz.out 2>/tmp/fuzz.err
	echo "exit $?"
	tail -n 3 /tmp/fuzz.err
	t_results_from /tmp/fuzz.out "ioctl fuzz: "
}
slab0=$(t_slab_kb)
fuzz user "${NOBODY[@]}"
fuzz root
# whatever the root cases left configured goes; the node comes back whole
t_retry "lnetctl lnet unconfigure after the fuzz" 30 "$LNETCTL" lnet unconfigure
t_check "lnetctl lnet configure --all after the fuzz" "$LNETCTL" lnet configure --all
t_retry "lnetctl ping $peer after the fuzz" 60 "$LNETCTL" ping --timeout 5 "$peer"
echo "slab after the fuzz: $(t_slab_kb) kB (before: $slab0 kB)"

# --- 2. configuration under failing allocations ------------------------------
FS=/sys/kernel/debug/failslab
FP=/sys/kernel/debug/fail_page_alloc
if [ ! -d "$FS" ] || [ ! -d "$FP" ]; then
	t_fail "failslab and fail_page_alloc in debugfs" \
		"the debug kernel lacks CONFIG_FAILSLAB/CONFIG_FAIL_PAGE_ALLOC (scripts/kernel/debug.config)"
	t_flag_set finished
	t_flag_bye 120
	exit 1
fi
t_ok "failslab and fail_page_alloc in debugfs"
# faults PERCENT: failures for the tasks that ask (make-it-fail), sleeping
# allocations included; 0 turns them off
faults() {
	local d
	for d in "$FS" "$FP"; do
		echo "$1" >"$d/probability"
		echo 1 >"$d/interval"
		echo -1 >"$d/times"
		echo 0 >"$d/space"
		echo 1 >"$d/verbose"
		echo Y >"$d/task-filter"
		echo N >"$d/ignore-gfp-wait"
	done
	echo N >"$FS/cache-filter"
	echo N >"$FP/ignore-gfp-highmem"
	echo 0 >"$FP/min-order"
}
injected() { dmesg | grep -c 'FAULT_INJECTION: forcing a failure'; }

# Only tasks that touch nothing but LNet may fail: the guests' root file
# system is a 9p mount, and a failed allocation in a page fault or an exec
# breaks its session for every process (the first version of this test
# failed lnetctl's own exec). So the configuration commands come from
# lnet-ioctlfuzz --fail-allocations, which locks itself in memory before
# it turns failures on for itself.
dmesg -C
faults 10
echo "\$ lnet-ioctlfuzz --as root --seed $((seed + 1)) --cases 3000 --fail-allocations"
"$FUZZ" --as root --seed $((seed + 1)) --cases 3000 --fail-allocations >/tmp/fuzzf.out 2>&1
echo "exit $?"
n=$(injected)
faults 0
t_results_from /tmp/fuzzf.out "ioctl fuzz, allocations failing: "
echo "configuration under faults: $n allocations failed"
t_check "allocations were failed during the commands ($n)" test "$n" -gt 20
"$LNETCTL" lnet unconfigure >/dev/null 2>&1
t_check "lnetctl lnet configure --all after the faults" "$LNETCTL" lnet configure --all
t_check "net show after the faults: tcp on eth0" sh -c "'$LNETCTL' net show | grep -q '$me'"
t_retry "lnetctl ping $peer after the faults" 60 "$LNETCTL" ping --timeout 5 "$peer"

# --- 3. traffic under failing allocations ------------------------------------
# (loaded only now: lnet_selftest holds LNet, which would have made every
# unconfigure above fail with EBUSY)
t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko" \
	"rpc_timeout=$LST_RPC_TIMEOUT" || { t_flag_set finished; t_abort; }
export LST_SESSION=$$
lst() { "$LST" "$@"; }
t_check "lst new_session" lst new_session --timeout 300 faults || { t_flag_set finished; t_abort; }
t_retry "lst add_group servers $peer" 60 lst add_group servers "$peer"
t_check "lst add_group clients $me" lst add_group clients "$me"
t_check "lst add_batch load" lst add_batch load
t_check "lst add_test brw write 64k" lst add_test --batch load --concurrency 8 \
	--from clients --to servers brw write check=full size=64k
t_check "lst add_test brw read 4k" lst add_test --batch load --concurrency 8 \
	--from clients --to servers brw read check=full size=4k
t_check "lst add_test ping" lst add_test --batch load --concurrency 8 \
	--from clients --to servers ping
# run_load SECONDS: the batch for that long, then stopped and idle
run_load() {
	lst run load || return 1
	sleep "$1"
	lst stop load
	for _ in $(seq 1 60); do
		lst query load | grep -q idle && return 0
		sleep 1
	done
	return 1
}
slab1=$(t_slab_kb)
t_check "lst batch without faults" run_load 5
dmesg -C
faults 2
for p in $(pgrep -f 'socknal_sd|lnet_acceptor'); do
	echo 1 >"/proc/$p/make-it-fail"
done
run_load 20
rc=$?
for p in $(pgrep -f 'socknal_sd|lnet_acceptor'); do
	echo 0 >"/proc/$p/make-it-fail"
done
n=$(injected)
faults 0
echo "traffic under faults: batch exit $rc, $n allocations failed"
t_check "allocations were failed under traffic ($n)" test "$n" -gt 0
# the faults may have killed connections and RPCs; the node recovers
t_retry "lnetctl ping $peer after the traffic faults" 120 "$LNETCTL" ping --timeout 5 "$peer"
t_check "lst end_session" lst end_session
t_check "lst new_session (clean run)" lst new_session --timeout 300 clean
t_retry "lst add_group servers $peer (clean run)" 60 lst add_group servers "$peer"
t_check "lst add_group clients $me (clean run)" lst add_group clients "$me"
t_check "lst add_batch clean" lst add_batch clean
t_check "lst add_test brw write 64k (clean run)" lst add_test --batch clean --concurrency 8 \
	--from clients --to servers brw write check=full size=64k
t_check "lst run clean" lst run clean
sleep 5
t_check "lst stop clean" lst stop clean
for _ in $(seq 1 60); do
	lst query clean | grep -q idle && break
	sleep 1
done
lst show_error clients servers >/tmp/errors 2>&1
cat /tmp/errors
# the node's RPC counters count the faulty run too: the session's are this run's
t_check "no brw or ping error without faults (clients)" \
	grep -q 'Session: 0 brw errors, 0 ping errors' /tmp/errors
t_check "no RPC error without faults (servers)" grep -q "Total 0 error nodes in servers" /tmp/errors
t_check "lst end_session (clean run)" lst end_session
slab2=$(t_slab_kb)
echo "slab: $slab1 kB before the traffic, $slab2 kB after (+$((slab2 - slab1)) kB)"
# a leak per failed allocation would show as tens of MB here; kmemleak
# names any object left behind
t_check "slab within 8 MB of where the traffic began" test $((slab2 - slab1)) -lt 8192

t_flag_set finished
t_check "unload lnet_selftest" rmmod lnet_selftest
t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
t_flag_bye 120
exit 0
