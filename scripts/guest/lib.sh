# Helpers for guest test scripts; source "$LNET_TOP/scripts/guest/lib.sh".
# Every check is one line in /mnt/results: "ok NAME" or "not ok NAME # why".
# The runner (tools/vmtest) counts them; a script's exit status is checked too.

RESULTS=/mnt/results

t_log() { echo "lnt: $*" >/dev/kmsg; echo "$*"; }

t_ok() { echo "ok $1" >>"$RESULTS"; t_log "ok $1"; }

t_fail() {
	local name=$1
	shift
	echo "not ok $name # $*" >>"$RESULTS"
	t_log "not ok $name # $*"
}

# t_check NAME COND...: ok iff the command succeeds; its output goes to the log.
t_check() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && echo "$out"
	if [ $rc -eq 0 ]; then
		t_ok "$name"
	else
		t_fail "$name" "exit $rc: $(echo "$out" | tail -n1)"
	fi
	return $rc
}

# t_retry NAME SECONDS CMD...: like t_check, retrying once a second.
t_retry() {
	local name=$1 secs=$2 i
	shift 2
	for ((i = 0; i < secs; i++)); do
		"$@" >/dev/null 2>&1 && { t_ok "$name"; return 0; }
		sleep 1
	done
	t_check "$name" "$@"
}

# Copy the KTAP results of every KUnit suite that ran (before rmmod drops
# them from debugfs).
t_kunit_collect() {
	local d
	mkdir -p /mnt/kunit
	for d in /sys/kernel/debug/kunit/*/; do
		[ -f "$d/results" ] || continue
		cp "$d/results" "/mnt/kunit/$(basename "$d").ktap"
	done
}

# t_insmod NAME PATH [PARAMS...]: load one of the project's modules.
t_insmod() {
	local name=$1
	shift
	t_check "$name" insmod "$@"
}

t_peer_addrs() {
	local p
	for p in $GUEST_PEERS; do echo "${p#*=}"; done
}
