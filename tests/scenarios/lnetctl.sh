#!/bin/bash
# The configuration interface end to end: lnet.ko's /dev/lnet and module
# parameters driven by the real lnetctl (build/tools/lnetctl/lnetctl), plus
# lnet-ioctlfuzz --fixed (build/tools/ioctlfuzz: a fixed list of malformed
# calls, each with the errno it must get).
#
# One guest: load-time parameter validation, config_on_load, configure /
# unconfigure, net show, ping 0@lo, stats, peers, global show / set,
# export / import round trip, bad input, an unprivileged user, bogus ioctls.
# When ksocklnd.ko was built and the guest has eth0 (only runs with links
# give guests NICs, so the one-guest run skips this): tcp nets on eth0
# (add, show, del by net, by interface, by NID, ip2nets rule), routes (add,
# show, del), the round trip with them, EBUSY while a ping holds LNet, and
# networks=/routes= with config_on_load.
# Two guests (and ksocklnd): LNet ping and peers across the link, and
# traffic on tcp0 undisturbed while tcp1 is added and deleted; a net
# deleted under traffic fails its messages cleanly. Guest 1 only serves.
#
# Run (debug kernel; make modules-debug && make tools first):
#   lnet-vmtest --suite lnetctl --kernel debug --guests 1 --timeout 600 \
#	--script $LNET_TOP/tests/scenarios/lnetctl.sh
#   lnet-vmtest --suite lnetctl-2 --kernel debug --guests 2 \
#	--link 0-1 --link 0-1 --timeout 900 --script ...same...
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
LCTL=$LNET_TOP/build/tools/lctl/lctl
FUZZ=$LNET_TOP/build/tools/ioctlfuzz/lnet-ioctlfuzz
LNET_KO=$LNET_MODDIR/lnet/lnet.ko
SOCK_KO=$LNET_MODDIR/klnds/socklnd/ksocklnd.ko
PARAMS=/sys/module/lnet/parameters
OUT=/tmp/lc.out
ERR=/tmp/lc.err
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

peer_ip_on() {	# peer_ip_on eth0 -> guest 1's address on that link
	local me
	me=$(t_addr_on "$1")
	[ -n "$me" ] && echo "${me%.*}.$((GUEST_INDEX == 0 ? 2 : 1))"
}

# the tcp parts need ksocklnd.ko and an interface (guests get NICs only
# from links: a single guest has none)
have_sock=0
[ -f "$SOCK_KO" ] && have_sock=1
have_tcp=0
[ $have_sock = 1 ] && [ -n "$(t_addr_on eth0)" ] && have_tcp=1

# lc_has NAME TEXT ARGS...: lnetctl succeeds and its output contains TEXT.
lc_has() {
	local name=$1 text=$2
	shift 2
	if ! lc "$@"; then
		t_fail "$name" "lnetctl $* failed: $(grep -m1 descr "$ERR")"
	elif ! grep -qF -- "$text" "$OUT"; then
		t_fail "$name" "no '$text' in the output of lnetctl $*"
	else
		t_ok "$name"
		return 0
	fi
	return 1
}

# lc_lacks NAME TEXT ARGS...: lnetctl succeeds, TEXT is not in the output.
lc_lacks() {
	local name=$1 text=$2
	shift 2
	if ! lc "$@"; then
		t_fail "$name" "lnetctl $* failed: $(grep -m1 descr "$ERR")"
	elif grep -qF -- "$text" "$OUT"; then
		t_fail "$name" "'$text' still in the output of lnetctl $*"
	else
		t_ok "$name"
	fi
}

# lc_err NAME ERRNO ARGS...: lnetctl fails, with "errno: -ERRNO" in its
# error YAML.
# timed_ping NID SECONDS: lnetctl ping NID (output in /tmp/ping.bg); sets
# took, the seconds it took
timed_ping() {
	local t0
	t0=$(date +%s)
	"$LNETCTL" ping "$1" --timeout "$2" >/tmp/ping.bg 2>&1
	took=$(($(date +%s) - t0))
	cat /tmp/ping.bg
}

lc_err() {
	local name=$1 errno=$2
	shift 2
	if lc "$@"; then
		t_fail "$name" "lnetctl $* succeeded"
	elif ! grep -q -- "errno: -$errno\$" "$ERR"; then
		t_fail "$name" "want errno -$errno, got: $(tr '\n' ' ' <"$ERR")"
	else
		t_ok "$name"
	fi
}

# lc_usage NAME TEXT ARGS...: lnetctl refuses the command line itself
# (exit 2, a usage message containing TEXT; no error YAML).
lc_usage() {
	local name=$1 text=$2 rc
	shift 2
	lc "$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		t_fail "$name" "lnetctl $* succeeded"
	elif ! grep -qF -- "$text" "$ERR"; then
		t_fail "$name" "exit $rc without '$text'"
	else
		t_ok "$name"
	fi
}

# lc_nobody ARGS...: the same as lc_*, as an unprivileged user.
lc_nobody() {
	"${NOBODY[@]}" "$LNETCTL" "$@" >"$OUT" 2>"$ERR"
	local rc=$?
	echo "\$ (nobody) lnetctl $* -> $rc"
	cat "$OUT" "$ERR"
	return $rc
}

param() { cat "$PARAMS/$1"; }

# t_bad_ioctls MODE [RUNNER...]: one result per line of
# lnet-ioctlfuzz --fixed --as MODE.
t_bad_ioctls() {
	local mode=$1 line n=0
	shift
	"$@" "$FUZZ" --fixed --as "$mode" >/tmp/bad.out 2>&1
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		"ok "*) t_ok "ioctl($mode): ${line#ok }" ;;
		"not ok "*)
			line=${line#not ok }
			t_fail "ioctl($mode): ${line%% # *}" "${line#* # }"
			;;
		*) echo "$line" ;;
		esac
	done </tmp/bad.out
	t_check "ioctl($mode): checks reported" test "$n" -ge 5
}

load_sock() {
	[ $have_sock = 1 ] || return 0
	[ -d /sys/module/ksocklnd ] && return 0
	t_insmod "load ksocklnd" "$SOCK_KO"
}

