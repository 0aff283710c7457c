#!/bin/bash
# Fault injection (lnetctl fault, LNET_FAULT) between two guests on tcp0
# (ksocklnd, eth0). Guest 1 (g1) installs receive-side rules for the GETs
# of guest 0's (g0) LNet pings, g0 pings and measures:
#   - lctl net_drop_add (Lustre's verbs, the same rule table): the rule is
#     in lnetctl's list and lctl net_drop_list, the ping times out and the
#     rule counts it, lctl net_drop_del removes it;
#   - drop --rate 1 --message GET: the ping times out, the rule counts the
#     drop; del --all: pings work again;
#   - drop --rate 2 --seed S: exactly 5 of 10 pings fail, and after reset
#     the same 5 (the pattern is printed);
#   - delay --latency 3: the ping answers after >= 3 s, "held: 1" while it
#     waits; a rule deleted while it holds a ping (latency 20) lets the
#     ping through at once;
# then on g0 alone: a send-side rule (--health_error local_error) fails
# the ping at once and counts it, and costs the NI health (net show -v,
# stats show) until pings succeed again; an NI set low by hand is on the
# recovery queue (debug recovery --local, and named on the console) while a delay rule holds its
# recovery ping, and recovery pings of its own NID bring it back to 1000
# once the rule goes; a peer's health set by hand (peer set --health)
# rises with each REPLY received from it, stays off the recovery queue
# when recovery_limit has passed since it was last heard from, and is
# brought back to 1000 by recovery pings when it is not; with a
# second NI (tcp1 on eth0), sends failed with local_dropped are resent:
# all tries failing ends the ping after retry_count (2) resends, one try
# in two failing (--rate 2) loses no ping; a rule dropping g1's REPLYs makes the
# ping (--timeout 60) fail at transaction_timeout (3 s: response
# tracking), counted in stats, and costs g1 health until recovery pings
# bring it back; bad input and an unprivileged user are
# refused. Both guests finally unload LNet with rules still installed, g1
# with a message held.
# (No recovery ping can shift the rate sequences: those run while every
# NI and peer is at full health, so nothing is on a recovery queue.)
#
# Run (debug kernel; make modules-debug && make tools first):
#   lnet-vmtest --suite fault-inject --kernel debug --guests 2 --timeout 900 \
#	--script $LNET_TOP/tests/scenarios/fault-inject.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
LCTL=$LNET_TOP/build/tools/lctl/lctl
LNET_KO=$LNET_MODDIR/lnet/lnet.ko
SOCK_KO=$LNET_MODDIR/klnds/socklnd/ksocklnd.ko
OUT=/tmp/fi.out
ERR=/tmp/fi.err
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
SEED=12345
WAIT=300	# s: the longest a guest waits for the other's next step

peer=$(t_peer_addrs | head -n1)
me=$(t_addr_on eth0)
my_nid=$me@tcp
peer_nid=$peer@tcp

# lc_refused NAME TEXT ARGS...: lnetctl fails with TEXT on stderr.
lc_refused() {
	local name=$1 text=$2
	shift 2
	if lc "$@"; then
		t_fail "$name" "lnetctl $* succeeded"
	elif ! grep -qF -- "$text" "$ERR"; then
		t_fail "$name" "no '$text' in: $(tr '\n' ' ' <"$ERR")"
	else
		t_ok "$name"
	fi
}

# lctl_has NAME REGEX ARGS...: lctl ARGS prints a line matching REGEX
# (grep -E) on standard output.
lctl_has() {
	local name=$1 re=$2 rc
	shift 2
	"$LCTL" "$@" >"$OUT" 2>"$ERR"
	rc=$?
	echo "\$ lctl $* -> $rc"
	cat "$OUT" "$ERR"
	if grep -qE -- "$re" "$OUT"; then
		t_ok "$name"
	else
		t_fail "$name" "exit $rc, no line like '$re' in: $(cat "$OUT" "$ERR" | tr '\n' ' ')"
	fi
}

# stat_of KEY: the value of "KEY: N" in the last show ($OUT; one rule).
stat_of() { sed -n "s/^ *$1: \([0-9]*\)\$/\1/p" "$OUT" | head -n1; }

