#!/bin/bash
# Two guests, each an LNet node on NET0(eth0): NET is the argument, tcp
# (ksocklnd) or o2ib (ko2iblnd over soft-RoCE on eth0). Each loads
# lnet_lndtest.ko mode=both: its server, then its client against the other
# guest (ping, PUT/GET of 0 B..1 MiB from contiguous and page MDs with every
# byte checked, a stream with 8 in flight), so traffic flows both ways at
# once. Every "lnet_lndtest: ok/not ok" line becomes a result. A guest
# unloads only once the other guest's client said it is done and the other
# guest has listed its connections (flag "listed"): unloading closes them.
#
# Run: lnet-vmtest --suite socklnd --kernel debug --guests 2 --timeout 600 \
#	--script $LNET_TOP/tests/scenarios/lnd.sh --arg tcp
# (stock kernel: build with make modules LNET_TESTS=1)
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
# shellcheck source=tests/scenarios/lnd-trace-lib.sh
. "$LNET_TOP/tests/scenarios/lnd-trace-lib.sh"
M=$LNET_MODDIR
peer=$(t_peer_addrs | head -n1)
me=g$GUEST_INDEX
test_ko=$M/tests/lndtest/lnet_lndtest.ko
net=${1:-tcp}

if [ ! -f "$test_ko" ]; then
	t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
	exit 1
fi
if [ "$net" = tcp ]; then
	t_lnd_load tcp dump_hello=1 || exit 1
else
	t_lnd_load "$net" || exit 1
fi
lt_trace_on "$net" || exit 1

start=$(date +%s)
t_insmod "load lnet_lndtest (server + client of $peer@$net)" "$test_ko" \
	mode=both target="$peer@$net" || exit 1
echo "client run took $(($(date +%s) - start)) s"

# One result per client check (t_lndtest_results writes them to /tmp/checks).
t_lndtest_results "$me->$peer"
t_check "client checks reported" test "$(wc -l </tmp/checks)" -ge 30
lt_trace_check_traffic "$peer" "$net"

# The hellos this guest sent and received, for the record.
[ "$net" = tcp ] && dmesg | grep -E 'ksocklnd(: hello| hello:)' >/mnt/hello.txt

# The LND's own tables through lctl while lnet_lndtest's connections are
# up: the peer, and its connections (ksocklnd: control, bulk-in and
# bulk-out, conns_per_peer being 1 for the guests' NIC of unknown speed;
# ko2iblnd: at least one).
LCTL=$LNET_TOP/build/tools/lctl/lctl
peer_at="^([0-9]+-)?${peer//./\\.}@$net "
peer_listed() {
	local out
	out=$("$LCTL" --net "$net" peer_list | grep -E "$peer_at") || return 1
	[ "$net" != tcp ] || grep -q '#3$' <<<"$out"
}
conns_listed() {
	local out t
	out=$("$LCTL" --net "$net" conn_list | grep -E "$peer_at") || return 1
	[ "$net" = tcp ] || return 0
	[ "$(wc -l <<<"$out")" = 3 ] || return 1
	for t in C I O; do
		grep -q " $t\[" <<<"$out" || return 1
	done
}
t_retry "lctl --net $net peer_list: $peer@$net" 30 peer_listed
t_retry "lctl --net $net conn_list: the connections to $peer@$net" 30 conns_listed
"$LCTL" --net "$net" peer_list
"$LCTL" --net "$net" conn_list
t_flag_set listed

# Stay up (serving) until the other guest's client is done with us and the
# other guest has seen its connections to us.
t_retry "peer's client done" 600 \
	grep -qx '[1-9][0-9]*' /sys/module/lnet_lndtest/parameters/peer_done
t_flag_wait listed 600

t_check "unload lnet_lndtest (live connections)" rmmod lnet_lndtest
lt_trace_save	# the LND's unload empties the trace buffers
t_check "unload $LND_NAME" rmmod "$LND_NAME"
t_check "unload lnet" rmmod lnet
lt_trace_check_closed "$peer" "$net"

# ko2iblnd's per-NI LND tunables, on an NI of its own made by lnetctl after
# the run: ntx sizes its tx pool; peercredits_hiw, concurrent_sends,
# timeout and tos are the NI's; conns_per_peer other than 1 is refused.
if [ "$net" = o2ib ]; then
	LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
	t_insmod "load lnet (no networks)" "$M/lnet/lnet.ko" || exit 1
	t_insmod "load ko2iblnd" "$M/klnds/o2iblnd/ko2iblnd.ko" || exit 1
	t_check "lnetctl lnet configure" "$LNETCTL" lnet configure
	cat >/tmp/o2ib-tunables.yaml <<-YAML
		net:
		    - net type: o2ib
		      local NI(s):
		        - interfaces:
		              0: eth0
		          lnd tunables:
		              peercredits_hiw: 5
		              concurrent_sends: 12
		              ntx: 64
		              timeout: 7
		              tos: 46
	YAML
	t_check "import o2ib0 with its own lnd tunables" \
		"$LNETCTL" import /tmp/o2ib-tunables.yaml
	"$LNETCTL" net show -v --net o2ib | tee /tmp/o2ib-show.yaml
	for kv in "ntx: 64" "peercredits_hiw: 5" "concurrent_sends: 12" "timeout: 7" "tos: 46"; do
		t_check "net show -v: o2ib0 $kv" grep -q "^ *$kv\$" /tmp/o2ib-show.yaml
	done
	t_check "debugfs stats: a pool of 64 txs" sh -c \
		"awk '\$2 == \"txs\" { print \$3 }' /sys/kernel/debug/ko2iblnd/stats | grep -qx 64"
	t_check "net add --conns-per-peer 2 refused (one connection per peer)" \
		sh -c "! '$LNETCTL' net add --net o2ib1 --if eth0 --conns-per-peer 2"
	t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
	t_check "unload ko2iblnd (per-NI tunables)" rmmod ko2iblnd
	t_check "unload lnet (per-NI tunables)" rmmod lnet
fi

# Neither guest powers off while the other may still ask for "listed".
t_flag_bye 60