# request_module("ksocklnd") from lnet.ko: the guest's modprobe cannot find
# the project's modules, so a helper loads ksocklnd.ko from the build tree.
if [ $have_sock = 1 ]; then
	cat >/tmp/modprobe <<EOF
#!/bin/sh
for a; do [ "\$a" = ksocklnd ] && exec insmod "$SOCK_KO"; done
exec /sbin/modprobe "\$@"
EOF
	chmod 755 /tmp/modprobe
	echo /tmp/modprobe >/proc/sys/kernel/modprobe
fi

unload_all() {
	[ -d /sys/module/ksocklnd ] && t_check "unload ksocklnd" rmmod ksocklnd
	t_check "unload lnet" rmmod lnet
}

# ---- guest 1 of a two-guest run: serve tcp0/tcp1 until guest 0 is gone ----
if [ "$GUEST_INDEX" != 0 ]; then
	[ $have_tcp = 1 ] || { t_ok "no ksocklnd or no eth0: nothing to serve"; exit 0; }
	t_insmod "load lnet" "$LNET_KO" || exit 1
	load_sock
	lc_ok "configure" lnet configure
	# tcp0 takes 2 bulk connections each way from guest 0, which raises
	# its own conns_per_peer to 2 at run time (a node takes no more than
	# its own setting)
	[ -n "$(t_addr_on eth0)" ] &&
		lc_ok "net add tcp0 on eth0, conns_per_peer 2" net add --net tcp0 --if eth0 \
			--conns-per-peer 2
	[ -n "$(t_addr_on eth1)" ] && lc_ok "net add tcp1 on eth1" net add --net tcp1 --if eth1
	lc net show
	peer=$(peer_ip_on eth0)
	# guest 0 pings us while it runs; it is done when it stops answering
	sleep 20
	for ((i = 0; i < 400; i++)); do
		ping -c 1 -W 2 "$peer" >/dev/null 2>&1 || break
		sleep 1
	done
	lc_ok "peer show (after guest 0's traffic)" peer show
	lc_ok "unconfigure" lnet unconfigure
	unload_all
	exit 0
fi

echo "ksocklnd.ko: $([ $have_sock = 1 ] && echo present || echo absent); eth0: $(t_addr_on eth0); guests: $GUEST_COUNT"

# ---- load-time validation ---------------------------------------------------
for bad in 'networks=foo0(eth0)' 'networks=tcp0(eth0' 'routes="o2ib1 192.0.2.300@tcp"' \
	'routes="o2ib1 0 192.0.2.1@tcp"' 'forwarding=maybe' \
	'lnet_retry_count=-1' 'lnet_health_sensitivity=1001' 'lnet_response_tracking=x' \
	'lnet_lnd_timeout=5' 'ip2nets="tcp(eth0 *.*.*.*"' 'ip2nets="tcp 10.1.2"' \
	'ip2nets="tcp 10.1.2.[3-"' 'ip2nets="lo *.*.*.*"'; do
	if insmod "$LNET_KO" "$bad" 2>/tmp/insmod.err; then
		t_fail "insmod lnet $bad refused" "it loaded"
		rmmod lnet
	else
		t_ok "insmod lnet $bad refused"
	fi
done
if insmod "$LNET_KO" "networks=tcp0(eth0)" 'ip2nets="tcp *.*.*.*"' 2>/tmp/insmod.err; then
	t_fail "insmod lnet with networks= and ip2nets= refused" "it loaded"
	rmmod lnet
else
	t_ok "insmod lnet with networks= and ip2nets= refused"
fi
dmesg | grep 'lnet:' | tail -n 12
in_log() { dmesg | grep -qF -- "$1"; }
t_check "networks= with ip2nets= explained in the log" in_log "networks= and ip2nets= are both set; give one of them"
t_check "bad ip2nets= named in the log" in_log "bad module parameter ip2nets=\"tcp(eth0 *.*.*.*\""
t_check "bad ip2nets= pattern named in the log" in_log "bad module parameter ip2nets=\"tcp 10.1.2\""
t_check "lo in ip2nets= refused" in_log "bad module parameter ip2nets=\"lo *.*.*.*\""
t_check "bad networks= named in the log" in_log "refusing to load: bad module parameter networks: unknown network 'foo0'"
t_check "bad routes= named in the log" in_log "refusing to load: bad module parameter routes: bad gateway '192.0.2.300@tcp'"
t_check "lnet_lnd_timeout= refused as derived" in_log "lnet_lnd_timeout is read-only: set transaction_timeout or retry_count"
t_check "bad hop count named in the log" in_log "routes: hop count '0' not in 1..255"
t_check "bad forwarding= explained in the log" in_log 'forwarding="maybe": use "enabled", "disabled" or leave it empty'

# ---- config_on_load ------------------------------------------------------------
t_insmod "load lnet config_on_load=1" "$LNET_KO" config_on_load=1 || exit 1
t_check "/dev/lnet is a character device" test -c /dev/lnet
t_check "/dev/lnet is mode 0666" test "$(stat -c %a /dev/lnet)" = 666
t_retry "config_on_load brought LNet up" 30 "$LNETCTL" net show
lc_ok "unconfigure undoes config_on_load" lnet unconfigure
lc_err "net show once unconfigured: ENETDOWN" 100 net show
lc_err "unconfigure twice: ENETDOWN" 100 lnet unconfigure
t_check "unload lnet" rmmod lnet

