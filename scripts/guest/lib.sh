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

# t_ctl REQUEST...: ask the runner over the control channel (GUEST_CONTROL,
# /dev/ttyS1; Documentation/testing.md, "Control channel") and wait
# for its answer, at most T_CTL_TIMEOUT (30) s. Succeeds on "ok"; on "err"
# or no answer prints why on stderr and fails. E.g. t_ctl link 0 off.
t_ctl() {
	local dev=${GUEST_CONTROL:-/dev/ttyS1} lk fd seq line buf='' rc=1 end st
	if [ ! -c "$dev" ]; then
		echo "t_ctl: no control channel $dev" >&2
		return 1
	fi
	# one request at a time per guest: the answers share the port
	exec {lk}>>/run/lnt-ctl.lock
	flock "$lk"
	seq=$(($(cat /run/lnt-ctl.seq 2>/dev/null || echo 0) + 1))
	echo "$seq" >/run/lnt-ctl.seq
	# raw, no echo (an echo would send the runner's answers back to it)
	stty -F "$dev" raw -echo clocal 2>/dev/null
	exec {fd}<>"$dev"
	printf '%s %s\n' "$seq" "$*" >&"$fd"
	end=$((SECONDS + ${T_CTL_TIMEOUT:-30}))
	echo "t_ctl: no answer in ${T_CTL_TIMEOUT:-30} s to: $seq $*" >/run/lnt-ctl.why
	while ((SECONDS < end)); do
		line=
		IFS= read -r -t 1 -u "$fd" line
		st=$?
		if ((st > 128)); then
			buf+=$line	# timed out inside a line: keep its start
			continue
		fi
		((st == 0)) || { sleep 0.2; continue; }
		line=$buf$line
		buf=
		line=${line%$'\r'}
		case $line in
		"ok $seq")
			rc=0
			break
			;;
		"err $seq "*)
			echo "t_ctl: $seq $*: ${line#"err $seq "}" >/run/lnt-ctl.why
			break
			;;
		esac	# anything else: a late answer to an earlier request
	done
	exec {fd}>&-
	((rc == 0)) || cat /run/lnt-ctl.why >&2
	exec {lk}>&-
	return $rc
}

# t_link K on|off: restore or cut link K (see --link) like a cable pull: qemu
# set_link on both of its guests, carrier gone and nothing delivered. One
# check line, "link K off" / "link K on".
t_link() {
	t_check "link $1 $2" t_ctl link "$1" "$2"
}

# t_rxe_up: a soft-RoCE device rxe0 on eth0, for ko2iblnd. The stock
# kernel has rdma_rxe and rdma_cm as modules, the debug kernel built in.
t_rxe_up() {
	modprobe -q rdma_rxe 2>/dev/null
	modprobe -q rdma_cm 2>/dev/null
	t_check "soft-RoCE rxe0 on eth0" rdma link add rxe0 type rxe netdev eth0
}

# t_lnd_load NET [LND PARAMS...]: lnet.ko with networks=NET0(eth0) and the
# LND of NET, "tcp" (ksocklnd) or "o2ib" (ko2iblnd over rxe0 on eth0).
# Sets LND_NAME (the module's name, for rmmod).
t_lnd_load() {
	local net=$1 ko
	shift
	case $net in
	tcp)
		LND_NAME=ksocklnd
		ko=$LNET_MODDIR/klnds/socklnd/ksocklnd.ko
		;;
	o2ib)
		LND_NAME=ko2iblnd
		ko=$LNET_MODDIR/klnds/o2iblnd/ko2iblnd.ko
		t_rxe_up || return 1
		;;
	*)
		t_fail "an LND for $net" "unknown network type"
		return 1
		;;
	esac
	t_insmod "load lnet" "$LNET_MODDIR/lnet/lnet.ko" networks="${net}0(eth0)" ||
		return 1
	t_insmod "load $LND_NAME" "$ko" "$@"
}

# t_results_from FILE PREFIX: "ok X" / "not ok X # why" lines of FILE (a
# test peer's or client's report) become results "PREFIXX"; other lines
# are echoed to the log.
t_results_from() {
	local line rest
	while IFS= read -r line; do
		case $line in
		"ok "*)
			t_ok "$2${line#ok }"
			;;
		"not ok "*)
			rest=${line#not ok }
			t_fail "$2${rest%% # *}" "${rest#* # }"
			;;
		*)
			echo "$line"
			;;
		esac
	done <"$1"
}

# t_lndtest_results RUN: one result "RUN NAME" per lnet_lndtest client
# check line in dmesg since the last dmesg -C.
t_lndtest_results() {
	dmesg | sed -n 's/.*lnet_lndtest: \(ok .*\|not ok .*\)$/\1/p' >/tmp/checks
	t_results_from /tmp/checks "$1 "
}
