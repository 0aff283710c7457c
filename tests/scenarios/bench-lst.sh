#!/bin/bash
# lnet_selftest bench for one pair of nodes on one link (stock kernel): g0 is
# the lst console and the client, g1 the server. Each node runs one kind of
# LNet: "ours" (this project's modules and lst) or "lustre" (the reference
# node, Lustre 2.17's modules and lst: scripts/build-lustre.sh, passed as
# lnet-vmtest --env LUSTRE_DIR=<dir>). scripts/bench.sh runs it for the
# pairs lustre-lustre, ours-ours and ours-lustre (mixed) on tcp and o2ib.
#
# Rows: brw write and read of 4 KiB and 1 MiB with 1 and 8 in flight, and a
# ping test with 8 in flight (BENCH_ROWS, a regex, keeps only the rows it
# matches: BENCH_ROWS='ping|1M-x8'). Each row is one lst batch, run ROUNDS times
# (rounds outermost, so the rounds of a row are spread over the run); each
# time it runs for 1 s to settle, then `lst stat --count 1 --delay
# BENCH_SECS clients` measures the client's LNet rates and bandwidth (the
# text table, which both consoles print), then it stops. After each run
# `lst show_error clients servers` must show no new error.
#
# g0 writes one line per row and round to /mnt/bench.txt:
#   lst-<row> net=<net> pair=<g0 kind>-<g1 kind> round=<n> r_rpc=.. w_rpc=..
#     r_mib=.. w_mib=.. r_mbit=.. w_mbit=.. errors=..
# (rates in RPC/s, bandwidth in MiB/s and Mbit/s, errors: new error counts).
#
# Args: NET (tcp | o2ib: soft-RoCE rxe0 on eth0), g0's kind, g1's kind
# (ours | lustre), ROUNDS (default BENCH_ROUNDS, else 3).
# Run: lnet-vmtest --suite bench-lst --kernel stock --guests 2 --link 0-1 \
#	--env LUSTRE_DIR=$(scripts/build-lustre.sh | tail -n1) --env BENCH_SECS=5 \
#	--script $LNET_TOP/tests/scenarios/bench-lst.sh --arg tcp --arg ours --arg lustre
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

net=${1:-tcp}
k0=${2:-ours}
k1=${3:-ours}
rounds=${4:-${BENCH_ROUNDS:-3}}
secs=${BENCH_SECS:-5}
pair=$k0-$k1
out=/mnt/bench.txt
peer=$(t_peer_addrs | head -n1)@$net
me=$(ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1 | head -n1)@$net
if [ "$GUEST_INDEX" = 0 ]; then kind=$k0; else kind=$k1; fi
t_log "bench-lst: $pair on $net, this guest ($me) runs $kind, $rounds rounds of $secs s"
for k in "$k0" "$k1"; do
	case $k in
	ours | lustre) ;;
	*)
		t_fail "arguments" "kind '$k': ours or lustre"
		exit 1
		;;
	esac
done
t_bench_args "$rounds" "$secs" || exit 1
WAIT=$((300 + rounds * 9 * (secs + 10)))	# g1 waits for g0's whole run

t_flag_serve
if [ "$kind" = ours ] && [ ! -x "$OURS_LST" ]; then
	t_fail "ours: lst built" "$OURS_LST missing (make tools)"
	t_abort
fi
t_node_load "$kind" "$net" || t_abort

if [ "$GUEST_INDEX" = 1 ]; then
	t_flag_set loaded
	t_flag_wait finished "$WAIT"
	t_node_unload ""
	t_flag_bye 120
	exit 0
fi

# --- g0: the console and the client ------------------------------------------
: >"$out"
t_flag_wait loaded 600 || t_abort
t_retry "$kind: lnetctl ping $peer ($k1)" 120 node_lnetctl ping --timeout 5 "$peer"

# lst_errors: "COUNTERS LOST" from show_error's output on stdin: the sum of
# the nodes' error counters (ours: "[Session: N brw errors, N ping errors]
# [RPC: N errors, N dropped, N expired]", Lustre's the same without the
# colon after Session; they count since the session began) and the number
# of error nodes without counters (they did not answer).
lst_errors() {
	awk '/^Total [0-9]+ error nodes/ { nodes += $2; next }
		/brw errors, [0-9]+ ping errors/ {
			counted++
			line = $0
			while (match(line, /[0-9]+ (brw errors|ping errors|errors|dropped|expired)/)) {
				split(substr(line, RSTART, RLENGTH), w, " ")
				sum += w[1]
				line = substr(line, RSTART + RLENGTH)
			}
		}
		END { print sum + 0, (nodes > counted ? nodes - counted : 0) }'
}