if [ $have_tcp = 1 ]; then
	me0=$(t_addr_on eth0)
	# ksocklnd comes through request_module() and the modprobe helper
	t_insmod "load lnet networks=tcp0(eth0) routes=o2ib1 <gw> config_on_load=1" "$LNET_KO" \
		config_on_load=1 "networks=tcp0(eth0)" "routes=\"o2ib1 2 ${me0%.*}.77@tcp:3\""
	t_retry "config_on_load brought tcp0 up" 60 grep -q "@tcp" /sys/kernel/debug/lnet/nis
	lc_has "networks= NI listed" "nid: $me0@tcp" net show
	lc_has "routes= route stored" "gateway: ${me0%.*}.77@tcp" route show -v
	lc_has "routes= hop count kept" "hop: 2" route show -v
	lc_has "routes= priority kept" "priority: 3" route show -v
	lc_ok "unconfigure" lnet unconfigure
	unload_all

	t_insmod "load lnet with a route via an unreachable gateway" "$LNET_KO" \
		config_on_load=1 "networks=tcp0(eth0)" "routes=\"o2ib1 10.99.99.1@tcp5\""
	t_retry "bring-up failure logged with the route" 60 in_log "cannot add the route to o2ib1 via 10.99.99.1@tcp5"
	t_check "config_on_load failure logged" in_log "config_on_load: cannot bring LNet up"
	lc_err "LNet stayed down: ENETDOWN" 100 net show
	unload_all

	# ip2nets=: the first rule that matches eth0's address brings tcp up
	# on the interface it names; the second (no interface named) brings
	# tcp1 up on the interface whose address matched; the third matches
	# nothing and brings nothing up
	t_insmod "load lnet ip2nets=<3 rules> config_on_load=1" "$LNET_KO" config_on_load=1 \
		"ip2nets=\"tcp(eth0) ${me0%%.*}.*.*.[0-255]; tcp1 ${me0%.*}.*; o2ib 203.0.113.*\""
	t_retry "config_on_load brought the ip2nets= networks up" 60 grep -q "@tcp1" /sys/kernel/debug/lnet/nis
	lc_has "ip2nets= tcp NI" "nid: $me0@tcp" net show --net tcp
	lc_has "ip2nets= tcp NI on the interface the rule names" "0: eth0" net show --net tcp
	lc_has "ip2nets= tcp1 NI on the matching interface" "nid: $me0@tcp1" net show --net tcp1
	lc_has "ip2nets= tcp1 interface named" "0: eth0" net show --net tcp1
	t_check "ip2nets= rule that matches no address: no o2ib NI" \
		sh -c "! grep -q o2ib /sys/kernel/debug/lnet/nis"
	lc_ok "unconfigure" lnet unconfigure
	unload_all

	t_insmod "load lnet ip2nets=<no match> config_on_load=1" "$LNET_KO" config_on_load=1 \
		'ip2nets="tcp 203.0.113.*"'
	t_retry "ip2nets= without a match logged" 60 in_log "ip2nets=\"tcp 203.0.113.*\": no rule matches an IPv4 address of this node"
	t_check "config_on_load failure names ip2nets=" in_log "config_on_load: cannot bring LNet up (ip2nets=\"tcp 203.0.113.*\"): -99"
	lc_err "LNet stayed down without an ip2nets= match: ENETDOWN" 100 net show
	unload_all

	# a CPT list naming a partition that does not exist (the table is
	# built after networks= is parsed): refused at NI start, by name
	t_insmod "load lnet networks=tcp0(eth0)[63] config_on_load=1" "$LNET_KO" \
		config_on_load=1 "networks=tcp0(eth0)[63]"
	t_retry "nonexistent CPT named in the log" 60 in_log "tcp: CPT 63 does not exist"
	lc_err "LNet stayed down with a bad CPT: ENETDOWN" 100 net show
	unload_all
fi

# ---- the main run -------------------------------------------------------------
t_insmod "load lnet" "$LNET_KO" || exit 1
load_sock
lc_err "net show before configure: ENETDOWN" 100 net show
lc_err "stats show before configure: ENETDOWN" 100 stats show
lc_ok "lnet configure" lnet configure
lc_ok "lnet configure again (already configured)" lnet configure
lc_err "lnet configure --large: EOPNOTSUPP" 95 lnet configure --large
lc_has "net show: net type lo" "net type: lo" net show
lc_has "net show: nid 0@lo" "nid: 0@lo" net show
lc_has "net show: 0@lo up" "status: up" net show
lc_has "net show -v: health stats" "health value: 1000" net show -v
lc_has "net show -v: tunables" "peer_credits:" net show -v
lc_has "ping 0@lo" "primary nid: 0@lo" ping 0@lo
lc_has "stats show" "send_count:" stats show
lc_ok "stats reset" stats reset
lc_ok "peer show" peer show
lc_ok "route show (none yet)" route show

lc_has "global show: retry_count 2" "retry_count: 2" global show
lc_has "global show: discovery 1" "discovery: 1" global show
lc_has "global show: max_interfaces" "max_interfaces: 4096" global show
lc_ok "set transaction_timeout 100" set transaction_timeout 100
lc_has "global show: transaction_timeout 100" "transaction_timeout: 100" global show
t_check "lnet_transaction_timeout parameter is 100" test "$(param lnet_transaction_timeout)" = 100
lc_ok "set transaction_timeout 150" set transaction_timeout 150
lc_ok "set numa_range 30 (NIs up to distance 30 count as near)" set numa_range 30
lc_has "global show: numa_range 30" "numa_range: 30" global show
t_check "lnet_numa_range parameter is 30" test "$(param lnet_numa_range)" = 30
lc_ok "set numa_range 0 (back to its default)" set numa_range 0
lc_ok "set drop_asym_route 1 (asymmetric routes are checked)" set drop_asym_route 1
lc_has "global show: drop_asym_route 1" "drop_asym_route: 1" global show
lc_ok "set drop_asym_route 0 (back to its default)" set drop_asym_route 0
lc_ok "set recovery_limit 60 (recovery is implemented)" set recovery_limit 60
lc_has "global show: recovery_limit 60" "recovery_limit: 60" global show
lc_ok "set recovery_limit 0 (back to its default)" set recovery_limit 0
lc_ok "set max_recovery_ping_interval 60" set max_recovery_ping_interval 60
lc_has "global show: max_recovery_ping_interval 60" "max_recovery_ping_interval: 60" global show
lc_ok "set max_recovery_ping_interval 900 (back to its default)" set max_recovery_ping_interval 900
lc_ok "set retry_count 3 (resend is implemented)" set retry_count 3
lc_has "global show: retry_count 3" "retry_count: 3" global show
lc_ok "set retry_count 2 (back to its default)" set retry_count 2
lc_ok "set discovery 0" set discovery 0
lc_has "global show: discovery 0" "discovery: 0" global show
t_check "discovery 0: lnet_peer_discovery_disabled 1" test "$(param lnet_peer_discovery_disabled)" = 1
lc_ok "set discovery 1 (the default)" set discovery 1
lc_ok "set health_sensitivity 50" set health_sensitivity 50
lc_has "global show: health_sensitivity 50" "health_sensitivity: 50" global show
lc_ok "set health_sensitivity 100 (back to its default)" set health_sensitivity 100
# tunables that bound each other
lc_err "set transaction_timeout 2 (not above retry_count 2): EINVAL" 22 \
	set transaction_timeout 2
