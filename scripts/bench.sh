#!/usr/bin/env bash
# make bench: benchmarks, each figure printed next to a baseline measured in
# the same run, as a ratio. Stock kernel (no debug overhead) except the
# lock statistics, which need the debug kernel. Writes
# build/bench/results.csv and build/bench/results.png. Not part of make
# check. BENCH_SECS (default 5): seconds per measurement; BENCH_ROUNDS
# (default 3): rounds of each lst row.
#
# The core (one guest): matching cost (10 / 1,000 / 100,000 match-unique
# MEs, baseline: 10 MEs) and loopback PUT rate (1 thread vs one per CPU, MD
# lock table vs a single slot; baseline: 1 thread with the lock table).
# ksocklnd (two guests on one link, tests/scenarios/bench-net.sh): the
# link's raw TCP bandwidth, the best of iperf3 with 1 stream, 4 (-P 4) and
# zero-copy (-Z), each way (each variant is shown against the best); bulk
# PUT and GET of 1 MiB with 8 in flight (baseline: the link's best) and 0 B
# GET round trips with 1, 8 and 32 in flight (baseline: lnet-tcprr
# request/response exchanges with as many in flight).
# ko2iblnd (the same two guests over soft-RoCE, bench-net.sh o2ib): bulk
# PUT and GET of 1 MiB with 8 in flight (baseline: ib_write_bw, 1 MiB RDMA
# writes, the link's best) and 0 B GETs with 1 and 8 in flight (baseline:
# ib_send_lat round trips, 1e6 / (2 x one-way latency)).
# Routing (tests/scenarios/bench-routed.sh, three guests A - R - B, ours on
# all): lst brw write and read of 1 MiB and ping, 8 in flight, from A to B
# through R against the same from A to R over one link (baseline), the
# median of BENCH_ROUNDS rounds; R's CPU use while it routed; and the same
# comparison for R's kernel IP forwarding (iperf3), what the virtual links
# and R's CPU allow a store-and-forward hop.
# Multi-Rail (tests/scenarios/bench-multirail.sh, two guests with two
# links, ours on both, tcp0 and tcp1): lst brw write and read of 1 MiB, 8
# in flight, to the peer's primary NID over both rails against the same
# with link 1 cut (baseline: one rail), median of BENCH_ROUNDS rounds, and
# the client's messages on each rail; what the machine allows a second
# rail: raw TCP (iperf3) over both links at once against over one.
# lnet_selftest (tests/scenarios/bench-lst.sh, g0 the console and client,
# g1 the server), for three pairs on each net: Lustre 2.17 on both
# (scripts/build-lustre.sh), ours on both, and mixed (ours on g0 with our
# lst, Lustre on g1): brw write and read of 4 KiB and 1 MiB with 1 and 8 in
# flight (the client's LNet bandwidth from lst stat) and a ping test with 8
# in flight (RPC/s), each BENCH_ROUNDS times: the median, its spread
# [min-max], ours/Lustre, mixed / the slower pure pair, and each pure
# pair's ratio to the link's best (ping: to the request/response baseline
# of the 0 B GETs). A row is flagged with '*' (not failed) when ours/Lustre
# < 1.2 or mixed is below the slower pure pair.
# Lock contention (tests/scenarios/bench-lockstat.sh, one guest with 4
# vCPUs on the debug kernel, CONFIG_LOCK_STAT): loopback PUTs from every
# CPU, contended acquisitions of each lnet.ko lock class per million PUTs
# with the MD lock table (baseline: the same with a single MD lock).
# Exit status 1 if a guest run failed (its figures are then n/a).
# BENCH_REPORT=1: no build and no run, only the report of the last runs.
# Quick runs: BENCH_RUNS (an extended regex over the run names bench-core,
# bench-lockstat, bench-net, bench-net-o2ib, bench-multirail, bench-lst-NET-PAIR) keeps only
# the runs it matches (the others' old figures are removed, so nothing stale
# is reported), BENCH_ROWS the lst rows it matches (bench-lst.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export LNET_TOP=$top
out=$top/build/bench
secs=${BENCH_SECS:-5}
rounds=${BENCH_ROUNDS:-3}
mkdir -p "$out"
die() { echo "bench: $*" >&2; exit 1; }