# batch_idle BATCH: no unit of BATCH runs (ours: "Batch is idle (N nodes)",
# Lustre: "BATCH [0] is stopped").
batch_idle() {
	node_lst query "$1" 2>&1 | grep -qE 'Batch is idle|is stopped$'
}

export LST_SESSION=$$
rows=()
tests=()
for rw in write read; do
	for size in 4k 1M; do
		for c in 1 8; do
			rows+=("brw-$rw-$size-x$c")
			tests+=("--concurrency $c brw $rw size=$size")
		done
	done
done
rows+=(ping-x8)
tests+=("--concurrency 8 ping")
# BENCH_ROWS (an extended regex): only the rows it matches, for quick runs
if [ -n "${BENCH_ROWS:-}" ]; then
	for i in "${!rows[@]}"; do
		[[ ${rows[i]} =~ $BENCH_ROWS ]] || unset 'rows[i]' 'tests[i]'
	done
	rows=("${rows[@]}") tests=("${tests[@]}")
	[ ${#rows[@]} -gt 0 ] || { t_fail "BENCH_ROWS" "'$BENCH_ROWS' matches no row"; t_abort; }
fi

t_check "$kind console: new_session" node_lst new_session --timeout 600 "bench_$pair" || t_abort
t_check "$kind console: add_group servers $peer" node_lst add_group servers "$peer" || t_abort
t_check "$kind console: add_group clients $me" node_lst add_group clients "$me" || t_abort
for i in "${!rows[@]}"; do
	t_check "$kind console: add_batch ${rows[i]}" node_lst add_batch "b$i" || continue
	# shellcheck disable=SC2086	# the test's words
	t_check "$kind console: add_test ${rows[i]}" \
		node_lst add_test --batch "b$i" --from clients --to servers ${tests[i]}
done

errs=0	# the error counters so far
for ((r = 1; r <= rounds; r++)); do
	for i in "${!rows[@]}"; do
		name="$pair $net lst ${rows[i]} round $r"
		if ! node_lst run "b$i" >/tmp/run 2>&1; then
			t_fail "$name" "run: $(tail -n1 /tmp/run)"
			continue
		fi
		sleep 1
		node_lst stat --count 1 --delay "$secs" clients >/tmp/stat 2>&1
		node_lst stop "b$i" >/tmp/stop 2>&1 || t_fail "$name: stop" "$(tail -n1 /tmp/stop)"
		t_retry "$name: stopped" 60 batch_idle "b$i" >/dev/null
		node_lst show_error clients servers >/tmp/errors 2>&1
		read -r now lost <<<"$(lst_errors </tmp/errors)"	# (no /dev/fd in a guest)
		new=$((now - errs + lost))
		errs=$now
		# one total for each group, or show_error itself failed
		totals=$(grep -cE '^Total [0-9]+ error nodes in (clients|servers)$' /tmp/errors)
		rates=$(t_lst_rates </tmp/stat)
		echo "lst ${rows[i]} round $r: $rates (errors $new)"
		if grep -qE 'did not answer|Failed to stat' /tmp/stat || [[ $rates == *"= "* ]] ||
			[[ $rates == *= ]]; then
			cat /tmp/stat
			t_fail "$name: lst stat" "$(tail -n1 /tmp/stat)"
			continue
		fi
		t_lst_line "lst-${rows[i]} net=$net pair=$pair round=$r" "$new" \
			<<<"$rates" >>"$out"
		if ((new == 0 && totals == 2)); then
			t_ok "$name"
		else
			cat /tmp/errors
			t_fail "$name" "show_error: $new new errors ($lost nodes did not answer," \
				"$totals of 2 group totals)"
		fi
	done
done
node_lst show_error clients servers 2>&1
t_check "$kind console: end_session" node_lst end_session

cat "$out"
t_flag_set finished
t_node_unload ""
t_flag_bye 120
