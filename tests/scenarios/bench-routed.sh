#!/bin/bash
# Routed against direct lnet_selftest traffic (stock kernel, three guests,
# all running ours):
#
#   A (g0) tcp0 --- link 0 --- R (g1) tcp0 + tcp1 --- link 1 --- B (g2) tcp1
#
# A is the lst console and client. Each row runs against R's tcp0 NID
# (direct: one link) and against B through R (routed: two links and a
# store-and-forward), alternating, BENCH_ROUNDS times: brw write and read
# of 1 MiB with 8 in flight and a ping test with 8 in flight. R forwards
# with Lustre's recommended minimum buffer counts (512 / 4096 / 256).
#
# The same path's IP forwarding is the reference for what the virtual
# links and R's CPU allow: before LNet loads, iperf3 (one TCP stream) from
# A to R and from A to B through R's kernel IP forwarding, each round
# (lines ip-direct and ip-routed, mbit_per_sec=..).
#
# g0 writes one line per row and round to /mnt/bench.txt:
#   routed-<row> round=<n> r_rpc=.. w_rpc=.. r_mib=.. w_mib=.. r_mbit=..
#     w_mbit=.. errors=..   (and the same for direct-<row>)
# g1 writes one line per round: router-cpu round=<n> busy_pct=.. (R's CPU
# time not idle while the routed rows of that round ran, over all its CPUs).
#
# Run: lnet-vmtest --suite bench-routed --kernel stock --guests 3 \
#	--env BENCH_SECS=5 --script $LNET_TOP/tests/scenarios/bench-routed.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

rounds=${1:-${BENCH_ROUNDS:-3}}
secs=${BENCH_SECS:-5}
out=/mnt/bench.txt
M=$LNET_MODDIR
A_IP=192.0.2.1
R_IP0=192.0.2.2
R_IP1=198.51.100.2
B_IP=198.51.100.3
WAIT=$((600 + rounds * 6 * (secs + 15)))
rows=(brw-write-1M-x8 brw-read-1M-x8 ping-x8)
tests=("brw write size=1M" "brw read size=1M" "ping")

t_bench_args "$rounds" "$secs" || exit 1

# node_up NETWORKS [LNET PARAMS...]: our lnet.ko, ksocklnd, LNet up with
# the module parameters, lnet_selftest
node_up() {
	local nets=$1
	shift
	t_insmod "load lnet ($nets)" "$M/lnet/lnet.ko" "networks=$nets" "$@" &&
		t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" &&
		lc_ok "lnet configure --all" lnet configure --all &&
		t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko"
}

node_down() {
	t_check "unload lnet_selftest" rmmod lnet_selftest
	lc_ok "lnet unconfigure" lnet unconfigure
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
}

# cpu_busy_idle: "busy idle" jiffies summed over every CPU (/proc/stat)
cpu_busy_idle() {
	awk '$1 == "cpu" { idle = $5 + $6; for (i = 2; i <= NF; i++) t += $i
		print t - idle, idle }' /proc/stat
}

# ip_serve: an iperf3 server; routes to the far link through R
ip_serve() {
	iperf3 -s -D >/dev/null 2>&1 || t_fail "iperf3 server" "did not start"
}

# iperf TO NAME ROUND: one iperf3 run from A, the receiver's Mbit/s
iperf() {
	local to=$1 name=$2 r=$3 rate i
	for ((i = 0; i < 30; i++)); do
		rate=$(iperf3 -c "$to" -t "$secs" -f m 2>/dev/null |
			awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i }
				END { print r }')
		[ -n "$rate" ] && break
		sleep 1
	done
	if [ -n "$rate" ]; then
		echo "$name round=$r mbit_per_sec=$rate" >>"$out"
		t_ok "$name round $r"
	else
		t_fail "$name round $r" "no iperf3 result"
	fi
}