failed=()
if [ "${BENCH_REPORT:-0}" != 1 ]; then
	scripts/install-deps.sh || die "install-deps failed"
	make -s modules LNET_BENCH=1 >/dev/null || die "make modules failed"
	make -s tools >/dev/null || die "make tools failed"
	make -s modules-debug LNET_BENCH=1 >/dev/null || die "make modules-debug failed"
	lustre=$(scripts/build-lustre.sh | tail -n1)
	if [ ! -f "$lustre/modules/lnet.ko" ]; then
		echo "bench: scripts/build-lustre.sh failed: no Lustre pairs" >&2
		lustre=
	fi

	# vmtest SUITE GUESTS TIMEOUT SCRIPT ARGS...: one guest run; a failure is
	# reported at the end (its figures are missing from the table).
	vmtest() {
		local suite=$1 guests=$2 timeout=$3 script=$4 a args=() kernel=stock
		shift 4
		if ! [[ $suite =~ ${BENCH_RUNS:-.} ]]; then
			rm -rf "build/vmtest/$suite"
			return 0
		fi
		case $guests in debug:*) kernel=debug guests=${guests#debug:} ;; esac
		# G:2: two guests with two links between them
		case $guests in *:2) guests=${guests%:2} args+=(--link 0-1) ;; esac
		for a in "$@"; do args+=(--arg "$a"); done
		if [ "$kernel" = debug ]; then
			args+=(--smp 4 --mem 2048)
		elif [ "$guests" = 1 ]; then
			args+=(--smp 2)
		elif [ "$guests" = 2 ]; then
			args+=(--link 0-1)
		fi	# three guests: the default chain 0-1, 1-2
		[ -n "$lustre" ] && args+=(--env "LUSTRE_DIR=$lustre")
		[ -n "${BENCH_ROWS:-}" ] && args+=(--env "BENCH_ROWS=$BENCH_ROWS")
		build/tools/vmtest/lnet-vmtest --suite "$suite" --kernel "$kernel" --guests "$guests" \
			--timeout "$timeout" --env "BENCH_SECS=$secs" --env "BENCH_ROUNDS=$rounds" \
			--script "$top/tests/scenarios/$script" "${args[@]}" || failed+=("$suite")
	}
	t=$((900 + 20 * secs))
	vmtest bench-core 1 "$t" bench-core.sh
	vmtest bench-lockstat debug:1 "$t" bench-lockstat.sh
	vmtest bench-net 2 "$t" bench-net.sh tcp
	vmtest bench-net-o2ib 2 "$t" bench-net.sh o2ib
	# 2 lst rows a round, each on two rails and on one
	vmtest bench-multirail 2:2 $((600 + rounds * 4 * (secs + 40))) bench-multirail.sh "$rounds"
	# 3 lst rows a round, each twice (direct, routed)
	vmtest bench-routed 3 $((600 + rounds * 6 * (secs + 15))) bench-routed.sh "$rounds"
	# 9 lst rows a round, each BENCH_SECS and about 3 s more
	t=$((600 + rounds * 9 * (secs + 10)))
	pairs="lustre-lustre ours-ours ours-lustre"
	for net in tcp o2ib; do
		for p in $pairs; do
			if [ -z "$lustre" ] && [[ $p == *lustre* ]]; then
				failed+=("bench-lst-$net-$p (no Lustre build)")
				rm -rf "build/vmtest/bench-lst-$net-$p"	# no stale figures
				continue
			fi
			vmtest "bench-lst-$net-$p" 2 "$t" bench-lst.sh "$net" "${p%-*}" "${p#*-}" "$rounds"
		done
	done
fi
raw=()	# the runs' figures (a failed run may have none)
for s in bench-core bench-lockstat bench-net bench-net-o2ib; do
	[ -f "$top/build/vmtest/$s/g0/bench.txt" ] && raw+=("$top/build/vmtest/$s/g0/bench.txt")
done

