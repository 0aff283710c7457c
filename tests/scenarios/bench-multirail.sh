#!/bin/bash
# Two rails against one (stock kernel, two guests, two links, ours on
# both): tcp0 on eth0 and tcp1 on eth1 each, the peers Multi-Rail by
# discovery. g0 is the lst console and client, g1 the server, addressed
# by its primary NID. Each round runs brw write and read of 1 MiB with 8
# in flight over both rails, then with link 1 cut (both NICs without
# carrier: selection keeps to rail 0, the one-rail baseline), then link 1
# comes back and both rails' health is full again before the next round.
# Before LNet loads, raw TCP (iperf3) over one link and over both at once
# says what the links and the guests' CPUs allow a second rail.
#
# g0 writes one line per row and round to /mnt/bench.txt:
#   two-rail-<row> round=<n> r_rpc=.. w_rpc=.. r_mib=.. w_mib=.. r_mbit=..
#     w_mbit=.. errors=.. (one-rail-<row> likewise), and for each two-rail
#   row "spread-<row> round=<n> rail0=<msgs> rail1=<msgs>" (g0's sends);
#   "ip-one-link round=<n> mbit_per_sec=.." and "ip-two-links ..." (iperf3).
#
# Run: lnet-vmtest --suite bench-multirail --kernel stock --guests 2 \
#	--link 0-1 --link 0-1 --env BENCH_SECS=5 \
#	--script $LNET_TOP/tests/scenarios/bench-multirail.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

rounds=${1:-${BENCH_ROUNDS:-3}}
secs=${BENCH_SECS:-5}
out=/mnt/bench.txt
M=$LNET_MODDIR
WAIT=$((600 + rounds * 4 * (secs + 40)))
rows=(brw-write-1M-x8 brw-read-1M-x8)
tests=("brw write size=1M" "brw read size=1M")

t_bench_args "$rounds" "$secs" || exit 1

ip0=$(t_addr_on eth0)
ip1=$(t_addr_on eth1)
if [ -z "$ip0" ] || [ -z "$ip1" ]; then
	t_fail "two links" "run with --link 0-1 --link 0-1"
	exit 1
fi
MY0=$ip0@tcp
MY1=$ip1@tcp1
other() { echo "${1%.*}.$((GUEST_INDEX == 0 ? 2 : 1))"; }
PEER0=$(other "$ip0")@tcp

# ni_sends NID: the send_count of our NI NID
ni_sends() {
	ours_lnetctl net show -v 2>/dev/null | awk -v n="$1" '
		/- nid:/ { cur = $NF }
		/send_count:/ && cur == n { print $NF; exit }'
}

# rails_whole: both NIs and the peer's rail-1 NID at full health
rails_whole() {
	local h
	for h in $(ours_lnetctl net show -v 2>/dev/null | sed -n 's/^ *health value: //p') \
		$(ours_lnetctl peer show -v 2>/dev/null | sed -n 's/^ *health value: //p'); do
		[ "$h" = 1000 ] || return 1
	done
}

# iperf_mbit TO PORT: one iperf3 run's receiver Mbit/s, empty if none
iperf_mbit() {
	iperf3 -c "$1" -p "$2" -t "$secs" -f m 2>/dev/null |
		awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i }
			END { print r }'
}

# What the links and CPUs allow before LNet: raw TCP over one link, and
# over both at once (one iperf3 stream on each), every round.
if [ "$GUEST_INDEX" != 0 ]; then
	for port in 5201 5202; do
		iperf3 -s -D -p "$port" >/dev/null 2>&1 ||
			t_fail "iperf3 server on port $port" "did not start"
	done
	t_flag_set ip-ready
	t_flag_wait ip-done "$WAIT"
	pkill iperf3
else
	: >"$out"
	t_flag_wait ip-ready "$WAIT" || t_abort
	for ((r = 1; r <= rounds; r++)); do
		one=$(iperf_mbit "$(other "$ip0")" 5201)
		iperf_mbit "$(other "$ip0")" 5201 >/tmp/ip0 &
		iperf_mbit "$(other "$ip1")" 5202 >/tmp/ip1
		wait
		two=$(awk '{ s += $1; n++ } END { if (n == 2) print s }' /tmp/ip0 /tmp/ip1)
		if [ -n "$one" ] && [ -n "$two" ]; then
			echo "ip-one-link round=$r mbit_per_sec=$one" >>"$out"
			echo "ip-two-links round=$r mbit_per_sec=$two" >>"$out"
			t_ok "iperf3 round $r: one link $one, two links $two Mbit/s"
		else
			t_fail "iperf3 round $r" "no result (one '$one', two '$two')"
		fi
	done
	t_flag_set ip-done
fi

t_insmod "load lnet (tcp on eth0, tcp1 on eth1)" "$M/lnet/lnet.ko" \
	"networks=tcp0(eth0),tcp1(eth1)" || t_abort
t_insmod "load ksocklnd" "$M/klnds/socklnd/ksocklnd.ko" || t_abort
lc_ok "lnet configure --all" lnet configure --all || t_abort
t_insmod "load lnet_selftest" "$M/lnet/selftest/lnet_selftest.ko" || t_abort
t_flag_set up
t_flag_wait up "$WAIT" || t_abort

if [ "$GUEST_INDEX" != 0 ]; then
	t_flag_wait finished "$WAIT"
else
	lc_ok "discover $PEER0" discover "$PEER0" || t_abort
	export LST_SESSION=$$
	t_check "new_session" ours_lst new_session --timeout 600 bench_mr || t_abort
	t_check "add_group clients" ours_lst add_group clients "$MY0" || t_abort
	t_check "add_group servers" ours_lst add_group servers "$PEER0" || t_abort
	for i in "${!rows[@]}"; do
		t_check "add_batch ${rows[i]}" ours_lst add_batch "b$i" || continue
		# shellcheck disable=SC2086	# the test's words
		t_check "add_test ${rows[i]}" ours_lst add_test --batch "b$i" \
			--concurrency 8 --from clients --to servers ${tests[i]}
	done
	for ((r = 1; r <= rounds; r++)); do
		t_retry "round $r: both rails at full health" 300 rails_whole
		for i in "${!rows[@]}"; do
			s0=$(ni_sends "$MY0")
			s1=$(ni_sends "$MY1")
			t_lst_measure "$out" "two-rail-${rows[i]} round=$r" "b$i" servers "$secs"
			echo "spread-${rows[i]} round=$r rail0=$(($(ni_sends "$MY0") - s0))" \
				"rail1=$(($(ni_sends "$MY1") - s1))" >>"$out"
		done
		t_link 1 off
		sleep 3
		for i in "${!rows[@]}"; do
			t_lst_measure "$out" "one-rail-${rows[i]} round=$r" "b$i" servers "$secs"
		done
		t_link 1 on
	done
	t_check "end_session" ours_lst end_session
	cat "$out"
	t_flag_set finished
fi
t_check "unload lnet_selftest" rmmod lnet_selftest
lc_ok "lnet unconfigure" lnet unconfigure
t_check "unload ksocklnd" rmmod ksocklnd
t_check "unload lnet" rmmod lnet
t_flag_bye 120