t_check "... the kernel log says why" \
	sh -c "dmesg | grep -q 'lnet_transaction_timeout=2 refused: it must exceed retry_count (2)'"
lc_err "set retry_count 151 (above transaction_timeout 150): EINVAL" 22 \
	set retry_count 151
lc_ok "set health_sensitivity 0 (health off)" set health_sensitivity 0
lc_has "... sets retry_count to 0" "retry_count: 0" global show
lc_err "set retry_count 1 with health off: EINVAL" 22 set retry_count 1
lc_ok "set health_sensitivity 100" set health_sensitivity 100
lc_ok "set retry_count 2 (health on again)" set retry_count 2
# write_refused PARAM VALUE [WHY]: writing VALUE to PARAM fails, and
# PARAM keeps its value
write_refused() {
	local before
	before=$(param "$1")
	if echo "$2" >"$PARAMS/$1" 2>/dev/null; then
		t_fail "write $2 to $1 refused${3:+ ($3)}" "accepted"
	else
		t_ok "write $2 to $1 refused${3:+ ($3)}"
	fi
	t_check "$1 unchanged after the refused write" test "$(param "$1")" = "$before"
}
write_refused lnet_numa_range -1 "below its range"
# Lustre 2.17.0 exports max_interfaces 200: it bounds the ping infos taken
lc_ok "set max_interfaces 200 (Lustre 2.17.0's default)" set max_interfaces 200
lc_has "global show: max_interfaces 200" "max_interfaces: 200" global show
lc_ok "lnetctl ping 0@lo with max_interfaces 200" ping 0@lo
lc_ok "set max_interfaces 4096 (back to its default)" set max_interfaces 4096
# deprecated as in Lustre: accepted, ignored, with a warning
lc_ok "set recovery_interval 5 (deprecated)" set recovery_interval 5
t_check "recovery_interval still reads 1" test "$(param lnet_recovery_interval)" = 1
t_check "... and the kernel log says it is ignored" \
	sh -c "dmesg | grep -q 'lnet_recovery_interval is deprecated and has no effect: 5 ignored'"
for p in lnet_numa_range lnet_interfaces_max lnet_peer_discovery_disabled \
	lnet_drop_asym_route lnet_retry_count lnet_transaction_timeout \
	lnet_health_sensitivity lnet_recovery_interval router_sensitivity_percentage \
	lnet_response_tracking lnet_recovery_limit lnet_max_recovery_ping_interval; do
	t_check "parameter $p is 0644" test "$(stat -c %a "$PARAMS/$p")" = 644
done
for w in "lnet_health_sensitivity 1001" "lnet_response_tracking 4" \
	"lnet_interfaces_max 15" "lnet_transaction_timeout 0" "lnet_retry_count abc" \
	"lnet_peer_discovery_disabled 2" "router_sensitivity_percentage -1" \
	"lnet_max_recovery_ping_interval 0" "lnet_recovery_limit -1"; do
	write_refused "${w%% *}" "${w#* }"
done

# bad input through lnetctl
lc_err "net add with an unknown net: EINVAL" 22 net add --net foo0 --if eth0
lc_err "net add of a net type without LND: ENODEV" 19 net add --net gni0 --if eth0
lc_err "net add on the loopback net: EINVAL" 22 net add --net lo --if eth0
lc_err "route add with a malformed gateway: EINVAL" 22 route add --net o2ib1 --gateway 192.0.2.300@tcp
lc_err "route add via a gateway on no local net: EHOSTUNREACH" 113 route add --net o2ib1 --gateway 10.99.99.1@tcp9
lc_err "route del of an unknown route: ENOENT" 2 route del --net o2ib1 --gateway 10.99.99.1@tcp9
lc_err "net del of a net that is not up: ENOENT" 2 net del --net tcp7
# lnetctl rejects an unknown tunable as a usage error (exit 2), not YAML
lc_usage "set of an unknown tunable: refused" "unknown tunable 'no_such_tunable'" set no_such_tunable 3
lc_has "routing show: not forwarding" "enable: 0" routing show
lc_has "routing show: no router buffers" "large: 0" routing show
lc_err "set routing 2: EINVAL" 22 set routing 2
lc_ok "set routing 0 (already off)" set routing 0
# not a router: the totals are kept for pools made later
lc_ok "set large_buffers 8 (not forwarding)" set large_buffers 8
t_check "large_router_buffers parameter is 8" test "$(param large_router_buffers)" = 8
lc_has "routing show: still no router buffers" "large: 0" routing show
lc_err "set large_buffers 0: EINVAL" 22 set large_buffers 0
lc_err "set small_buffers beyond half the memory: ENOMEM" 12 set small_buffers 2147483647
t_check "small_router_buffers parameter unchanged" test "$(param small_router_buffers)" = 0
t_check "large_router_buffers parameter still 8" test "$(param large_router_buffers)" = 8
lc_err "set of an out-of-range value: EINVAL" 22 set health_sensitivity 5000
lc_err "set of a non-number: EINVAL" 22 set retry_count many
lc_err "ping of a net that is not local: EHOSTUNREACH" 113 ping 10.99.99.1@tcp9 --timeout 1

# an unprivileged user: reads yes, changes no
if lc_nobody net add --net tcp0 --if eth0; then
	t_fail "nobody: net add refused" "it succeeded"
elif grep -q 'errno: -13$' "$ERR"; then
	t_ok "nobody: net add refused with EACCES"
else
	t_fail "nobody: net add refused with EACCES" "$(tr '\n' ' ' <"$ERR")"
fi
if lc_nobody net show && grep -qF "nid: 0@lo" "$OUT"; then
	t_ok "nobody: net show works"