value() { # value NAME FIELD
	[ ${#raw[@]} -gt 0 ] || return 0
	awk -v n="$1" -v f="$2" '$1 == n { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "${raw[@]}"
}
mbit() { awk -v m="$1" 'BEGIN { if (m != "") printf "%d", m * 8 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# maxof, minof: the largest, the smallest number of stdin's (empty if none)
maxof() { awk 'NF && (m == "" || $1 + 0 > m + 0) { m = $1 } END { print m }'; }
minof() { awk 'NF && (m == "" || $1 + 0 < m + 0) { m = $1 } END { print m }'; }

csv=$out/results.csv
# value/baseline/ratio for every row; for lst rows value is ours-ours (the
# median of the rounds) and the columns after ratio the rest of the
# comparison (empty for the other rows)
echo "benchmark,value,unit,baseline,ratio,ours_min,ours_max,lustre,lustre_min,lustre_max,mixed,mixed_min,mixed_max,ours_vs_lustre,mixed_vs_slower,lustre_vs_baseline,mixed_vs_baseline,ours_rounds,lustre_rounds,mixed_rounds,flag" >"$csv"
printf '%-44s %14s  %-10s %s\n' benchmark value unit "ratio to baseline"
row() { # row NAME VALUE UNIT BASELINE
	local r
	r=$(ratio "$2" "$4")
	printf '%-44s %14s  %-10s %s\n' "$1" "${2:-n/a}" "$3" "$r"
	echo "${1//,/;},$2,$3,$4,$r,,,,,,,,,,,,,,,," >>"$csv"	# names keep no comma in the CSV
}

m10=$(value match-10 ns_per_msg)
for n in 10 1000 100000; do
	row "match cost, $n unique MEs (base: 10 MEs)" "$(value "match-$n" ns_per_msg)" ns/msg "$m10"
done
# posting cost (LNetMEAttach + LNetMDAttach) as the tables grow
p10=$(value match-10 ns_per_post)
for n in 1000 100000; do
	row "ME+MD post cost, $n MEs (base: 10 MEs)" "$(value "match-$n" ns_per_post)" ns/post "$p10"
done
base=$(value rate-slots0-threads1 puts_per_sec)
row "loopback PUT rate, 1 thread, lock table" "$base" puts/s "$base"
row "loopback PUT rate, all CPUs, lock table" "$(value rate-slots0-threads0 puts_per_sec)" puts/s "$base"
row "loopback PUT rate, 1 thread, single lock" "$(value rate-slots1-threads1 puts_per_sec)" puts/s "$base"
row "loopback PUT rate, all CPUs, single lock" "$(value rate-slots1-threads0 puts_per_sec)" puts/s "$base"
# contended acquisitions per million PUTs, lock table against single lock
permega() { awk -v c="$1" -v p="$2" 'BEGIN { if (c != "" && p > 0) printf "%.1f", c * 1e6 / p }'; }
lsum() { # lsum SLOTS: contentions summed over every lnet_* class
	[ ${#raw[@]} -gt 0 ] || return 0
	awk -v p="lockstat-slots$1-" 'index($1, p) == 1 { split($2, kv, "="); s += kv[2]; n++ } END { if (n) print s }' "${raw[@]}"
}
lclasses=$( [ ${#raw[@]} -gt 0 ] && awk '$1 ~ /^lockstat-slots[01]-/ { sub(/^lockstat-slots[01]-/, "", $1); print $1 }' "${raw[@]}" | sort -u)
puts0=$(value lockstat-slots0 puts)
puts1=$(value lockstat-slots1 puts)
for c in $lclasses; do
	row "lock stat: $c, all CPUs (base: single lock)" \
		"$(permega "$(value "lockstat-slots0-$c" contentions)" "$puts0")" cont/1e6 \
		"$(permega "$(value "lockstat-slots1-$c" contentions)" "$puts1")"
done
row "lock stat: all lnet locks (base: single lock)" "$(permega "$(lsum 0)" "$puts0")" cont/1e6 \
	"$(permega "$(lsum 1)" "$puts1")"
# the link's best raw TCP bandwidth: every iperf3 variant, each way
tcp_variants="tcp-fwd tcp-fwd-p4 tcp-fwd-z tcp-rev tcp-rev-p4 tcp-rev-z"
tcpbest=$(for v in $tcp_variants; do value "$v" mbit_per_sec; done | maxof)
for v in $tcp_variants; do
	case $v in
	tcp-fwd) opts= ;;
	tcp-fwd-p4) opts=" -P 4" ;;
	tcp-fwd-z) opts=" -Z" ;;
	tcp-rev) opts=" -R" ;;
	tcp-rev-p4) opts=" -R -P 4" ;;
	tcp-rev-z) opts=" -R -Z" ;;
	esac
	row "tcp: iperf3$opts (base: link's best)" "$(value "$v" mbit_per_sec)" Mbit/s "$tcpbest"
done
row "tcp: bulk PUT 1 MiB x8 (base: link's best)" "$(mbit "$(value lnet-put mbytes_per_sec)")" Mbit/s \
	"$tcpbest"
row "tcp: bulk GET 1 MiB x8 (base: link's best)" "$(mbit "$(value lnet-get mbytes_per_sec)")" Mbit/s \
	"$tcpbest"
for n in 1 8 32; do
	row "tcp: 0 B GET x$n (base: TCP req/resp x$n)" "$(value "lnet-get0-$n" ops_per_sec)" ops/s \
		"$(value "tcp-rr-$n" per_sec)"
done
ibbest=$(value ib-write mbit_per_sec)
row "o2ib: bulk PUT 1 MiB x8 (base: ib_write_bw)" "$(mbit "$(value o2ib-put mbytes_per_sec)")" Mbit/s \
	"$ibbest"
row "o2ib: bulk GET 1 MiB x8 (base: ib_write_bw)" "$(mbit "$(value o2ib-get mbytes_per_sec)")" Mbit/s \
	"$ibbest"
for n in 1 8; do
	row "o2ib: 0 B GET x$n (base: verbs send RTT x1)" "$(value "o2ib-get0-$n" ops_per_sec)" ops/s \
		"$(value ib-rr per_sec)"
done
echo

# --- lnet_selftest: three pairs -------------------------------------------
rcsv=$out/lst-rounds.csv
echo "net,row,pair,round,value,unit,errors" >"$rcsv"
# lst_stats NET PAIR ROW FIELD: "median min max n" of ROW's FIELD over the
# rounds of that pair's run (empty if there is none)
lst_stats() {
	local f=$top/build/vmtest/bench-lst-$1-$2/g0/bench.txt
	[ -f "$f" ] || return 0
	awk -v n="lst-$3" -v f="$4" '$1 == n { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$f" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%s %s %s %d\n",
			NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR], NR }'
}
# num X: a figure for the table: whole above 100, else one decimal
num() { awk -v x="$1" 'BEGIN { if (x == "") print "n/a"; else if (x >= 100) printf "%.0f", x; else printf "%.1f", x }'; }
# cell MEDIAN MIN MAX: "median [min-max]"
cell() {
	if [ -z "$1" ]; then
		echo "n/a"
	else
		echo "$(num "$1") [$(num "$2")-$(num "$3")]"
	fi
}
printf 'lnet_selftest, g0 console and client -> g1 server: median of %s rounds of %s s [min-max];\n' "$rounds" "$secs"
printf 'Lustre = Lustre 2.17 on both, ours = ours on both, mixed = ours on g0, Lustre on g1\n'
printf '%-24s %-7s %-22s %-22s %-22s %7s %8s %8s %8s\n' lst unit Lustre ours mixed ours/L mix/slow L/link ours/link
nflag=0
for net in tcp o2ib; do
	if [ $net = tcp ]; then
		bw=$tcpbest rr=$(value tcp-rr-8 per_sec) rrbase="TCP req/resp x8"
	else
		bw=$ibbest rr=$(value ib-rr per_sec) rrbase="verbs send RTT x1"
	fi
	for name in brw-write-4k-x1 brw-write-4k-x8 brw-write-1M-x1 brw-write-1M-x8 \
		brw-read-4k-x1 brw-read-4k-x8 brw-read-1M-x1 brw-read-1M-x8 ping-x8; do
		case $name in
		brw-write-*) field=w_mbit unit=Mbit/s base=$bw ;;
		brw-read-*) field=r_mbit unit=Mbit/s base=$bw ;;
		ping-*) field=w_rpc unit=RPC/s base=$rr ;;
		esac
		label="$net: ${name//-/ }"
		read -r lm lmin lmax ln < <(lst_stats "$net" lustre-lustre "$name" "$field")
		read -r om omin omax on < <(lst_stats "$net" ours-ours "$name" "$field")
		read -r mm mmin mmax mn < <(lst_stats "$net" ours-lustre "$name" "$field")
		for p in lustre-lustre ours-ours ours-lustre; do
			f=$top/build/vmtest/bench-lst-$net-$p/g0/bench.txt
			[ -f "$f" ] && awk -v n="lst-$name" -v f="$field" -v net="$net" -v p="$p" -v u="$unit" \
				'$1 == n { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				  print net "," substr(n, 5) "," p "," v["round"] "," v[f] "," u "," v["errors"] }' "$f" >>"$rcsv"
		done
		ol=$(ratio "$om" "$lm")
		slower=
		[ -n "$lm" ] && [ -n "$om" ] && slower=$(printf '%s\n' "$lm" "$om" | minof)
		ms=$(ratio "$mm" "$slower")
		ll=$(ratio "$lm" "$base")
		olink=$(ratio "$om" "$base")
		mlink=$(ratio "$mm" "$base")
		why=()
		if [ "$ol" = n/a ] || [ "$ms" = n/a ]; then
			why+=("missing")
		else
			awk -v r="$ol" 'BEGIN { exit !(r < 1.2) }' && why+=("ours/L < 1.2")
			awk -v r="$ms" 'BEGIN { exit !(r < 1) }' && why+=("mixed < slower")
		fi
		flag=
		for w in "${why[@]}"; do
			flag="${flag:+$flag, }$w"
		done
		[ -n "$flag" ] && flag="* $flag"
		[ -n "$flag" ] && nflag=$((nflag + 1))
		printf '%-24s %-7s %-22s %-22s %-22s %7s %8s %8s %8s%s\n' "$label" "$unit" \
			"$(cell "$lm" "$lmin" "$lmax")" "$(cell "$om" "$omin" "$omax")" \
			"$(cell "$mm" "$mmin" "$mmax")" "$ol" "$ms" "$ll" "$olink" "${flag:+ $flag}"
		[ $name = ping-x8 ] && blabel="$rrbase" || blabel="link's best"
		echo "$net: lst ${name//-/ } (base: $blabel),$om,$unit,$base,$olink,$omin,$omax,$lm,$lmin,$lmax,$mm,$mmin,$mmax,$ol,$ms,$ll,$mlink,${on:-0},${ln:-0},${mn:-0},${flag:+flagged}" >>"$csv"
	done
