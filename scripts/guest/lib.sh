# Helpers for guest test scripts; source "$LNET_TOP/scripts/guest/lib.sh".
# shellcheck shell=bash
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

# t_no_error_nodes NAME OUTPUT GROUP...: lst show_error's OUTPUT counts no
# error node in any GROUP. A failure quotes the error lines (which node, which
# counters), so a CI log that keeps only the FAIL lines still says why.
t_no_error_nodes() {
	local name=$1 out=$2 g ok=1
	shift 2
	for g in "$@"; do
		grep -q "^Total 0 error nodes in $g\$" <<<"$out" || ok=0
	done
	if [ $ok = 1 ]; then
		t_ok "$name"
		return 0
	fi
	t_fail "$name" "$(grep -v '^Total 0 ' <<<"$out" | head -n 4 | tr '\n' ' ')"
	return 1
}

# t_lst_brw BATCH FROM TO LOOPS PINGS: our lst (LST_SESSION set, groups FROM
# and TO made) runs batch BATCH: brw write and read of 1 MiB with check=full
# (8 in flight, LOOPS loops each) and PINGS pings, FROM's nodes the
# clients; waits until it is idle and finds no error node in either group.
t_lst_brw() {
	local b=$1 f=$2 t=$3 loops=$4 pings=$5 out
	t_lst_ok "add_batch $b" add_batch "$b" || return 1
	t_lst_ok "$b: brw write 1M check=full" add_test --batch "$b" --loop "$loops" \
		--concurrency 8 --from "$f" --to "$t" brw write size=1M check=full
	t_lst_ok "$b: brw read 1M check=full" add_test --batch "$b" --loop "$loops" \
		--concurrency 8 --from "$f" --to "$t" brw read size=1M check=full
	t_lst_ok "$b: ping" add_test --batch "$b" --loop "$pings" --concurrency 8 \
		--from "$f" --to "$t" ping
	t_lst_ok "run $b" run "$b" || return 1
	t_retry "console: batch $b finished" 600 t_lst_idle "$b"
	out=$("$OURS_LST" show_error "$f" "$t" 2>&1)
	echo "$out"
	t_no_error_nodes "console: $b: no error node" "$out" "$f" "$t"
}

# t_lst_ok NAME ARGS...: one check line, our lst ARGS succeeds.
t_lst_ok() {
	local name=$1
	shift
	echo "\$ lst $*"
	t_check "console: $name" "$OURS_LST" "$@"
}