else
	t_fail "nobody: net show works" "$(tr '\n' ' ' <"$ERR")"
fi
if lc_nobody stats show; then
	t_ok "nobody: stats show works"
else
	t_fail "nobody: stats show works" "$(tr '\n' ' ' <"$ERR")"
fi
if lc_nobody lnet unconfigure; then
	t_fail "nobody: unconfigure refused" "it succeeded"
else
	t_ok "nobody: unconfigure refused"
fi
if lc_nobody set retry_count 4; then
	t_fail "nobody: set refused" "it succeeded"
else
	t_ok "nobody: set refused"
fi
t_check "retry_count still 2" test "$(param lnet_retry_count)" = 2

# another network namespace: changes refused (LNet is init_net only), reads fine
if unshare --net true 2>/dev/null; then
	if unshare --net "$LNETCTL" net add --net tcp5 --if lo >"$OUT" 2>"$ERR"; then
		t_fail "other netns: net add refused" "it succeeded"
	elif grep -q 'errno: -95$' "$ERR"; then
		t_ok "other netns: net add refused with EOPNOTSUPP"
	else
		t_fail "other netns: net add refused with EOPNOTSUPP" "$(tr '\n' ' ' <"$ERR")"
	fi
	t_check "other netns: refusal logged" sh -c "dmesg | grep -q 'lnet: .*network namespace other than the initial one'"
	if unshare --net "$LNETCTL" lnet unconfigure >"$OUT" 2>"$ERR"; then
		t_fail "other netns: unconfigure refused" "it succeeded"
	else
		t_ok "other netns: unconfigure refused"
	fi
	t_check "other netns: net show works" sh -c "unshare --net '$LNETCTL' net show | grep -qF 'nid: 0@lo'"
else
	t_log "skip: other netns checks (no network namespaces in this kernel)"
fi

# bogus ioctls
if t_check "lnet-ioctlfuzz built (make tools)" test -x "$FUZZ"; then
	t_bad_ioctls root
	t_bad_ioctls user "${NOBODY[@]}"
fi
lc_has "LNet fine after the bogus ioctls" "nid: 0@lo" net show