done
echo "* flagged: ours/Lustre below 1.2, or mixed below the slower pure pair ($nflag rows)"

# --- routing: A -> B through R against A -> R ---------------------------------
# run_stats RUN G NAME FIELD: "median min max n" of NAME's FIELD in run
# RUN's guest G (lines "NAME round=N FIELD=V ...")
run_stats() {
	local f=$top/build/vmtest/$1/$2/bench.txt
	[ -f "$f" ] || return 0
	awk -v n="$3" -v f="$4" '$1 == n { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$f" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%s %s %s %d\n",
			NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR], NR }'
}
echo
printf 'routing (ours on A, R, B): lst A -> B through R against A -> R on one link, median of %s rounds [min-max]\n' "$rounds"
printf '%-24s %-7s %-22s %-22s %8s\n' lst unit direct routed routed/direct
for name in brw-write-1M-x8 brw-read-1M-x8 ping-x8; do
	case $name in
	brw-write-*) field=w_mbit unit=Mbit/s ;;
	brw-read-*) field=r_mbit unit=Mbit/s ;;
	ping-*) field=w_rpc unit=RPC/s ;;
	esac
	read -r dm dmin dmax _ < <(run_stats bench-routed g0 "direct-$name" "$field")
	read -r rm rmin rmax _ < <(run_stats bench-routed g0 "routed-$name" "$field")
	rd=$(ratio "$rm" "$dm")
	printf '%-24s %-7s %-22s %-22s %8s\n' "${name//-/ }" "$unit" "$(cell "$dm" "$dmin" "$dmax")" \
		"$(cell "$rm" "$rmin" "$rmax")" "$rd"
	echo "routed: lst ${name//-/ } (base: direct),$rm,$unit,$dm,$rd,$rmin,$rmax,,,,,,,,,,,,,," >>"$csv"
