#!/bin/bash
# Two guests: the modules load and unload cleanly, and the guests reach
# each other over their virtual link.
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
t_insmod "load lnet" "$LNET_MODDIR/lnet/lnet.ko"
t_check "lnet listed in /proc/modules" grep -q '^lnet ' /proc/modules
for addr in $(t_peer_addrs); do
	t_retry "ping $addr" 30 ping -c 1 -W 1 "$addr"
done
t_check "unload lnet" rmmod lnet
# Let the peer finish its pings before this guest powers off.
sleep 3