# ---- tcp nets and routes ---------------------------------------------------------
if [ $have_tcp = 1 ]; then
	me0=$(t_addr_on eth0)
	gw=${me0%.*}.200
	# credits that differ from ksocklnd's defaults (256, 8): the NI's own
	# configuration must win over the LND's startup() defaults
	lc_ok "net add tcp0 on eth0" net add --net tcp0 --if eth0 \
		--peer-credits 16 --credits 300
	lc_has "net show: tcp0 NID" "nid: $me0@tcp" net show
	lc_has "net show: tcp0 interface" "0: eth0" net show --net tcp0
	lc_has "net show -v: tcp0 peer_credits as configured" "peer_credits: 16" \
		net show -v --net tcp0
	lc_has "net show -v: tcp0 credits as configured" "credits: 300" \
		net show -v --net tcp0
	lc_err "net add tcp0 on eth0 again: EEXIST" 17 net add --net tcp0 --if eth0
	lc_err "net add with a missing interface: ENODEV (socklnd)" 19 net add --net tcp1 --if nosuch0
	# per-NI LND tunables reach ksocklnd, which applies them and reports
	# what it runs with
	lc_ok "net add tcp2 on eth1 with conns_per_peer 3, tos 46, lnd timeout, router credits" \
		net add --net tcp2 --if eth1 --conns-per-peer 3 --tos 46 --peer-buffer-credits 4
	lc_has "net show -v: tcp2 conns_per_peer 3" "conns_per_peer: 3" net show -v --net tcp2
	lc_has "net show -v: tcp2 tos 46" "tos: 46" net show -v --net tcp2
	lc_has "net show -v: tcp2 timeout 0 (sock_timeout's)" "timeout: 0" net show -v --net tcp2
	lc_has "net show -v: tcp2 peer_buffer_credits 4" "peer_buffer_credits: 4" \
		net show -v --net tcp2
	t_check "ksocklnd: tcp2 runs 3 bulk connections per direction" \
		sh -c "dmesg | grep -q '@tcp2 up on eth1 (3 bulk connection(s) per direction)'"
	lc_has "net show -v: tcp0 conns_per_peer from the link speed (1)" "conns_per_peer: 1" \
		net show -v --net tcp0
	lc_ok "net del tcp2" net del --net tcp2
	# the NI's own LND timeout bounds its connects: a silent host (a
	# made-up MAC) on eth1's subnet, from a tcp2 imported with timeout 3
	ghost1=$(t_addr_on eth1)
	ghost1=${ghost1%.*}.201
	ip neigh replace "$ghost1" lladdr 52:54:00:de:ad:02 dev eth1 nud permanent
	cat >/tmp/tcp2.yaml <<-EOF
		net:
		    - net type: tcp2
		      local NI(s):
		        - interfaces:
		              0: eth1
		          lnd tunables:
		              timeout: 3
	EOF
	lc_ok "import tcp2 on eth1 with lnd tunables timeout 3" import /tmp/tcp2.yaml
	lc_has "net show -v: tcp2 timeout 3" "timeout: 3" net show -v --net tcp2
	timed_ping "$ghost1@tcp2" 60
	t_check "a silent host on tcp2: its connects give up after the NI's 3 s, not sock_timeout's 50 ($took s)" \
		test "$took" -le 20
	ip neigh del "$ghost1" dev eth1
	lc_ok "net del tcp2 (imported)" net del --net tcp2
	lc_err "net add --conns-per-peer 200: EINVAL (ksocklnd takes 127)" 22 \
		net add --net tcp2 --if eth1 --conns-per-peer 200
	t_check "... the kernel log says why" \
		sh -c "dmesg | grep -q 'conns_per_peer 200: at most 127'"
	lc_err "net add --peer-timeout 60: EOPNOTSUPP (peers are judged by health)" 95 \
		net add --net tcp2 --if eth1 --peer-timeout 60
	lc_err "net show tcp2 after the refusals: ENOENT (nothing half-added)" 2 net show --net tcp2
	lc_has "ping own tcp NID" "primary nid: $me0@tcp" ping "$me0@tcp"

	# lctl's network verbs, with Lustre's output
	t_check "lctl list_nids: the tcp NID only" test "$("$LCTL" list_nids)" = "$me0@tcp"
	t_check "lctl list_nids all: 0@lo first" test "$("$LCTL" list_nids all | head -n1)" = "0@lo"
	t_check "lctl ping own NID: its ids" sh -c "'$LCTL' ping '$me0@tcp' 5 | grep -qx '12345-$me0@tcp'"
	t_check "lctl ping a bad id: usage error" sh -c "'$LCTL' ping '$me0@tcq'; test \$? = 2"
	t_check "lctl network up when up: LNET configured" test "$("$LCTL" network up)" = "LNET configured"

	# debugfs stats, nis and peers in Lustre's column formats
	D=/sys/kernel/debug/lnet
	cat $D/stats $D/nis $D/peers
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "debugfs stats: one line of 11 numbers" \
		awk 'NR > 1 || NF != 11 { exit 1 } { for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/) exit 1 }' $D/stats
	sends=$(awk '{ print $4 }' $D/stats)
	t_check "debugfs stats: send_count counts the pings ($sends)" test "$sends" -ge 1
	echo 0 >$D/stats
	t_check "debugfs stats: a write resets the counters" test "$(awk '{ print $4 }' $D/stats)" -lt "$sends"
	t_check "debugfs nis: Lustre's header" test "$(head -n1 $D/nis)" = \
		"$(printf '%-24s %6s %5s %4s %4s %4s %5s %5s %5s' nid status alive refs peer rtr max tx min)"
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "debugfs nis: tcp0 up with its configured credits" \
		awk -v n="$me0@tcp" '$1 == n && $2 == "up" && $5 == 16 && $7 == 300 { f = 1 } END { exit !f }' $D/nis
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "debugfs nis: lo alive 0" awk '$1 == "0@lo" && $3 == 0 { f = 1 } END { exit !f }' $D/nis
	t_check "debugfs peers: Lustre's header" test "$(head -n1 $D/peers)" = \
		"$(printf '%-24s %4s %5s %5s %5s %5s %5s %5s %5s %s' nid refs state last max rtr min tx min queue)"
	t_check "debugfs peers: 10 fields a row" awk 'NR > 1 && NF != 10 { exit 1 }' $D/peers
	t_check "debugfs stats_detail: named counters" grep -q '^send_count: ' $D/stats_detail
	t_check "debugfs nis_detail: tcp0 on eth0" grep -q "^$me0@tcp up eth0 " $D/nis_detail
	lc_ok "route add via $gw@tcp" route add --net o2ib1 --gateway "$gw@tcp" --hop 2 --priority 1
	lc_has "route show: gateway" "gateway: $gw@tcp" route show
	lc_has "route show -v: hop" "hop: 2" route show -v
	lc_has "route show -v: multi-hop" "type: multi-hop" route show -v
	# nobody answers at $gw: the checker's ping fails and the route
	# goes down (ARP gives up within seconds)
	t_retry "route show -v: down once the gateway's ping failed" 60 \
		sh -c "'$LNETCTL' route show -v | grep -q 'state: down'"
	t_check "lctl route_list: Lustre's columns" \
		sh -c "'$LCTL' route_list | tr -s ' ' | grep -qxF 'net o2ib1 hops 2 gw $gw@tcp down pri 1'"
	# which_nid: LNetDist through /dev/lnet (LNET_DIST)
	t_check "lctl which_nid: a routed, a local-net and our own NID: ours" \
		test "$("$LCTL" which_nid 10.1.1.1@o2ib1 "$gw@tcp" "$me0@tcp")" = "$me0@tcp"
	t_check "lctl which_nid: a routed and a local-net NID: the local net's" \
		test "$("$LCTL" which_nid 10.1.1.1@o2ib1 "$gw@tcp")" = "$gw@tcp"
	t_check "lctl which_nid: routed (2 hops) over unreachable" \
		test "$("$LCTL" which_nid 10.1.1.1@tcp7 10.1.1.1@o2ib1)" = "10.1.1.1@o2ib1"
	t_check "lctl which_nid: nothing reachable: exit 1" \
		sh -c "'$LCTL' which_nid 10.1.1.1@tcp7; test \$? = 1"
	lc_err "route add twice: EEXIST" 17 route add --net o2ib1 --gateway "$gw@tcp"
	lc_err "route add to a local net: EINVAL" 22 route add --net tcp0 --gateway 10.99.99.1@tcp9
	lc_ok "route add a second one" route add --net o2ib2 --gateway "$gw@tcp"

	# export / unconfigure / configure / import / export: identical
	lc_ok "export" export /tmp/export1.yaml
	cat /tmp/export1.yaml
	lc_ok "unconfigure (tcp0 and routes up)" lnet unconfigure
	lc_err "net show after unconfigure: ENETDOWN" 100 net show
	lc_ok "configure" lnet configure
	lc_lacks "routes gone with LNet" "gateway:" route show
	lc_ok "import" import /tmp/export1.yaml
	lc_ok "export again" export /tmp/export2.yaml
	# a route's state is what its gateway's last ping said, not
	# configuration: the unreachable gateway's route is down until the
	# checker has pinged it again
	grep -v 'state:' /tmp/export1.yaml >/tmp/export1.nostate
	grep -v 'state:' /tmp/export2.yaml >/tmp/export2.nostate
	t_check "export, unconfigure, configure, import, export: identical (route state aside)" \
		diff -u /tmp/export1.nostate /tmp/export2.nostate
	lc_ok "export --backup" export --backup /tmp/backup1.yaml
	t_check "export --backup: no route state" sh -c "! grep -q 'state:' /tmp/backup1.yaml"

	# an ip2nets section (Lustre's YAML form): tcp3 on the interface
	# whose address is in the range; a rule matching no address fails
	# the import with nothing applied
	cat >/tmp/ip2nets.yaml <<-EOF
	ip2nets:
	    - net-spec: tcp3
	      ip-range:
	          0: ${me0%.*}.*
	      tunables:
	          peer_credits: 12
	EOF
	lc_ok "import an ip2nets section" import /tmp/ip2nets.yaml
	lc_has "ip2nets import: tcp3 NI" "nid: $me0@tcp3" net show --net tcp3
	lc_has "ip2nets import: tcp3 on eth0" "0: eth0" net show --net tcp3
	lc_has "ip2nets import: tunables applied" "peer_credits: 12" net show -v --net tcp3
	lc_ok "net del tcp3" net del --net tcp3
	cat >/tmp/ip2nets-bad.yaml <<-EOF
	net:
	    - net type: tcp4
	      local NI(s):
	        - interfaces: eth0
	ip2nets:
	    - net-spec: tcp5
	      ip-range: 203.0.113.*
	EOF
	lc_err "import an ip2nets rule matching no address: ENODEV" 19 import /tmp/ip2nets-bad.yaml
	t_check "the ip2nets failure says why" \
		grep -q "ip2nets rule for tcp5: no interface that is up has an address in an ip-range" "$ERR"
	lc_lacks "nothing of that file applied" "@tcp4" net show

	lc_ok "route del" route del --net o2ib1 --gateway "$gw@tcp"
	lc_lacks "route show: deleted" "net: o2ib1" route show
	lc_err "route del again: ENOENT" 2 route del --net o2ib1 --gateway "$gw@tcp"
	lc_ok "route del the second" route del --net o2ib2 --gateway "$gw@tcp"

	# UNCONFIGURE while a ping holds LNet: EBUSY. The target's MAC is
	# made up, so its TCP connection hangs instead of failing at once.
	ghost=${me0%.*}.201
	ip neigh replace "$ghost" lladdr 52:54:00:de:ad:01 dev eth0 nud permanent
	old_timeout=$(cat /sys/module/ksocklnd/parameters/sock_timeout)
	echo 10 >/sys/module/ksocklnd/parameters/sock_timeout
	"$LNETCTL" ping "$ghost@tcp" --timeout 8 >/tmp/ping.bg 2>&1 &
	pingpid=$!
	sleep 2
	lc_err "unconfigure while a ping is in flight: EBUSY" 16 lnet unconfigure
	wait $pingpid
	cat /tmp/ping.bg
	t_check "the ping of a silent host failed" grep -q "errno:" /tmp/ping.bg

	# sock_timeout 0: ksocklnd takes lnet_lnd_timeout, which shares
	# transaction_timeout among the retry_count + 1 tries (spec 3.4)
	lc_has "global show: lnd_timeout 49 ((150 - 1) / 3)" "lnd_timeout: 49" global show
	lc_ok "net set --net tcp --lnd-timeout 0" net set --net tcp --lnd-timeout 0
	t_check "... ksocklnd's sock_timeout is 0" \
		test "$(cat /sys/module/ksocklnd/parameters/sock_timeout)" = 0
	lc_ok "set transaction_timeout 13" set transaction_timeout 13
	lc_has "global show: lnd_timeout 4 ((13 - 1) / 3)" "lnd_timeout: 4" global show
	t_check "lnet_lnd_timeout parameter is read-only" \
		sh -c "! echo 5 2>/dev/null >$PARAMS/lnet_lnd_timeout"
	timed_ping "$ghost@tcp" 40
	# (its REPLY's response tracking would end it only at 13 s)
	t_check "the silent host's connect times out after lnd_timeout, not the ping's 40 s ($took s)" \
		test "$took" -le 10
	t_check "... so the ping failed" grep -q "errno:" /tmp/ping.bg
	lc_ok "set transaction_timeout 150" set transaction_timeout 150
	lc_ok "net set --net tcp --lnd-timeout $old_timeout" \
		net set --net tcp --lnd-timeout "$old_timeout"
	t_check "... ksocklnd's sock_timeout is $old_timeout again" \
		test "$(cat /sys/module/ksocklnd/parameters/sock_timeout)" = "$old_timeout"
	lc_err "net set --net lo --lnd-timeout 5: EINVAL" 22 net set --net lo --lnd-timeout 5
	ip neigh del "$ghost" dev eth0

	lc_ok "net del --net tcp0" net del --net tcp0
	lc_lacks "net show: tcp0 gone" "@tcp" net show
	lc_err "net del --net tcp0 again: ENOENT" 2 net del --net tcp0
	lc_ok "net add by NID" net add --net tcp0 --nid "$me0@tcp"
	lc_has "net show: NI by NID" "nid: $me0@tcp" net show
	lc_err "net add of a NID no interface has: EADDRNOTAVAIL" 99 net add --net tcp3 --nid 10.99.99.99@tcp3
	lc_ok "net del --nid" net del --net tcp0 --nid "$me0@tcp"
	lc_ok "net add --ip2net" net add --ip2net "tcp5 ${me0%.*}.*; tcp6 10.255.255.*"
	lc_has "ip2net rule chose eth0 for tcp5" "nid: $me0@tcp5" net show
	lc_lacks "ip2net rule without a match added nothing" "@tcp6" net show
	lc_ok "net del tcp5" net del --net tcp5
	lc_ok "net add on eth0 again" net add --net tcp0 --if eth0
	lc_ok "net del --if eth0" net del --net tcp0 --if eth0
	lc_lacks "net show: tcp0 gone again" "@tcp" net show
	lc_err "net del --if eth0 again: ENOENT" 2 net del --net tcp0 --if eth0
