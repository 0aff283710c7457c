# Sourced by multirail.sh and multirail-o2ib.sh (not a scenario itself):
# what both read off lnetctl and lst. Expects LNETCTL, OUT and OURS_LST
# (and MY1, PEER1: our NID and the peer's on rail 1).
# shellcheck shell=bash

# mr_nids PRIMARY: the NIDs `lnetctl peer show` lists under PRIMARY
mr_nids() {
	"$LNETCTL" peer show >"$OUT" 2>&1 || return 1
	awk -v p="$1" '
		/primary nid:/ { cur = $NF }
		/- nid:/ && cur == p { print $NF }' "$OUT"
}

# peer_has PRIMARY NID...: PRIMARY's entry lists exactly these NIDs
peer_has() {
	local p=$1 got want
	shift
	got=$(mr_nids "$p" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "peer $p: [$got], want [$want]"; return 1; }
}

# ni_sends NID: the send_count of our NI NID
ni_sends() {
	"$LNETCTL" net show -v >"$OUT" 2>&1 || return 1
	awk -v n="$1" '
		/- nid:/ { cur = $NF }
		/send_count:/ && cur == n { print $NF; exit }' "$OUT"
}

# lst_failures: from lst show_error's output on stdin, the test RPCs that
# failed in this session (brw and ping errors) and the RPCs that failed or
# expired since the node's lnet_selftest loaded
lst_failures() {
	sed -n 's/.*\[Session: \([0-9]*\) brw errors, \([0-9]*\) ping errors\] \[RPC: \([0-9]*\) errors, [0-9]* dropped, \([0-9]*\) expired\].*/\1 \2 \3 \4/p' |
		awk '{ n += $1 + $2 + $3 + $4 } END { print n + 0 }'
}

# lnet_stat KEY: a counter of lnetctl stats show
lnet_stat() {
	"$LNETCTL" stats show | sed -n "s/^ *$1: \([0-9]*\)\$/\1/p" | head -n1
}

# mr_cut_start SERVER CLIENT LOOPS: a new lst session "mrcut" whose batch
# "cut" runs brw write 1 MiB x8 from CLIENT to SERVER, LOOPS loops; sets
# cut_failed0 (lst_failures before it) and checks the batch is busy
mr_cut_start() {
	"$OURS_LST" end_session >/dev/null 2>&1
	"$OURS_LST" new_session --timeout 300 mrcut >/dev/null
	t_lst_ok "add_group servers $1 (cut)" add_group servers "$1"
	t_lst_ok "add_group clients $2 (cut)" add_group clients "$2"
	# shellcheck disable=SC2034 # the caller's
	cut_failed0=$("$OURS_LST" show_error clients servers 2>&1 | lst_failures)
	t_lst_ok "add_batch cut" add_batch cut
	t_lst_ok "cut: brw write 1M x8 ($3 loops)" add_test --batch cut \
		--loop "$3" --concurrency 8 --from clients --to servers \
		brw write size=1M check=full
	t_lst_ok "run cut" run cut
	sleep 5
	t_check "cut: batch busy when rail 1 goes" \
		sh -c "! '$OURS_LST' query cut 2>&1 | grep -q 'Batch is idle'"
}

# mr_health NID: the health value of our NI or peer NI NID
mr_health() {
	{
		"$LNETCTL" net show -v
		"$LNETCTL" peer show -v
	} >"$OUT" 2>&1 || return 1
	awk -v n="$1" '
		/- nid:/ { cur = $NF }
		/health value:/ && cur == n { print $NF; exit }' "$OUT"
}

# rail1_whole: our NI MY1 and the peer NI PEER1 are back at health 1000
rail1_whole() {
	[ "$(mr_health "$MY1")" = 1000 ] && [ "$(mr_health "$PEER1")" = 1000 ]
}
