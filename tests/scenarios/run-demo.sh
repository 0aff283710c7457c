#!/bin/bash
# make run: two LNet nodes on one virtual link, configured the way an admin
# would (modules loaded without networks=, then lnetctl), an LNet ping each
# way, and a short bulk PUT and GET (1 MiB, 8 in flight) with their
# throughput. Everything printed lands in the guest's script.log, which
# scripts/run.sh shows.
. "$LNET_TOP/scripts/guest/lib.sh"
M=$LNET_MODDIR
LNETCTL=$LNET_TOP/build/tools/lnetctl/lnetctl
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

if [ "$GUEST_INDEX" = 1 ]; then
	t_insmod "bulk server up" "$M/tests/bench/lnet_netbench.ko" role=server || exit 1
	t_retry "bulk client finished" 300 \
		grep -qx 1 /sys/module/lnet_netbench/parameters/finished
	rmmod lnet_netbench
else
	for op in put get; do
		[ "$op" = get ] && last=1 || last=0
		dmesg -C
		if insmod "$M/tests/bench/lnet_netbench.ko" role=client op=$op \
			target="$peer@tcp" size=1048576 inflight=8 seconds=3 last=$last; then
			line=$(dmesg | grep -o 'lnet_netbench: op=.*')
			echo "bulk $op, 1 MiB x8 in flight, 3 s: $line"
			t_check "bulk $op to $peer@tcp" grep -q ' errors=0 ' <<<"$line"
			rmmod lnet_netbench
		else
			t_fail "bulk $op to $peer@tcp" "$(dmesg | grep lnet_netbench | tail -n1)"
		fi
	done
	show "$LNETCTL" peer show
fi
show "$LNETCTL" stats show
t_check "lnetctl lnet unconfigure" "$LNETCTL" lnet unconfigure
t_check "rmmod ksocklnd" rmmod ksocklnd
t_check "rmmod lnet" rmmod lnet
sleep 2