else
	# not a result: the suite's one-guest run has no NIC (lnetctl-2 has)
	t_log "no tcp part: ksocklnd.ko $have_sock, eth0 '$(t_addr_on eth0)'"
	# the round trip with what there is (0@lo, globals)
	lc_ok "export" export /tmp/export1.yaml
	lc_ok "unconfigure" lnet unconfigure
	lc_ok "configure" lnet configure
	lc_ok "import" import /tmp/export1.yaml
	lc_ok "export again" export /tmp/export2.yaml
	t_check "export, unconfigure, configure, import, export: identical" diff -u /tmp/export1.yaml /tmp/export2.yaml
fi

# ---- two guests: traffic ----------------------------------------------------------
if [ $have_tcp = 1 ] && [ "$GUEST_COUNT" -ge 2 ]; then
	p0=$(peer_ip_on eth0)
	p1=$(peer_ip_on eth1)
	lc_ok "net add tcp0 on eth0 (2 guests)" net add --net tcp0 --if eth0
	t_retry "LNet ping of guest 1 ($p0@tcp)" 90 "$LNETCTL" ping "$p0@tcp" --timeout 2
	lc_has "ping lists guest 1's NID" "nid: $p0@tcp" ping "$p0@tcp"
	lc_has "peer show lists guest 1" "primary nid: $p0@tcp" peer show
	lc_has "peer show -v credits" "max_ni_tx_credits:" peer show -v
	# peer add: guest 1 stays a peer (export writes it) until peer del
	absent=${p0%.*}.203
	lc_ok "peer add guest 1 (a peer already)" peer add --prim_nid "$p0@tcp" --non_mr
	lc_err "peer add guest 1 again: EEXIST" 17 peer add --prim_nid "$p0@tcp"
	lc_has "export: the configured peer" "primary nid: $p0@tcp" export --backup
	lc_ok "peer add a host never talked to" peer add --prim_nid "$absent@tcp"
	lc_has "peer show: it is a peer" "primary nid: $absent@tcp" peer show
	lc_ok "peer add a second NID to it (Multi-Rail)" \
		peer add --prim_nid "$absent@tcp" --nid "10.9.9.9@tcp1"
	lc_has "peer show: its second NID" "nid: 10.9.9.9@tcp1" peer show
	lc_err "peer add that NID again: EEXIST" 17 \
		peer add --prim_nid "$absent@tcp" --nid "10.9.9.9@tcp1"
	lc_ok "peer del it" peer del --prim_nid "$absent@tcp"
	lc_lacks "peer show: it is gone" "$absent@tcp" peer show
	lc_err "peer del it again: ENOENT" 2 peer del --prim_nid "$absent@tcp"
	lc_err "peer add on a net with no NI here: EHOSTUNREACH" 113 \
		peer add --prim_nid "$p0@tcp7"
	lc_err "peer add a second NID to a --non_mr peer: EINVAL" 22 \
		peer add --prim_nid "$p0@tcp" --nid "10.9.9.9@tcp1"
	# guest 1's own pings may hold it for a moment: EBUSY then
	t_retry "peer del guest 1" 10 "$LNETCTL" peer del --prim_nid "$p0@tcp"
	lc_lacks "export: no configured peer left" "primary nid:" export --backup
	lc_has "a ping makes guest 1 a peer again" "nid: $p0@tcp" ping "$p0@tcp"

	# conns_per_peer at run time (guest 1 takes 2): the missing bulk
	# connections come with the next sends
	lc_ok "net set tcp0 conns_per_peer 2" net set --nid "$me0@tcp" --conns-per-peer 2
	lc_has "net show -v: tcp0 conns_per_peer 2" "conns_per_peer: 2" net show -v --net tcp0
	t_retry "1 control and 2 bulk connections each way with guest 1" 20 sh -c \
		"'$LNETCTL' ping '$p0@tcp' --timeout 2; test \$(ss -Htn state established '( sport = :988 or dport = :988 )' dst '$p0' | wc -l) -ge 5"
	ss -tn state established dst "$p0"
	lc_err "net set conns_per_peer 128: EINVAL" 22 net set --all --conns-per-peer 128
	lc_ok "net set --all conns_per_peer 0 (the default)" net set --all --conns-per-peer 0
	lc_has "net show -v: tcp0 conns_per_peer 1 again (link speed)" "conns_per_peer: 1" \
		net show -v --net tcp0
	cat /sys/kernel/debug/lnet/peers
	# shellcheck disable=SC2016 # awk's fields, not the shell's
	t_check "debugfs peers: guest 1 with its credits, nothing queued" \
		awk -v n="$p0@tcp" '$1 == n && NF == 10 && $3 == "NA" && $5 >= 1 && $8 <= $5 && $10 == 0 { f = 1 } END { exit !f }' \
		/sys/kernel/debug/lnet/peers
	if [ -n "$p1" ]; then
		# pings on tcp0 while tcp1 comes and goes: none may fail
		(
			fails=0
			for ((i = 0; i < 40; i++)); do
				"$LNETCTL" ping "$p0@tcp" --timeout 5 >/dev/null 2>&1 || fails=$((fails + 1))
			done
			echo "$fails" >/tmp/tcp0.fails
		) &
		bg=$!
		for ((k = 0; k < 4; k++)); do
			lc_ok "net add tcp1 on eth1 (round $k, traffic on tcp0)" net add --net tcp1 --if eth1
			lc "ping" "$p1@tcp1" --timeout 5
			lc_ok "net del tcp1 (round $k, traffic on tcp0)" net del --net tcp1
		done
		wait $bg
		t_check "tcp0 pings undisturbed while tcp1 came and went" test "$(cat /tmp/tcp0.fails)" = 0

		# deleting tcp1 while it carries pings: they fail, nothing breaks
		lc_ok "net add tcp1 on eth1" net add --net tcp1 --if eth1
		t_retry "LNet ping over tcp1" 30 "$LNETCTL" ping "$p1@tcp1" --timeout 2
		(
			ok=0 failed=0
			for ((i = 0; i < 30; i++)); do
				if "$LNETCTL" ping "$p1@tcp1" --timeout 3 >/dev/null 2>&1; then
					ok=$((ok + 1))
				else
					failed=$((failed + 1))
				fi
			done
			echo "$ok $failed" >/tmp/tcp1.pings
		) &
		bg=$!
		sleep 3
		lc_ok "net del tcp1 under traffic" net del --net tcp1
		wait $bg
		read -r ok failed </tmp/tcp1.pings
		echo "pings on tcp1: $ok answered, $failed failed"
		t_check "pings on tcp1 fail once it is deleted" test "$failed" -gt 0
		lc_lacks "tcp1 gone" "@tcp1" net show
		lc_has "tcp0 still works after that" "nid: $p0@tcp" ping "$p0@tcp"
	fi
	lc_has "stats show counts the traffic" "send_count:" stats show
	if grep -q "^ *send_count: 0$" "$OUT"; then
		t_fail "send_count grew" "still 0"
	else
		t_ok "send_count grew"
	fi
fi

lc_ok "unconfigure" lnet unconfigure
unload_all