router() {
	local r b0 i0 b1 i1
	t_check "R: IP forwarding on" sysctl -qw net.ipv4.ip_forward=1
	ip_serve
	# A and B see only R's flags: pass theirs on
	t_flag_wait ip-ready "$WAIT" "$B_IP" || t_abort
	t_flag_set ip-ready
	t_flag_wait ip-done "$WAIT" "$A_IP" || t_abort
	t_flag_set ip-done
	node_up "tcp0(eth0),tcp1(eth1)" forwarding=enabled tiny_router_buffers=512 \
		small_router_buffers=4096 large_router_buffers=256 || t_abort
	t_flag_set r-ready
	t_flag_wait b-ready "$WAIT" "$B_IP" || t_abort
	t_flag_set b-ready
	: >"$out"
	for ((r = 1; r <= rounds; r++)); do
		t_flag_wait "routed-$r-begin" "$WAIT" "$A_IP" || break
		read -r b0 i0 <<<"$(cpu_busy_idle)"
		t_flag_set "cpu-$r-begun"
		t_flag_wait "routed-$r-end" "$WAIT" "$A_IP" || break
		read -r b1 i1 <<<"$(cpu_busy_idle)"
		awk -v r="$r" -v b=$((b1 - b0)) -v i=$((i1 - i0)) 'BEGIN {
			printf "router-cpu round=%d busy_pct=%.1f\n", r, b + i ? 100 * b / (b + i) : 0 }' >>"$out"
	done
	cat "$out"
	cat /sys/kernel/debug/lnet/stats /sys/kernel/debug/lnet/buffers
	t_flag_wait finished "$WAIT" "$A_IP"
	t_flag_set bye
	node_down
	sleep 5
}

far_end() {
	t_check "B: IP route to A's link through R" ip route add 192.0.2.0/24 via "$R_IP1"
	ip_serve
	t_flag_set ip-ready
	t_flag_wait ip-done "$WAIT" "$R_IP1"
	node_up "tcp1(eth0)" "routes=\"tcp0 $R_IP1@tcp1\"" || t_abort
	t_flag_wait r-ready "$WAIT" "$R_IP1" || t_abort
	t_flag_set b-ready
	t_flag_wait bye "$WAIT" "$R_IP1"
	node_down
}

console() {
	local r i
	: >"$out"
	t_check "A: IP route to B's link through R" ip route add 198.51.100.0/24 via "$R_IP0"
	t_flag_wait ip-ready "$WAIT" "$R_IP0" || t_abort
	t_retry "B reachable over IP through R" 60 ping -c 1 -W 1 "$B_IP"
	for ((r = 1; r <= rounds; r++)); do
		iperf "$R_IP0" ip-direct "$r"
		iperf "$B_IP" ip-routed "$r"
	done
	t_flag_set ip-done
	node_up "tcp0(eth0)" "routes=\"tcp1 $R_IP0@tcp\"" || t_abort
	t_flag_wait r-ready "$WAIT" "$R_IP0" || t_abort
	t_flag_wait b-ready "$WAIT" "$R_IP0" || t_abort
	t_retry "ping B through R" 120 ours_lnetctl ping --timeout 5 "$B_IP@tcp1"
	export LST_SESSION=$$
	t_check "new_session" ours_lst new_session --timeout 600 bench_routed || t_abort
	t_check "add_group clients" ours_lst add_group clients "$A_IP@tcp" || t_abort
	t_check "add_group direct (R)" ours_lst add_group direct "$R_IP0@tcp" || t_abort
	t_check "add_group routed (B)" ours_lst add_group routed "$B_IP@tcp1" || t_abort
	for i in "${!rows[@]}"; do
		for k in direct routed; do
			t_check "add_batch $k ${rows[i]}" ours_lst add_batch "$k$i" || continue
			# shellcheck disable=SC2086	# the test's words
			t_check "add_test $k ${rows[i]}" ours_lst add_test --batch "$k$i" \
				--concurrency 8 --from clients --to "$k" ${tests[i]}
		done
	done
	for ((r = 1; r <= rounds; r++)); do
		for i in "${!rows[@]}"; do
			t_lst_measure "$out" "direct-${rows[i]} round=$r" "direct$i" direct "$secs"
		done
		t_flag_set "routed-$r-begin"
		t_flag_wait "cpu-$r-begun" 60 "$R_IP0"
		for i in "${!rows[@]}"; do
			t_lst_measure "$out" "routed-${rows[i]} round=$r" "routed$i" routed "$secs"
		done
		t_flag_set "routed-$r-end"
	done
	t_check "end_session" ours_lst end_session
	cat "$out"
	t_flag_set finished
	t_flag_wait bye "$WAIT" "$R_IP0"
	node_down
}

t_flag_serve
case $GUEST_INDEX in
0) console ;;
1) router ;;
2) far_end ;;
esac
