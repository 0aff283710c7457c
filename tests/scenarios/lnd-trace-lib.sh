# Tracepoints of the LND under test in lnd.sh (Documentation/tracing.md):
# sourced after scripts/guest/lib.sh.
# shellcheck shell=bash
#
# The LND's events all go to the top trace buffer; its connection events
# also go to an instance of their own, where the traffic that follows
# cannot overwrite them (the top buffer keeps only the newest events).
# Unloading a module resets every trace buffer (kernel/trace: "It is
# safest to reset the ring buffer if the module being unloaded registered
# any events"): lt_trace_save keeps the instance's text before the LND
# goes, and lt_trace_check_closed reads that copy.

LT_T=/sys/kernel/tracing
LT_INST=$LT_T/instances/lnt-conn
LT_SAVED=/tmp/lnd-trace-conn.txt

# lt_events NET: sets LT_SYS (the trace system) and the names of its
# established, tx, rx and closed events; the LND's connection events in
# LT_CONN_EVENTS.
lt_events() {
	case $1 in
	tcp)
		LT_SYS=ksocklnd
		LT_EST=ksocklnd_conn_established
		LT_TX=ksocklnd_tx
		LT_RX=ksocklnd_rx
		LT_CLOSED=ksocklnd_conn_closed
		LT_CONN_EVENTS="$LT_EST $LT_CLOSED"
		;;
	o2ib)
		LT_SYS=ko2iblnd
		LT_EST=ko2iblnd_established
		LT_TX=ko2iblnd_tx_post
		LT_RX=ko2iblnd_rx
		LT_CLOSED=ko2iblnd_destroy
		LT_CONN_EVENTS="ko2iblnd_connect ko2iblnd_accept $LT_EST
			ko2iblnd_conn_failed ko2iblnd_rejected ko2iblnd_reject
			ko2iblnd_close $LT_CLOSED"
		;;
	*)
		return 1
		;;
	esac
}

lt_enable() {	# lt_enable: lt_events run, as the test's one check
	local e
	if ! grep -qs " $LT_T tracefs " /proc/mounts; then
		mount -t tracefs nodev "$LT_T" || return 1
	fi
	[ -d "$LT_T/events/$LT_SYS" ] || {
		echo "no $LT_T/events/$LT_SYS: the module has no tracepoints" >&2
		return 1
	}
	mkdir -p "$LT_INST" || return 1
	for e in $LT_CONN_EVENTS; do
		echo 1 >"$LT_INST/events/$LT_SYS/$e/enable" || return 1
	done
	echo 1 >"$LT_T/events/$LT_SYS/enable"
}

# lt_trace_on NET: one check line, the events of NET's LND enabled.
lt_trace_on() {
	lt_events "$1" || {
		t_fail "trace: $1 LND events enabled" "no trace events known for $1"
		return 1
	}
	t_check "trace: $LT_SYS events enabled" lt_enable
}

# lt_has FILE EVENT NID: FILE has an EVENT line naming peer NID. NID as
# the events print it (net number always there: 10.0.0.2@tcp0).
lt_has() {
	if grep -F -q -- "$2: peer=$3 " "$1"; then
		grep -F -m1 -- "$2: peer=$3 " "$1"
		return 0
	fi
	echo "no $2 event of peer $3 in $1 ($(grep -c -F -- "$2:" "$1") of any peer)"
	return 1
}

# lt_trace_check_traffic PEER_ADDR NET: one check line each for a
# connection established with, a message sent to and one received from
# the peer at PEER_ADDR.
lt_trace_check_traffic() {
	local nid=$1@${2}0
	t_check "trace: $LT_EST of $nid" lt_has "$LT_INST/trace" "$LT_EST" "$nid"
	t_check "trace: $LT_TX to $nid" lt_has "$LT_T/trace" "$LT_TX" "$nid"
	t_check "trace: $LT_RX from $nid" lt_has "$LT_T/trace" "$LT_RX" "$nid"
}

# lt_trace_save: keep the connection events before the LND is unloaded.
lt_trace_save() {
	cat "$LT_INST/trace" >"$LT_SAVED"
}

# lt_all_closed FILE NID: each connection established with NID in FILE
# was closed (o2iblnd: destroyed) too; a connection that never came up
# may have been closed without being established, never the reverse.
lt_all_closed() {
	local est closed
	est=$(grep -c -F -- "$LT_EST: peer=$2 " "$1")
	closed=$(grep -c -F -- "$LT_CLOSED: peer=$2 " "$1")
	echo "$est $LT_EST, $closed $LT_CLOSED of $2"
	[ "$est" -ge 1 ] && [ "$closed" -ge "$est" ]
}

# lt_trace_check_closed PEER_ADDR NET: after the LND's unload, one check
# line: it had recorded the end of each connection with the peer.
lt_trace_check_closed() {
	local nid=$1@${2}0
	echo "after the unload, the instance holds $(grep -c -F "$LT_SYS" "$LT_INST/trace") $LT_SYS lines"
	grep -F -- "peer=$nid " "$LT_SAVED"
	t_check "trace: a $LT_CLOSED for each $LT_EST of $nid" \
		lt_all_closed "$LT_SAVED" "$nid"
}