done
read -r dm dmin dmax _ < <(run_stats bench-routed g0 ip-direct mbit_per_sec)
read -r rm rmin rmax _ < <(run_stats bench-routed g0 ip-routed mbit_per_sec)
rd=$(ratio "$rm" "$dm")
printf '%-24s %-7s %-22s %-22s %8s\n' "IP forwarding (iperf3)" Mbit/s "$(cell "$dm" "$dmin" "$dmax")" \
	"$(cell "$rm" "$rmin" "$rmax")" "$rd"
echo "routed: IP forwarding, iperf3 (base: direct),$rm,Mbit/s,$dm,$rd,$rmin,$rmax,,,,,,,,,,,,,," >>"$csv"
read -r cm cmin cmax _ < <(run_stats bench-routed g1 router-cpu busy_pct)
echo "router CPU busy while routing: $(cell "$cm" "$cmin" "$cmax") % of its CPUs"

# --- Multi-Rail: two rails against one --------------------------------------
echo
printf 'Multi-Rail (ours on both, tcp0 + tcp1): lst over two rails against link 1 cut, median of %s rounds [min-max]\n' "$rounds"
printf '%-24s %-7s %-22s %-22s %8s %s\n' lst unit one-rail two-rail two/one "messages rail0:rail1"
for name in brw-write-1M-x8 brw-read-1M-x8; do
	case $name in
	brw-write-*) field=w_mbit ;;
	brw-read-*) field=r_mbit ;;
	esac
	read -r om omin omax _ < <(run_stats bench-multirail g0 "one-rail-$name" "$field")
	read -r tm tmin tmax _ < <(run_stats bench-multirail g0 "two-rail-$name" "$field")
	read -r s0 _ < <(run_stats bench-multirail g0 "spread-$name" rail0)
	read -r s1 _ < <(run_stats bench-multirail g0 "spread-$name" rail1)
	tr=$(ratio "$tm" "$om")
	printf '%-24s %-7s %-22s %-22s %8s %s\n' "${name//-/ }" Mbit/s "$(cell "$om" "$omin" "$omax")" \
		"$(cell "$tm" "$tmin" "$tmax")" "$tr" "${s0:-n/a}:${s1:-n/a}"
	echo "multirail: lst ${name//-/ } two rails (base: one),$tm,Mbit/s,$om,$tr,$tmin,$tmax,,,,,,,,,,,,,," >>"$csv"
