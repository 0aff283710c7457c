#!/bin/bash
# LND benchmarks between two guests (stock kernel, one link), each figure
# next to its raw-TCP baseline on the same link in the same run:
#   the link's raw TCP bandwidth: iperf3 with one stream, four (-P 4) and
#     zero-copy (-Z), each in both directions (g0 -> g1, and -R); each
#     variant is recorded, scripts/bench.sh takes the best as the link's;
#   bulk PUT (g0 -> g1) and GET (g1 -> g0) of 1 MiB with 8 in flight
#     vs the link's best;
#   0-byte GETs (LNet round trips) with 1, 8 and 32 in flight vs lnet-tcprr,
#     96-byte request/response exchanges (one socklnd + LNet header each
#     way) with as many in flight on one TCP connection.
# g1 serves (iperf3 -s, lnet-tcprr server, lnet_netbench role=server) until
# g0's last client run says it is done; g0 measures and writes "key value"
# lines to /mnt/bench.txt for scripts/bench.sh.
#
# Arg: the LND's network type, tcp (above) or o2ib: ko2iblnd over soft-RoCE
# (rxe0 on eth0); bulk PUT/GET of 1 MiB with 8 in flight vs ib_write_bw
# (perftest, a fixed number of 1 MiB RDMA writes: its duration mode fails
# under TCG) and 0-byte GETs with 1 and 8 in flight vs ib_send_lat (verbs
# send/receive round trips: 1e6 / (2 x its average one-way latency in us)).
#
# lnet_selftest (lst) is measured by bench-lst.sh, in runs of its own.
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
secs=${BENCH_SECS:-5}
TCPRR=$LNET_TOP/build/tools/tcprr/lnet-tcprr
out=/mnt/bench.txt
net=${1:-tcp}
ib_iters=${BENCH_IB_ITERS:-150}

if [ "$net" = o2ib ]; then
	# perftest needs user-space verbs (a module on the stock kernel)
	modprobe -q ib_uverbs 2>/dev/null
fi
t_lnd_load "$net" || exit 1

if [ "$GUEST_INDEX" = 1 ]; then
	if [ "$net" = o2ib ]; then
		# one perftest server per measurement, in the client's order
		(ib_write_bw -d rxe0 -F -s 1048576 -n "$ib_iters" >/tmp/wbw.log 2>&1
		 ib_send_lat -d rxe0 -F -s 64 -n 1000 >/tmp/lat.log 2>&1) &
	else
		iperf3 -s -D >/dev/null 2>&1 || t_fail "iperf3 server" "did not start"
		"$TCPRR" server --port 5202 >/tmp/tcprr.log 2>&1 &
	fi
	t_insmod "load lnet_netbench (server)" "$M/tests/bench/lnet_netbench.ko" \
		role=server || exit 1
	t_retry "client finished" 900 \
		grep -qx 1 /sys/module/lnet_netbench/parameters/finished
	t_check "unload lnet_netbench (live connections)" rmmod lnet_netbench
	t_check "unload $LND_NAME" rmmod "$LND_NAME"
	t_check "unload lnet" rmmod lnet
	exit 0
fi

: >"$out"
t_retry "g1 reachable" 60 ping -c 1 -W 1 "$peer"

# iperf3 NAME ARGS...: the receiver's rate in Mbit/s (with -P, the sum of
# the streams: the last "receiver" line; retried while g1's server is not
# listening yet).
iperf() {
	local name=$1 rate i
	shift
	for ((i = 0; i < 30; i++)); do
		rate=$(iperf3 -c "$peer" -t "$secs" -f m "$@" 2>/dev/null |
			awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i }
				END { print r }')
		[ -n "$rate" ] && break
		sleep 1
	done
	if [ -n "$rate" ]; then
		echo "$name mbit_per_sec=$rate" >>"$out"
		t_ok "$name"
	else
		t_fail "$name" "no iperf3 result"
	fi
}

# netbench NAME PARAMS...: one client run of lnet_netbench.
netbench() {
	local name=$1 line
	shift
	dmesg -C
	if insmod "$M/tests/bench/lnet_netbench.ko" role=client \
		target="$peer@$net" seconds="$secs" "$@"; then
		line=$(dmesg | grep -o 'lnet_netbench: op=.*' | tail -n1)
		echo "$name $line" >>"$out"
		t_check "$name" grep -q ' errors=0 ' <<<"$line"
		rmmod lnet_netbench
	else
		t_fail "$name" "$(dmesg | grep lnet_netbench | tail -n1)"
	fi
}

# tcprr N: raw TCP request/response exchanges with N in flight.
tcprr() {
	local line
	line=$("$TCPRR" client --connect "$peer" --port 5202 --size 96 \
		--inflight "$1" --time "${secs}s" 2>&1)
	echo "$line"
	if [[ $line == tcprr:* ]]; then
		echo "tcp-rr-$1 $line" >>"$out"
		t_ok "tcp-rr-$1"
	else
		t_fail "tcp-rr-$1" "$line"
	fi
}

# perftest CLIENT NAME ARGS...: run a perftest client against g1 (retried
# while its server is not up yet); its output in /tmp/NAME.out.
perftest() {
	local prog=$1 name=$2 i
	shift 2
	for ((i = 0; i < 30; i++)); do
		"$prog" -d rxe0 -F "$@" "$peer" >"/tmp/$name.out" 2>&1 && return 0
		sleep 1
	done
	cat "/tmp/$name.out"
	return 1
}

if [ "$net" = o2ib ]; then
	# bandwidth: "bytes iterations peak average rate" (Gb/s)
	if perftest ib_write_bw ib-write -s 1048576 -n "$ib_iters" --report_gbits; then
		gbit=$(awk '$1 == 1048576 { print $4 }' /tmp/ib-write.out)
		echo "ib-write mbit_per_sec=$(awk -v g="$gbit" 'BEGIN { printf "%d", g * 1000 }')" >>"$out"
		t_ok "ib_write_bw"
	else
		t_fail "ib_write_bw" "$(tail -n1 /tmp/ib-write.out)"
	fi
	# latency: "bytes iterations min max typical avg ..." (usec, one way)
	if perftest ib_send_lat ib-lat -s 64 -n 1000; then
		lat=$(awk '$1 == 64 { print $6 }' /tmp/ib-lat.out)
		echo "ib-rr per_sec=$(awk -v l="$lat" 'BEGIN { if (l > 0) printf "%d", 1e6 / (2 * l) }') lat_us=$lat" >>"$out"
		t_ok "ib_send_lat"
	else
		t_fail "ib_send_lat" "$(tail -n1 /tmp/ib-lat.out)"
	fi
	netbench o2ib-put op=put size=1048576 inflight=8
	netbench o2ib-get op=get size=1048576 inflight=8
	netbench o2ib-get0-1 op=get size=0 inflight=1
	netbench o2ib-get0-8 op=get size=0 inflight=8 last=1
else
	iperf tcp-fwd
	iperf tcp-fwd-p4 -P 4
	iperf tcp-fwd-z -Z
	netbench lnet-put op=put size=1048576 inflight=8
	iperf tcp-rev -R
	iperf tcp-rev-p4 -R -P 4
	iperf tcp-rev-z -R -Z
	netbench lnet-get op=get size=1048576 inflight=8
	for n in 1 8 32; do
		tcprr "$n"
		[ "$n" = 32 ] && last=1 || last=0
		netbench "lnet-get0-$n" op=get size=0 inflight="$n" last="$last"
	done
fi

cat "$out"
t_check "unload $LND_NAME" rmmod "$LND_NAME"
t_check "unload lnet" rmmod lnet
sleep 2