t_lst_idle() {	# t_lst_idle BATCH: our lst says BATCH is idle
	"$OURS_LST" query "$1" 2>&1 | grep -q 'Batch is idle'
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
#
# debugfs keeps 512 bytes of log per case: a case that fails with a few
# messages loses its own result line there. The kernel log has all of it,
# so a suite found whole there (its result line at the top level) is taken
# from the kernel log instead, with the other kernel messages in between
# kept as diagnostics.
t_kunit_collect() {
	local d
	mkdir -p /mnt/kunit
	for d in /sys/kernel/debug/kunit/*/; do
		[ -f "$d/results" ] || continue
		cp "$d/results" "/mnt/kunit/$(basename "$d").ktap"
	done
	dmesg | awk '
		{ sub(/^\[[ 0-9.]*\] /, "") }
		/^    # Subtest: / {
			name = substr($0, 16)
			body = "KTAP version 1\n1..1\n    KTAP version 1\n" $0 "\n"
			next
		}
		name == "" { next }
		$0 ~ ("^(not )?ok [0-9]+ " name "$") {
			sub(/ok [0-9]+ /, "ok 1 ")
			body = body $0 "\n"
			printf "%s", body > ("/mnt/kunit/" name ".ktap")
			close("/mnt/kunit/" name ".ktap")
			name = ""
			next
		}
		{ body = body $0 "\n" }'
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

# t_my_addr: this guest's first IPv4 address (GUEST_ADDRS lists
# "iface=addr/len ..."); t_addr_on IFACE: its address on IFACE, if any.
t_my_addr() {
	local spec
	for spec in $GUEST_ADDRS; do
		spec=${spec#*=}
		echo "${spec%/*}"
		return 0
	done
	return 1
}

t_addr_on() {
	local spec
	for spec in $GUEST_ADDRS; do
		if [ "${spec%%=*}" = "$1" ]; then
			spec=${spec#*=}
			echo "${spec%/*}"
			return 0
		fi
	done
	return 1
}

# t_slab_kb: the kernel's slab total (Slab: in /proc/meminfo), kB.
t_slab_kb() {
	awk '/^Slab:/ { print $2 }' /proc/meminfo
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

# --- lnetctl in scenarios ------------------------------------------------------
# LNETCTL (default: the project's), OUT and ERR (default /tmp/lc.out and
# /tmp/lc.err) are read when these run.
# lc ARGS...: run lnetctl, stdout in $OUT, stderr in $ERR; its exit status.
lc() {
	local out=${OUT:-/tmp/lc.out} err=${ERR:-/tmp/lc.err} rc
	"${LNETCTL:-$LNET_TOP/build/tools/lnetctl/lnetctl}" "$@" >"$out" 2>"$err"
	rc=$?
	echo "\$ lnetctl $* -> $rc"
	cat "$out" "$err"
	return $rc
}

# lc_ok NAME ARGS...: lnetctl succeeds (one check line).
lc_ok() {
	local name=$1
	shift
	if lc "$@"; then
		t_ok "$name"
	else
		t_fail "$name" "lnetctl $* failed: $(grep -m1 descr "${ERR:-/tmp/lc.err}")"
		return 1
	fi
}

# --- Flags between guests --------------------------------------------------
# Guests share no files: a guest raises a named flag (an empty file in
# T_FLAG_DIR) and busybox httpd serves it on T_FLAG_PORT of every address;
# the other guest polls for it over its link. t_flag_serve runs once, early
# in the script, and the server lives until the guest powers off, so "the
# peer answers nothing" means it is gone.
T_FLAG_DIR=/run/lnt-flags
T_FLAG_PORT=${T_FLAG_PORT:-7999}

t_flag_serve() {
	mkdir -p "$T_FLAG_DIR"
	[ -f /run/lnt-flags.pid ] && return 0
	busybox httpd -f -p "$T_FLAG_PORT" -h "$T_FLAG_DIR" </dev/null >/dev/null 2>&1 &
	echo $! >/run/lnt-flags.pid
}

# t_flag_set NAME: raise flag NAME on this guest.
t_flag_set() {
	t_flag_serve
	: >"$T_FLAG_DIR/$1"
	t_log "flag $1 raised"
}

# t_flag_request FD NAME: the request for flag NAME on connection FD. In a
# subshell that ignores SIGPIPE: a peer whose flag server goes away while
# we ask (packages.sh's guest 0 hands over to another root) must fail the
# request, not kill the asking script.
t_flag_request() {
	(
		trap '' PIPE
		printf 'GET /%s HTTP/1.0\r\n\r\n' "$2" >&"$1"
	) 2>/dev/null
}

# t_flag_get NAME [ADDR]: succeeds iff the guest at ADDR (default: the
# first peer) has raised NAME; exit 1 when it has not, 2 when it did not
# answer at all. (bash's /dev/tcp: the static busybox's wget crashes.)
t_flag_get() {
	local addr=${2:-$(t_peer_addrs | head -n1)} fd line=
	exec {fd}<>"/dev/tcp/$addr/$T_FLAG_PORT" || return 2
	t_flag_request "$fd" "$1" || { exec {fd}>&-; return 2; }
	IFS= read -r -t 5 -u "$fd" line
	exec {fd}>&-
	case $line in
	"HTTP/"*" 200 "*) return 0 ;;
	"HTTP/"*" 404 "*) return 1 ;;
	*) return 2 ;;
	esac
}

# t_flag_fetch NAME [ADDR]: print the content of flag NAME (a flag may
# carry a file) of the guest at ADDR; exit 1 when it has not raised it, 2
# when it did not answer.
t_flag_fetch() {
	local addr=${2:-$(t_peer_addrs | head -n1)} fd line=
	exec {fd}<>"/dev/tcp/$addr/$T_FLAG_PORT" || return 2
	t_flag_request "$fd" "$1" || { exec {fd}>&-; return 2; }
	IFS= read -r -t 5 -u "$fd" line
	case $line in
	"HTTP/"*" 200 "*) ;;
	"HTTP/"*" 404 "*)
		exec {fd}>&-
		return 1
		;;
	*)
		exec {fd}>&-
		return 2
		;;
	esac
	while IFS= read -r -t 5 -u "$fd" line && [ -n "${line%$'\r'}" ]; do :; done
	cat <&"$fd"
	exec {fd}>&-
}

# t_flag_wait NAME SECONDS [ADDR]: one check line "peer raised NAME", once
# the peer has raised it. Fails at once if the peer raised "abort" (see
# t_abort), after T_FLAG_SILENCE (default 30) s without an answer from a
# peer that answered before (it is gone; a scenario that cuts the link the
# flags travel on raises it), or after SECONDS.
t_flag_wait() {
	local name=$1 secs=$2 addr=${3:-$(t_peer_addrs | head -n1)} end rc seen=0 quiet=0
	end=$((SECONDS + secs))
	while ((SECONDS < end)); do
		t_flag_get "$name" "$addr" 2>/dev/null
		rc=$?
		if ((rc == 0)); then
			t_ok "peer raised $name"
			return 0
		elif ((rc == 1)); then
			seen=1
			quiet=$SECONDS
			if t_flag_get abort "$addr" 2>/dev/null; then
				t_fail "peer raised $name" "the peer gave up (flag abort)"
				return 1
			fi
		elif ((seen && SECONDS - quiet > ${T_FLAG_SILENCE:-30})); then
			t_fail "peer raised $name" "the peer stopped answering"
			return 1
		fi
		sleep 1
	done
	t_fail "peer raised $name" "not in $secs s"
	return 1
}

# t_flag_bye SECONDS: the last rendezvous. Raises "bye", then waits until
# the peer has raised "bye" too, or answers no more (it powered off after
# seeing ours), so neither guest powers off while the other still polls it.
t_flag_bye() {
	local secs=$1 addr end rc
	addr=$(t_peer_addrs | head -n1)
	t_flag_set bye
	end=$((SECONDS + secs))
	while ((SECONDS < end)); do
		t_flag_get bye "$addr" 2>/dev/null
		rc=$?
		((rc == 0 || rc == 2)) && return 0
		sleep 1
	done
	t_log "t_flag_bye: the peer neither said bye nor went away in $secs s"
	return 1
}

# t_abort: give up a two-guest scenario: tell the peer (flag abort), wait
# for it to notice, exit 1.
t_abort() {
	t_flag_set abort
	t_flag_bye 120
	exit 1
}

# --- The reference node: Lustre's LNet (scripts/build-lustre.sh) ------------
# LUSTRE_DIR is the build's directory (lnet-vmtest --env LUSTRE_DIR=<dir>):
# modules/*.ko, bin/lnetctl, bin/lst, lib/. Its tools run with its own
# libraries; lustre_lnetctl and lustre_lst are them.
lustre_lnetctl() { LD_LIBRARY_PATH=$LUSTRE_DIR/lib "$LUSTRE_DIR/bin/lnetctl" "$@"; }
lustre_lst() { LD_LIBRARY_PATH=$LUSTRE_DIR/lib "$LUSTRE_DIR/bin/lst" "$@"; }
OURS_LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
OURS_LST=$LNET_TOP/build/tools/lst/lst
ours_lnetctl() { "$OURS_LNETCTL" "$@"; }
ours_lst() { "$OURS_LST" "$@"; }

# t_lustre_insmod CHECK KO: insmod one of Lustre's modules after modprobing
# the kernel modules it depends on (sunrpc, ib_core, rdma_cm...).
t_lustre_insmod() {
	local dep
	for dep in $(modinfo -F depends "$2" | tr ',' ' '); do
		case $dep in
		libcfs | lnet) ;;
		*) modprobe -q "$dep" ;;
		esac
	done
	t_insmod "$1" "$2"
}

# t_lustre_load NET [PREFIX]: Lustre's libcfs, lnet and the LND of NET
# ("tcp": ksocklnd, "o2ib": ko2iblnd over rxe0 on eth0), then NET0 on eth0
# configured with its lnetctl. PREFIX starts every check name (a reload).
t_lustre_load() {
	local net=$1 p=${2:-} m=$LUSTRE_DIR/modules
	if [ -z "$LUSTRE_DIR" ] || [ ! -f "$m/lnet.ko" ]; then
		t_fail "${p}lustre: build present" "LUSTRE_DIR='${LUSTRE_DIR:-}' has no modules" \
			"(scripts/build-lustre.sh; lnet-vmtest --env LUSTRE_DIR=<dir>)"
		return 1
	fi
	case $net in
	tcp) LUSTRE_LND=ksocklnd ;;
	o2ib)
		LUSTRE_LND=ko2iblnd
		if [ ! -e /sys/class/infiniband/rxe0 ]; then
			t_rxe_up || return 1
		fi
		modprobe -q ib_core
		modprobe -q rdma_cm
		;;
	*)
		t_fail "${p}lustre: an LND for $net" "unknown network type"
		return 1
		;;
	esac
	modprobe -q sunrpc
	t_lustre_insmod "${p}lustre: load libcfs" "$m/libcfs.ko" &&
		t_lustre_insmod "${p}lustre: load lnet" "$m/lnet.ko" &&
		t_lustre_insmod "${p}lustre: load $LUSTRE_LND" "$m/$LUSTRE_LND.ko" &&
		t_check "${p}lustre: lnetctl lnet configure" lustre_lnetctl lnet configure &&
		t_check "${p}lustre: lnetctl net add --net ${net}0 --if eth0" \
			lustre_lnetctl net add --net "${net}0" --if eth0
}

# t_lustre_selftest_load [PREFIX]: Lustre's lnet_selftest.
t_lustre_selftest_load() {
	t_lustre_insmod "${1:-}lustre: load lnet_selftest" "$LUSTRE_DIR/modules/lnet_selftest.ko"
}

# t_lustre_unload [PREFIX]: lnet_selftest if loaded, lnetctl lnet
# unconfigure, the LND, lnet, libcfs.
t_lustre_unload() {
	local p=${1:-} rc=0
	if [ -d /sys/module/lnet_selftest ]; then
		t_check "${p}lustre: unload lnet_selftest" rmmod lnet_selftest || rc=1
	fi
	t_check "${p}lustre: lnetctl lnet unconfigure" lustre_lnetctl lnet unconfigure || rc=1
	t_check "${p}lustre: unload $LUSTRE_LND" rmmod "$LUSTRE_LND" || rc=1
	t_check "${p}lustre: unload lnet" rmmod lnet || rc=1
	t_check "${p}lustre: unload libcfs" rmmod libcfs || rc=1
	return $rc
}

# t_node_load KIND NET [PREFIX]: this guest becomes an LNet node on NET0
# (eth0) with lnet_selftest loaded, running KIND: "lustre" (the reference
# node, above) or "ours" (t_lnd_load and our lnet_selftest). Sets NODE_KIND
# and NODE_NET; node_lnetctl and node_lst then run that kind's tools.
t_node_load() {
	local kind=$1 net=$2 p=${3:-}
	NODE_KIND=$kind
	NODE_NET=$net
	case $kind in
	lustre)
		t_lustre_load "$net" "$p" && t_lustre_selftest_load "$p"
		;;
	ours)
		[ -z "$p" ] || t_log "${p}ours: loading"
		t_lnd_load "$net" &&
			t_insmod "${p}ours: load lnet_selftest" \
				"$LNET_MODDIR/lnet/selftest/lnet_selftest.ko"
		;;
	*)
		t_fail "${p}node kind $kind" "lustre or ours"
		return 1
		;;
	esac
}

# t_node_unload [PREFIX]: undo t_node_load (lnet_selftest if still loaded),
# soft-RoCE device included.
t_node_unload() {
	local p=${1:-} rc=0
	case $NODE_KIND in
	lustre)
		t_lustre_unload "$p" || rc=1
		;;
	ours)
		if [ -d /sys/module/lnet_selftest ]; then
			t_check "${p}ours: unload lnet_selftest" rmmod lnet_selftest || rc=1
		fi
		t_check "${p}ours: unload $LND_NAME" rmmod "$LND_NAME" || rc=1
		t_check "${p}ours: unload lnet" rmmod lnet || rc=1
		;;
	esac
	if [ "$NODE_NET" = o2ib ]; then
		t_check "${p}$NODE_KIND: remove rxe0" rdma link delete rxe0 || rc=1
	fi
	return $rc
}

# t_yaml_section SECTION|-SECTION FILE: only that top-level section of an
# lnetctl YAML file, or all but it (peer sections list whatever each node
# talked to, so comparisons of two exports leave them out)
t_yaml_section() {
	awk -v s="${1#-}:" -v keep="${1%%[!-]*}" \
		'/^[a-z]/ { in_s = ($0 == s) } (keep == "-") != in_s' "$2"
}

node_lnetctl() { "${NODE_KIND}_lnetctl" "$@"; }

# peer_shows_mr NID LNETCTL...: LNETCTL's peer show (ours: "Multi-Rail:
# True", Lustre 2.17's: "true") lists NID as a primary, Multi-Rail: its ping
# info said so, so discovery reached it (through routers if need be)
peer_shows_mr() {
	local nid=$1
	shift
	"$@" peer show 2>/dev/null |
		awk -v p="$nid" '/primary nid:/ { cur = $NF }
			/Multi-Rail:/ && cur == p { found = (tolower($NF) == "true") }
			END { exit !found }'
}
node_lst() { "${NODE_KIND}_lst" "$@"; }

# t_lst_rates: the last [LNet Rates of ...] / [LNet Bandwidth of ...] block
# of lst stat's table on stdin (Lustre's lst and ours print the same lines,
# "[R] Avg: 123 RPC/s Min: ... Max: ..."), as "r_rpc=. w_rpc=. r_mib=.
# w_mib=." (a missing figure stays empty).
t_lst_rates() {
	awk '/^\[LNet Rates of / { s = "rpc" }
		/^\[LNet Bandwidth of / { s = "mib" }
		/^\[[RW]\] Avg: / && s != "" { v[tolower(substr($1, 2, 1)) "_" s] = $3 }
		END { printf "r_rpc=%s w_rpc=%s r_mib=%s w_mib=%s\n",
			v["r_rpc"], v["w_rpc"], v["r_mib"], v["w_mib"] }'
}

# t_lst_line NAME ERRORS: t_lst_rates' output on stdin as one figures line,
# "NAME r_rpc=.. w_rpc=.. r_mib=.. w_mib=.. r_mbit=.. w_mbit=.. errors=N"
t_lst_line() {
	awk -v n="$1" -v e="$2" \
		'{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		  printf "%s %s r_mbit=%.1f w_mbit=%.1f errors=%d\n", n, $0,
			v["r_mib"] * 8 * 1.048576, v["w_mib"] * 8 * 1.048576, e }'
}

# t_bench_args ROUNDS SECS: both positive numbers, or a failed check
t_bench_args() {
	local n
	for n in "$1" "$2"; do
		case $n in
		'' | *[!0-9]* | 0)
			t_fail "arguments" "rounds '$1', BENCH_SECS '$2': positive numbers"
			return 1
			;;
		esac
	done
}

# t_lst_measure OUT NAME BATCH SERVERS SECS: run our lst's BATCH (clients
# in group "clients") for SECS seconds and append one line to OUT: "NAME
# r_rpc=.. w_rpc=.. r_mib=.. w_mib=.. r_mbit=.. w_mbit=.. errors=N" (NAME
# may carry "round=N"); errors counts the error nodes show_error lists for
# SERVERS, and any fails the check.
t_lst_measure() {
	local out=$1 name=$2 b=$3 servers=$4 secs=$5 rates errs
	if ! ours_lst run "$b" >/tmp/run 2>&1; then
		t_fail "lst $name" "run: $(tail -n1 /tmp/run)"
		return
	fi
	sleep 1
	ours_lst stat --count 1 --delay "$secs" clients >/tmp/stat 2>&1
	ours_lst stop "$b" >/dev/null 2>&1
	t_retry "lst $name: stopped" 60 \
		sh -c "'$OURS_LST' query '$b' 2>&1 | grep -q 'Batch is idle'" >/dev/null
	ours_lst show_error clients "$servers" >/tmp/errors 2>&1
	errs=$(awk '/^Total [0-9]+ error nodes/ { s += $2 } END { print s + 0 }' /tmp/errors)
	rates=$(t_lst_rates </tmp/stat)
	echo "lst $name: $rates (error nodes $errs)"
	if [[ $rates == *"= "* ]] || [[ $rates == *= ]]; then
		cat /tmp/stat
		t_fail "lst $name: lst stat" "$(tail -n1 /tmp/stat)"
		return
	fi
	t_lst_line "$name" "$errs" <<<"$rates" >>"$out"
	if ((errs == 0)); then
		t_ok "lst $name"
	else
		cat /tmp/errors
		t_fail "lst $name" "show_error reports errors"
	fi
}