# want_stat NAME KEY OP N ARGS...: lnetctl ARGS (a show) succeeds and its
# KEY compares to N with test's OP.
want_stat() {
	local name=$1 key=$2 op=$3 n=$4 v
	shift 4
	if ! lc "$@"; then
		t_fail "$name" "lnetctl $* failed: $(grep -m1 descr "$ERR")"
		return 1
	fi
	v=$(stat_of "$key")
	if [ -n "$v" ] && test "$v" "$op" "$n"; then
		t_ok "$name"
	else
		t_fail "$name" "$key is '$v', want $op $n"
	fi
}

# wait_held N SECONDS: poll "fault delay show" until it says held: N.
wait_held() {
	local n=$1 end=$((SECONDS + $2))
	while ((SECONDS < end)); do
		"$LNETCTL" fault delay show >"$OUT" 2>"$ERR"
		[ "$(stat_of held)" = "$n" ] && return 0
		sleep 0.2
	done
	cat "$OUT" "$ERR"
	return 1
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# timed_ping TIMEOUT: LNet ping of the peer; PING_RC, PING_MS (elapsed).
timed_ping() {
	local t0
	t0=$(now_ms)
	"$LNETCTL" ping "$peer_nid" --timeout "$1" >/tmp/ping.out 2>&1
	PING_RC=$?
	PING_MS=$(($(now_ms) - t0))
	echo "ping $peer_nid --timeout $1: exit $PING_RC after $PING_MS ms"
	[ $PING_RC = 0 ] || grep descr /tmp/ping.out
}

# ping_pattern: 10 pings (1 s timeout); "o" answered, "x" failed.
ping_pattern() {
	local i p=
	for ((i = 0; i < 10; i++)); do
		if "$LNETCTL" ping "$peer_nid" --timeout 1 >/dev/null 2>&1; then
			p+=o
		else
			p+=x
		fi
	done
	echo "$p"
}

flag_wait() { t_flag_wait "$1" "${2:-$WAIT}" || t_abort; }

if [ ! -f "$SOCK_KO" ] || [ -z "$me" ] || [ -z "$peer" ]; then
	t_fail "ksocklnd.ko, eth0 and a peer" "ko: $SOCK_KO, eth0: '$me', peer: '$peer'"
	exit 1
fi
t_flag_serve
t_insmod "load lnet" "$LNET_KO" || t_abort
t_insmod "load ksocklnd" "$SOCK_KO" || t_abort
lc_ok "configure" lnet configure || t_abort
lc_ok "net add tcp0 on eth0 ($my_nid)" net add --net tcp0 --if eth0 || t_abort
lc_ok "no drop rule yet" fault drop show
t_check "empty drop rule list" grep -qx 'fault drop: \[\]' "$OUT"

# ---- guest 1: installs the rules g0's pings meet -----------------------------
if [ "$GUEST_INDEX" != 0 ]; then
	t_flag_set up
	flag_wait ready

	# lctl's verbs on the same table: drop every GET from g0
	g0_re=${peer_nid//./\\.}
	lctl_has "lctl net_drop_add: GETs from g0" "^Added drop rule $g0_re->\\* \\(1/1\\)\$" \
		net_drop_add -s "$peer_nid" -d '*' -r 1 -m GET
	lc_ok "lnetctl fault drop show after lctl net_drop_add" fault drop show
	t_check "... lists lctl's rule" grep -qE "^[ -]*source: $g0_re\$" "$OUT"
	lctl_has "lctl net_drop_list lists it" "^$g0_re->\\* \\(1/1 \\| 0\\) ptl 0, msg 4, 0/0," \
		net_drop_list
	t_flag_set lctl_drop
	flag_wait lctl_pinged
	lctl_has "lctl net_drop_list counted the dropped GET" \
		"^$g0_re->\\* .* [1-9][0-9]*/[1-9][0-9]*, PUT 0, ACK 0, GET [1-9]" net_drop_list
	lctl_has "lctl net_drop_del -s g0" "^Removed 1 drop rules\$" net_drop_del -s "$peer_nid"
	lc_ok "drop show after lctl net_drop_del" fault drop show
	t_check "no drop rule left after lctl net_drop_del" grep -qx 'fault drop: \[\]' "$OUT"
	t_flag_set lctl_del
	flag_wait lctl_ok

	# drop every GET from g0
	lc_ok "drop add: GETs from g0, rate 1" fault drop add --source "$peer_nid" \
		--dest '*' --rate 1 --message GET || t_abort
	t_check "add printed the kernel's seed" grep -qE '^ +seed: 0x[0-9a-f]+$' "$OUT"
	t_flag_set drop1
	flag_wait pinged1
	want_stat "drop rule counted the dropped GET" dropped -ge 1 fault drop show
	t_check "... as a GET" test "$(stat_of get)" -ge 1
	t_check "... and matched it" test "$(stat_of matched)" -ge 1
	lc_ok "drop del --all" fault drop del --all
	t_check "del --all deleted 1 rule" grep -q '^ *deleted: 1$' "$OUT"
	lc_ok "drop show after del" fault drop show
	t_check "no drop rule left" grep -qx 'fault drop: \[\]' "$OUT"
	t_flag_set del1
	flag_wait ok1

	# every second GET, from a fixed seed
	lc_ok "drop add: rate 2, seed $SEED" fault drop add --source "$peer_nid" \
		--dest '*' --rate 2 --message GET --seed "$SEED" || t_abort
	t_check "add printed the given seed" grep -q "^ *seed: $(printf 0x%x $SEED)\$" "$OUT"
	t_flag_set drop2
	flag_wait pattern1
	want_stat "rate 2: 5 of 10 GETs dropped" dropped = 5 fault drop show
	t_check "rate 2: 10 GETs matched" test "$(stat_of matched)" = 10
	lc_ok "drop reset" fault drop reset
	want_stat "reset zeroed the statistics" dropped = 0 fault drop show
	t_check "reset kept the seed" grep -q "^ *seed: $(printf 0x%x $SEED)\$" "$OUT"
	t_flag_set reset2
	flag_wait pattern2
	want_stat "rate 2 after reset: 5 of 10 dropped again" dropped = 5 fault drop show
	lc_ok "drop del (source and dest)" fault drop del --source "$peer_nid" --dest '*'
	t_check "del deleted the rule" grep -q '^ *deleted: 1$' "$OUT"

	# hold GETs from g0 for 3 s
	lc_ok "delay add: GETs from g0, latency 3" fault delay add --source "$peer_nid" \
		--dest '*' --rate 1 --latency 3 --message GET || t_abort
	t_flag_set delay1
	t_check "held: 1 while g0's ping waits" wait_held 1 60
	flag_wait delayed1
	want_stat "delay rule counted the delayed GET" delayed = 1 fault delay show
	t_check "nothing held any more" test "$(stat_of held)" = 0
	lc_ok "delay del --all" fault delay del --all

	# a 20 s hold, cut short by deleting the rule
	lc_ok "delay add: latency 20" fault delay add --source "$peer_nid" --dest '*' \
		--rate 1 --latency 20 --message GET || t_abort
	t_flag_set delay2
	t_check "held: 1 (latency 20)" wait_held 1 60
	lc_ok "delay del while a ping is held" fault delay del --source "$peer_nid" --dest '*'
	t_check "del deleted the holding rule" grep -q '^ *deleted: 1$' "$OUT"
	flag_wait done2 600

	# unload with rules installed and a GET held
	lc_ok "delay add: latency 60 (held at unload)" fault delay add \
		--source "$peer_nid" --dest '*' --rate 1 --latency 60 --message GET
	lc_ok "drop add (installed at unload)" fault drop add --source 192.0.2.99@tcp \
		--dest '*' --rate 1
	t_flag_set delay3
	t_check "held: 1 before unload" wait_held 1 60
	lc_ok "unconfigure with rules and a held GET" lnet unconfigure
	t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet with rules installed" rmmod lnet
	t_flag_set unloaded
	t_flag_bye 300
	exit 0
fi

# ---- guest 0: pings, measures, then its own send-side rule ---------------------
flag_wait up
t_retry "LNet ping of g1 ($peer_nid)" 90 "$LNETCTL" ping "$peer_nid" --timeout 2
t_flag_set ready

flag_wait lctl_drop
timed_ping 3
t_check "ping fails while g1's lctl rule drops its GETs" test "$PING_RC" != 0
t_flag_set lctl_pinged
flag_wait lctl_del
t_retry "ping works again after lctl net_drop_del" 30 "$LNETCTL" ping "$peer_nid" --timeout 2
t_flag_set lctl_ok

flag_wait drop1
timed_ping 3
t_check "ping fails while g1 drops its GETs" test "$PING_RC" != 0
t_check "... by timing out (>= 2.5 s)" test "$PING_MS" -ge 2500
t_flag_set pinged1
flag_wait del1
t_retry "ping works again after del --all" 30 "$LNETCTL" ping "$peer_nid" --timeout 2
t_flag_set ok1

flag_wait drop2
p1=$(ping_pattern)
t_log "rate 2, seed $SEED: pattern $p1 (x: dropped)"
t_check "rate 2: exactly 5 of 10 pings fail ($p1)" test "$(tr -cd x <<<"$p1" | wc -c)" = 5
t_flag_set pattern1
flag_wait reset2
p2=$(ping_pattern)
t_log "rate 2, seed $SEED after reset: pattern $p2"
t_check "same seed after reset: the same pings fail ($p1 = $p2)" test "$p1" = "$p2"
t_flag_set pattern2

flag_wait delay1
timed_ping 15
t_check "ping succeeds through a 3 s delay rule" test "$PING_RC" = 0
t_check "... and takes >= 3 s ($PING_MS ms)" test "$PING_MS" -ge 3000
t_flag_set delayed1

flag_wait delay2
timed_ping 40
t_check "ping held by a 20 s delay rule succeeds once the rule is deleted" test "$PING_RC" = 0
t_check "... well before the 20 s latency ($PING_MS ms)" test "$PING_MS" -lt 12000

# send side: the ping's GET fails in the LND before it leaves
want_stat "NI health 1000 before any failure" "health value" -eq 1000 \
	net show -v --net tcp
lc stats show >/dev/null
errors_before=$(stat_of local_error_count)
# the NI's recovery pings (GETs of its own NID) are held from here on, so
# that no health comes back behind the values measured below
lc_ok "delay add: recovery pings of the NI held" fault delay add \
	--source "$my_nid" --dest "$my_nid" --rate 1 --latency 200
lc_ok "drop add: sends to g1 fail with local_error" fault drop add --source "$my_nid" \
	--dest "$peer_nid" --rate 1 --health_error local_error
timed_ping 10
t_check "ping fails under a health_error rule" test "$PING_RC" != 0
t_check "... at once, not by a timeout ($PING_MS ms)" test "$PING_MS" -lt 3000
want_stat "health_error rule counted the failed send" dropped -ge 1 fault drop show
t_check "... as a GET" test "$(stat_of get)" -ge 1
t_check "show names the health error" grep -q '^ *- local_error$' "$OUT"
want_stat "the local error cost the NI one step of health (100)" \
	"health value" -eq 900 net show -v --net tcp
t_check "... and net show -v counts it" test "$(stat_of error)" = 1
want_stat "stats show counts the local error" local_error_count -eq \
	"$((${errors_before:-0} + 1))" stats show
lc_ok "drop del --all (g0)" fault drop del --all
t_retry "ping works again after the health_error rule" 30 \
	"$LNETCTL" ping "$peer_nid" --timeout 2
want_stat "a successful ping gave the NI its health back" "health value" \
	-eq 1000 net show -v --net tcp
lc_ok "net set --health 200 (by hand)" net set --nid "$my_nid" --health 200
want_stat "... net show -v says 200" "health value" -eq 200 net show -v --net tcp
lc_ok "debug recovery --local" debug recovery --local
t_check "... lists the NI" grep -qx "    - nid: $my_nid" "$OUT"
t_check "... its recovery ping held by the delay rule" \
	grep -qx "      next ping: pending" "$OUT"
t_retry "... and the console names it" 5 \
	sh -c "dmesg | grep -qF 'local NIs in recovery (showing 1): $my_nid'"
lc_ok "set max_recovery_ping_interval 2" set max_recovery_ping_interval 2
lc_ok "delay del --all: the held recovery ping goes" fault delay del --all
t_retry "recovery pings of its own NID bring the NI back to 1000" 60 \
	sh -c "'$LNETCTL' net show -v --net tcp | grep -q 'health value: 1000\$'"
t_retry "... and then it leaves the recovery queue" 30 \
	sh -c "'$LNETCTL' debug recovery --local | grep -qx 'local NI recovery: \[\]'"
lc_ok "set max_recovery_ping_interval 900" set max_recovery_ping_interval 900
lc_ok "net set --all --health 1000" net set --all --health 1000
want_stat "... net show -v says 1000" "health value" -eq 1000 net show -v --net tcp

# a peer's health: set by hand, raised by what is received from it; not
# recovered once silent for longer than recovery_limit (1 s here)
lc_ok "set recovery_limit 1" set recovery_limit 1
sleep 2
lc_ok "peer set --health 300" peer set --nid "$peer_nid" --health 300
lc_ok "debug recovery --peer" debug recovery --peer
t_check "... silent for 2 s: not queued (recovery_limit 1)" \
	grep -qx 'peer NI recovery: \[\]' "$OUT"
want_stat "peer show -v says 300" "health value" -eq 300 peer show -v --nid "$peer_nid"
timed_ping 10
t_check "ping of the unhealthy peer works" test "$PING_RC" = 0
want_stat "its REPLY raised the peer one step (400)" "health value" -eq 400 \
	peer show -v --nid "$peer_nid"
lc_refused "peer set of an unknown peer: ENOENT" "cannot set the health of" \
	peer set --nid 10.99.99.1@tcp --health 5
lc_refused "net set --health 1001: out of range" "health" \
	net set --all --health 1001
lc_ok "set recovery_limit 0 (forever)" set recovery_limit 0
lc_ok "peer set --health 0" peer set --nid "$peer_nid" --health 0
lc_ok "debug recovery --peer" debug recovery --peer
t_check "... lists the peer" grep -qx "    - nid: $peer_nid" "$OUT"
t_retry "... and the console names it" 5 \
	sh -c "dmesg | grep -qF 'peer NIs in recovery (showing 1): $peer_nid'"
t_retry "recovery pings bring the peer back to 1000" 60 \
	sh -c "'$LNETCTL' peer show -v --nid '$peer_nid' | grep -q 'health value: 1000\$'"
t_retry "... and then it leaves the recovery queue" 30 \
	sh -c "'$LNETCTL' debug recovery --peer | grep -qx 'peer NI recovery: \[\]'"
lc_ok "peer set --all --health 1000" peer set --all --health 1000
want_stat "... peer show -v says 1000" "health value" -eq 1000 \
	peer show -v --nid "$peer_nid"

# resend: a local failure is tried again when there is another NI
lc_ok "net add tcp1 on eth0 (a second NI allows local resend)" \
	net add --net tcp1 --if eth0
lc stats show >/dev/null
resent0=$(stat_of resend_count)
failed0=$(stat_of failed_resends)
ok0=$(stat_of successful_resends)
lc_ok "drop add: every send to g1 fails with local_dropped" fault drop add \
	--source "$my_nid" --dest "$peer_nid" --rate 1 --health_error local_dropped
timed_ping 10
t_check "ping fails when every try fails" test "$PING_RC" != 0
want_stat "... after 3 tries (the rule failed 3 sends)" dropped -eq 3 fault drop show
want_stat "... 2 of them resends" resend_count -eq "$((${resent0:-0} + 2))" stats show
t_check "... counted as one failed resend" \
	test "$(stat_of failed_resends)" = "$((${failed0:-0} + 1))"
lc_ok "drop del --all (every try)" fault drop del --all
lc_ok "drop add: one send in two fails with local_dropped" fault drop add \
	--source "$my_nid" --dest "$peer_nid" --rate 2 --health_error local_dropped
lost=0
for ((i = 0; i < 6; i++)); do
	"$LNETCTL" ping "$peer_nid" --timeout 5 >/dev/null 2>&1 || lost=$((lost + 1))
done
t_check "6 pings through a rate-2 local_dropped rule: none lost ($lost)" test "$lost" = 0
want_stat "... the rule failed some sends" dropped -ge 2 fault drop show
want_stat "... each resent and then through" successful_resends -ge \
	"$((${ok0:-0} + 2))" stats show
lc_ok "drop del --all (one in two)" fault drop del --all
lc_ok "net del tcp1" net del --net tcp1

# response tracking: a REPLY that never comes is timed out by LNet at
# transaction_timeout, whatever the waiter's own timeout
lc_ok "set transaction_timeout 3" set transaction_timeout 3
lc stats show >/dev/null
before=$(stat_of response_timeout_count)
lc_ok "drop add: g1's REPLYs dropped on arrival" fault drop add \
	--source "$peer_nid" --dest "$my_nid" --rate 1 --message REPLY
timed_ping 60
t_check "ping fails when its REPLY is dropped" test "$PING_RC" != 0
t_check "... after transaction_timeout, not the ping's 60 s ($PING_MS ms)" \
	test "$PING_MS" -lt 15000
t_check "... and not before it ($PING_MS ms)" test "$PING_MS" -ge 2500
want_stat "stats: the missing REPLY counted as a response timeout" \
	response_timeout_count -gt "${before:-0}" stats show
want_stat "the peer that owed it lost health (one NI or not)" \
	"health value" -lt 1000 peer show -v --nid "$peer_nid"
lc_ok "debug recovery --peer" debug recovery --peer
t_check "... and is on the recovery queue" grep -qx "    - nid: $peer_nid" "$OUT"
lc_ok "drop del --all (REPLY rule)" fault drop del --all
t_retry "recovery pings bring the peer back to 1000" 60 \
	sh -c "'$LNETCTL' peer show -v --nid '$peer_nid' | grep -q 'health value: 1000\$'"
t_retry "... and then it leaves the recovery queue" 30 \
	sh -c "'$LNETCTL' debug recovery --peer | grep -qx 'peer NI recovery: \[\]'"
want_stat "stats: no response tracked any more" rst_alloc -eq 0 stats show
lc_ok "set transaction_timeout 150" set transaction_timeout 150
t_retry "ping works again after the REPLY rule" 30 \
	"$LNETCTL" ping "$peer_nid" --timeout 2

# bad input: refused by lnetctl, nothing installed
lc_refused "refused: --rate with --interval" "exclude each other" \
	fault drop add --source '*' --dest '*' --rate 2 --interval 5
lc_refused "refused: --random without --interval" "--random needs --interval" \
	fault drop add --source '*' --dest '*' --rate 2 --random
lc_refused "refused: unknown health error" "--health_error 'local_oops': unknown" \
	fault drop add --source '*' --dest '*' --rate 1 --health_error local_oops
lc_refused "refused: --latency 0" "--latency 0: must be" \
	fault delay add --source '*' --dest '*' --rate 1 --latency 0
lc_refused "refused: portal 64" "--portal '64': must be a portal 0..63" \
	fault drop add --source '*' --dest '*' --rate 1 --portal 64
"${NOBODY[@]}" "$LNETCTL" fault drop add --source '*' --dest '*' --rate 1 >"$OUT" 2>"$ERR"
rc=$?
cat "$OUT" "$ERR"
if [ $rc = 0 ]; then
	t_fail "refused: add as nobody" "it succeeded"
elif grep -qE 'errno: -(1|13)$' "$ERR" && grep -q 'run as root' "$ERR"; then
	t_ok "refused: add as nobody (permission error)"
else
	t_fail "refused: add as nobody" "$(tr '\n' ' ' <"$ERR")"
fi
lc_ok "drop show after the refusals" fault drop show
t_check "nothing was installed" grep -qx 'fault drop: \[\]' "$OUT"
t_flag_set done2

# unload with rules installed, while g1 holds our GET
flag_wait delay3
timed_ping 20 &
bg=$!
lc_ok "drop add (installed at unload, g0)" fault drop add --source 192.0.2.99@tcp \
	--dest '*' --rate 1
lc_ok "delay add (installed at unload, g0)" fault delay add --source 192.0.2.99@tcp \
	--dest '*' --rate 1 --latency 5
flag_wait unloaded
wait $bg
lc_ok "unconfigure with rules installed (g0)" lnet unconfigure
t_check "unload ksocklnd (g0)" rmmod ksocklnd
t_check "unload lnet with rules installed (g0)" rmmod lnet
t_flag_bye 120
