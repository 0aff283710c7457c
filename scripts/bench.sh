#!/usr/bin/env bash
# make bench: benchmarks, each figure printed next to a baseline measured in
# the same run, as a ratio. Stock kernel (no debug overhead). Writes
# build/bench/results.csv. Not part of make check.
#
# The core (one guest): matching cost (10 / 1,000 / 100,000 match-unique
# MEs, baseline: 10 MEs) and loopback PUT rate (1 thread vs one per CPU, MD
# lock table vs a single slot; baseline: 1 thread with the lock table).
# ksocklnd (two guests on one link, tests/scenarios/bench-net.sh): bulk PUT
# and GET of 1 MiB with 8 in flight (baseline: iperf3 in the same
# direction) and 0 B GET round trips with 1, 8 and 32 in flight (baseline:
# lnet-tcprr request/response exchanges with as many in flight).
# ko2iblnd (the same two guests over soft-RoCE, bench-net.sh o2ib): bulk
# PUT and GET of 1 MiB with 8 in flight (baseline: ib_write_bw, 1 MiB RDMA
# writes) and 0 B GETs with 1 and 8 in flight (baseline: ib_send_lat round
# trips, 1e6 / (2 x one-way latency)).
# lnet_selftest (lst, in the same two runs): brw write and read of 4 KiB
# and 1 MiB with 1 and 8 in flight (the client's LNet bandwidth from lst
# stat; baseline: iperf3 in the same direction, or ib_write_bw) and a ping
# test with 8 in flight (RPC/s; baseline: the request/response figures
# above). The ratios are also drawn as build/bench/results.png (gnuplot).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export LNET_TOP=$top
out=$top/build/bench
mkdir -p "$out"

scripts/install-deps.sh
make -s modules LNET_BENCH=1 >/dev/null
make -s tools >/dev/null
build/tools/vmtest/lnet-vmtest --suite bench-core --kernel stock --guests 1 --smp 2 \
	--timeout 900 --script "$top/tests/scenarios/bench-core.sh"
build/tools/vmtest/lnet-vmtest --suite bench-net --kernel stock --guests 2 --link 0-1 \
	--timeout 900 --script "$top/tests/scenarios/bench-net.sh" --arg tcp
build/tools/vmtest/lnet-vmtest --suite bench-net-o2ib --kernel stock --guests 2 --link 0-1 \
	--timeout 900 --script "$top/tests/scenarios/bench-net.sh" --arg o2ib
raw="$top/build/vmtest/bench-core/g0/bench.txt $top/build/vmtest/bench-net/g0/bench.txt"
raw+=" $top/build/vmtest/bench-net-o2ib/g0/bench.txt"

value() { # value NAME FIELD
	# shellcheck disable=SC2086
	awk -v n="$1" -v f="$2" '$1 == n { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' $raw
}
mbit() { awk -v m="$1" 'BEGIN { if (m != "") printf "%d", m * 8 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

csv=$out/results.csv
echo "benchmark,value,unit,baseline,ratio" >"$csv"
printf '%-44s %14s  %-10s %s\n' benchmark value unit "ratio to baseline"
row() { # row NAME VALUE UNIT BASELINE
	local r
	r=$(ratio "$2" "$4")
	printf '%-44s %14s  %-10s %s\n' "$1" "$2" "$3" "$r"
	echo "${1//,/;},$2,$3,$4,$r" >>"$csv"	# names keep no comma in the CSV
}

m10=$(value match-10 ns_per_msg)
for n in 10 1000 100000; do
	row "match cost, $n unique MEs (base: 10 MEs)" "$(value "match-$n" ns_per_msg)" ns/msg "$m10"
done
base=$(value rate-slots0-threads1 puts_per_sec)
row "loopback PUT rate, 1 thread, lock table" "$base" puts/s "$base"
row "loopback PUT rate, all CPUs, lock table" "$(value rate-slots0-threads0 puts_per_sec)" puts/s "$base"
row "loopback PUT rate, 1 thread, single lock" "$(value rate-slots1-threads1 puts_per_sec)" puts/s "$base"
row "loopback PUT rate, all CPUs, single lock" "$(value rate-slots1-threads0 puts_per_sec)" puts/s "$base"
row "tcp: bulk PUT 1 MiB x8 (base: iperf3)" "$(mbit "$(value lnet-put mbytes_per_sec)")" Mbit/s \
	"$(value tcp-fwd mbit_per_sec)"
row "tcp: bulk GET 1 MiB x8 (base: iperf3 -R)" "$(mbit "$(value lnet-get mbytes_per_sec)")" Mbit/s \
	"$(value tcp-rev mbit_per_sec)"
for n in 1 8 32; do
	row "tcp: 0 B GET x$n (base: TCP req/resp x$n)" "$(value "lnet-get0-$n" ops_per_sec)" ops/s \
		"$(value "tcp-rr-$n" per_sec)"
done
row "o2ib: bulk PUT 1 MiB x8 (base: ib_write_bw)" "$(mbit "$(value o2ib-put mbytes_per_sec)")" Mbit/s \
	"$(value ib-write mbit_per_sec)"
row "o2ib: bulk GET 1 MiB x8 (base: ib_write_bw)" "$(mbit "$(value o2ib-get mbytes_per_sec)")" Mbit/s \
	"$(value ib-write mbit_per_sec)"
for n in 1 8; do
	row "o2ib: 0 B GET x$n (base: verbs send RTT x1)" "$(value "o2ib-get0-$n" ops_per_sec)" ops/s \
		"$(value ib-rr per_sec)"
done
for net in tcp o2ib; do
	if [ $net = tcp ]; then
		fwd=$(value tcp-fwd mbit_per_sec)
		rev=$(value tcp-rev mbit_per_sec)
		rr=$(value tcp-rr-8 per_sec)
		wbase="iperf3" rbase="iperf3 -R" rrbase="TCP req/resp x8"
	else
		fwd=$(value ib-write mbit_per_sec)
		rev=$fwd
		rr=$(value ib-rr per_sec)
		wbase="ib_write_bw" rbase="ib_write_bw" rrbase="verbs send RTT x1"
	fi
	for rw in write read; do
		for size in 4k 1M; do
			for c in 1 8; do
				if [ $rw = write ]; then
					row "$net: lst brw write $size x$c (base: $wbase)" \
						"$(value "$net-lst-brw-$rw-$size-x$c" w_mbit)" Mbit/s "$fwd"
				else
					row "$net: lst brw read $size x$c (base: $rbase)" \
						"$(value "$net-lst-brw-$rw-$size-x$c" r_mbit)" Mbit/s "$rev"
				fi
			done
		done
	done
	row "$net: lst ping x8 (base: $rrbase)" "$(value "$net-lst-ping-x8" w_rpc)" RPC/s "$rr"
done
echo "csv: $csv"

# The chart: one bar per figure, its ratio to its baseline.
png=$out/results.png
if gnuplot -e "set terminal pngcairo size 1400,900 noenhanced font ',9'; set output '$png';
	set datafile separator ','; set style fill solid 0.6; set boxwidth 0.7;
	set title 'LNet benchmarks: ratio to the baseline measured in the same run';
	set ylabel 'ratio'; set xtics rotate by -60 left; set grid ytics; set yrange [0:*];
	set key off; set bmargin 22; set rmargin 14;
	plot '$csv' every ::1 using 0:(strcol(5) eq 'n/a' ? 0 : column(5)):xtic(1) with boxes, 1 with lines dt 2" 2>"$out/gnuplot.log"; then
	echo "chart: $png"
else
	echo "chart: gnuplot failed, see $out/gnuplot.log" >&2
fi
