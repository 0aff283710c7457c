#!/bin/bash
# make run: two LNet nodes on one virtual link, configured the way an admin
# would (modules loaded without networks=, then lnetctl), an LNet ping each
# way, and a short bulk PUT and GET (1 MiB, 8 in flight) with their
# throughput; then 10 seconds of lnet_selftest brw write and read (1 MiB,
# 8 in flight each way, full data checks) driven by lst, with lst's stat
# tables. Everything printed lands in the guest's script.log, which
# scripts/run.sh shows.
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
LST=$LNET_TOP/build/tools/lst/lst
peer=$(t_peer_addrs | head -n1)

show() { echo "\$ $*"; "$@"; }

t_insmod "modprobe lnet (insmod lnet.ko)" "$M/lnet/lnet.ko" || exit 1
t_insmod "modprobe ksocklnd (insmod ksocklnd.ko)" "$M/klnds/socklnd/ksocklnd.ko" || exit 1
t_check "lnetctl lnet configure" show "$LNETCTL" lnet configure
t_check "lnetctl net add --net tcp0 --if eth0" show "$LNETCTL" net add --net tcp0 --if eth0
show "$LNETCTL" net show
t_retry "IP reaches $peer" 60 ping -c 1 -W 1 "$peer"
t_retry "lnetctl ping $peer@tcp" 60 "$LNETCTL" ping "$peer@tcp"
show "$LNETCTL" ping "$peer@tcp"
t_insmod "modprobe lnet_selftest (insmod lnet_selftest.ko)" \
	"$M/lnet/selftest/lnet_selftest.ko" || exit 1

if [ "$GUEST_INDEX" = 1 ]; then
	t_insmod "bulk server up" "$M/tests/bench/lnet_netbench.ko" role=server || exit 1
	t_retry "bulk client finished" 300 \
		grep -qx 1 /sys/module/lnet_netbench/parameters/finished
	rmmod lnet_netbench
	t_retry "lst session over" 300 \
		sh -c "dmesg | grep -q 'lnet_selftest: session .* ended'"
else
	for op in put get; do
		[ "$op" = get ] && last=1 || last=0
		dmesg -C
		if insmod "$M/tests/bench/lnet_netbench.ko" role=client op="$op" \
			target="$peer@tcp" size=1048576 inflight=8 seconds=3 last="$last"; then
			line=$(dmesg | grep -o 'lnet_netbench: op=.*')
			echo "bulk $op, 1 MiB x8 in flight, 3 s: $line"
			t_check "bulk $op to $peer@tcp" grep -q ' errors=0 ' <<<"$line"
			rmmod lnet_netbench
		else
			t_fail "bulk $op to $peer@tcp" "$(dmesg | grep lnet_netbench | tail -n1)"
		fi
	done
	show "$LNETCTL" peer show

	me=$(ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1 | head -n1)
	export LST_SESSION=$$
	show "$LST" new_session demo
	t_retry "lst add_group servers $peer@tcp" 60 "$LST" add_group servers "$peer@tcp"
	show "$LST" add_group clients "$me@tcp"
	show "$LST" add_batch bulk
	show "$LST" add_test --batch bulk --concurrency 8 --from clients --to servers \
		brw write size=1M check=full
	show "$LST" add_test --batch bulk --concurrency 8 --from clients --to servers \
		brw read size=1M check=full
	show "$LST" run bulk
	t_check "lst stat: 10 s of brw write and read" show "$LST" stat --count 2 --delay 5 servers
	show "$LST" stop bulk
	sleep 2
	errors=$("$LST" show_error clients servers 2>&1)
	echo "$errors"
	t_no_error_nodes "lst show_error: no error node" "$errors" clients servers
	t_check "lst end_session" show "$LST" end_session
fi
t_check "rmmod lnet_selftest" rmmod lnet_selftest
show "$LNETCTL" stats show
t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
t_check "rmmod ksocklnd" rmmod ksocklnd
t_check "rmmod lnet" rmmod lnet
sleep 2