done
read -r om omin omax _ < <(run_stats bench-multirail g0 ip-one-link mbit_per_sec)
read -r tm tmin tmax _ < <(run_stats bench-multirail g0 ip-two-links mbit_per_sec)
tr=$(ratio "$tm" "$om")
printf '%-24s %-7s %-22s %-22s %8s\n' "TCP, iperf3 (no LNet)" Mbit/s "$(cell "$om" "$omin" "$omax")" \
	"$(cell "$tm" "$tmin" "$tmax")" "$tr"
echo "multirail: TCP iperf3 two links (base: one),$tm,Mbit/s,$om,$tr,$tmin,$tmax,,,,,,,,,,,,,," >>"$csv"
echo "link: tcp ${tcpbest:-n/a} Mbit/s (best iperf3), o2ib ${ibbest:-n/a} Mbit/s (ib_write_bw)"
echo "csv: $csv (each round: $rcsv)"

# The chart: one bar per figure, its ratio to its baseline; for the lst
# rows ours (middle), Lustre (left) and mixed (right).
png=$out/results.png
if gnuplot -e "set terminal pngcairo size 1600,1000 noenhanced font ',9'; set output '$png';
	set datafile separator ','; set style fill solid 0.6; set boxwidth 0.27;
	set title 'LNet benchmarks: ratio to the baseline measured in the same run';
	set ylabel 'ratio'; set xtics rotate by -60 left; set grid ytics; set yrange [0:*];
	set key top right; set bmargin 24; set rmargin 14;
	r(c) = (strcol(c) eq '' || strcol(c) eq 'n/a') ? NaN : column(c);
	plot '$csv' every ::1 using (\$0 - 0.28):(r(16)) with boxes title 'lst: Lustre-Lustre',
	'' every ::1 using 0:(r(5)):xtic(1) with boxes title 'ours (lst: ours-ours)',
	'' every ::1 using (\$0 + 0.28):(r(17)) with boxes title 'lst: mixed',
	1 with lines dt 2 notitle" 2>"$out/gnuplot.log"; then
	echo "chart: $png"
else
	echo "chart: gnuplot failed, see $out/gnuplot.log" >&2
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench: failed runs (figures n/a): ${failed[*]}; logs in build/vmtest/<suite>" >&2
	exit 1
fi
