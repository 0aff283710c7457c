#!/bin/bash
# PID 1 of a test guest (see Documentation/testing.md, "Guest protocol").
# The root is the host's, read-only over 9p; /mnt is this guest's result
# directory on the host. Whatever happens, write the status and power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

# The set-up below runs a few dozen tools before the script starts. Each
# dynamically linked one reads its libraries over 9p first, about 0.3 s on
# the debug kernel under TCG; the static busybox's applets take 0.1 s.
bb() { /bin/busybox "$@"; }

bb mount -t proc proc /proc
bb mount -t sysfs sysfs /sys
bb mount -t debugfs debugfs /sys/kernel/debug
# kmemleak's own thread scans a minute after boot and every ten minutes:
# 7-8 s of the one vCPU each under TCG, in the middle of a test. The one
# scan that counts is finish()'s, after the test.
[ -w /sys/kernel/debug/kmemleak ] && echo scan=off >/sys/kernel/debug/kmemleak
# The guest gets its own writable /tmp, /root and the like, which hides
# whatever the host keeps there, the work tree included when it was cloned
# under /root or /tmp. Keep a view of the host root first (on /dev, the one
# writable place yet) to show the host paths the run needs again below.
tmpfs_dirs="/tmp /run /var/tmp /var/log /root /var/lib"
hostroot=/dev/.lnt-hostroot
mount --make-rprivate /
bb mkdir -p "$hostroot"
bb mount -o bind / "$hostroot"
for d in $tmpfs_dirs; do
	bb mount -t tmpfs -o mode=0755 tmpfs "$d"
done
bb chmod 1777 /tmp /var/tmp
bb mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /mnt

# show_host_path P: P (an absolute host directory) at its own path again
# if one of the tmpfs mounts hid it.
show_host_path() {
	local p=$1 d
	for d in $tmpfs_dirs; do
		case $p in
		"$d" | "$d"/*)
			bb mkdir -p "$p" && bb mount -o bind "$hostroot$p" "$p" ||
				echo "lnt-guest: cannot show the host's $p" >/dev/kmsg
			return
			;;
		esac
	done
}
if [ -f /mnt/host-paths ]; then
	while IFS= read -r p; do
		[ -n "$p" ] && show_host_path "$p"
	done </mnt/host-paths
fi
bb umount "$hostroot" && bb rmdir "$hostroot"

say() { echo "lnt-guest: $*" >/dev/kmsg; }

finish() {
	local rc=$1
	if [ -w /sys/kernel/debug/kmemleak ]; then
		# Objects younger than ~5 s are never reported: let the test's
		# last frees age before the final scan.
		sleep 6
		echo scan >/sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak >/mnt/kmemleak
	fi
	echo "$rc" >/mnt/status
	sync
	umount /mnt
	say "done, status $rc"
	reboot -f
}

if [ ! -f /mnt/env ]; then
	say "no /mnt/env: the runner did not set this guest up"
	finish 125
fi
set -a
# shellcheck source=/dev/null # the runner writes it for each run
. /mnt/env
set +a
bb hostname "$GUEST_NAME"
bb ip link set lo up

# Stock kernel: NIC driver is a module. Debug kernel: built in.
[ -d /sys/module/e1000 ] || modprobe e1000 2>/dev/null

for spec in $GUEST_ADDRS; do
	ifname=${spec%%=*}
	addr=${spec#*=}
	for ((i = 0; i < 100; i++)); do
		[ -e "/sys/class/net/$ifname" ] && break
		bb sleep 0.2
	done
	bb ip link set "$ifname" up
	bb ip addr add "$addr" dev "$ifname"
	carrier=0
	for ((i = 0; i < 100; i++)); do
		carrier=$(<"/sys/class/net/$ifname/carrier") 2>/dev/null
		[ "$carrier" = 1 ] && break
		bb sleep 0.2
	done
	say "$ifname $addr carrier $carrier"
done

# handover: boot the root that /mnt/handover/lower names (a host directory,
# read-only here, written over through a tmpfs overlay) under systemd, as
# PID 1 still. The script asked for it (tests/scenarios/packages.sh: a node
# installed from the project's packages). /mnt/handover/root/ holds files
# laid over that root (its test unit). /mnt, the work tree and busybox (the
# flags' server) stay at their paths; the root's test unit writes the
# status and powers off. Returns only when the switch failed.
handover() {
	local lower new=/media/lnt-root ovl=/media/lnt-ovl
	lower=$(cat /mnt/handover/lower)
	say "handing over to $lower under systemd"
	mount -t tmpfs -o mode=0755 tmpfs /media &&
		mkdir -p "$ovl/upper" "$ovl/work" "$new" &&
		mount -t overlay overlay \
			-o "lowerdir=$lower,upperdir=$ovl/upper,workdir=$ovl/work" "$new" &&
		cp -a /mnt/handover/root/. "$new/" &&
		mkdir -p "$new/mnt" "$new$LNET_TOP" &&
		touch "$new/usr/local/bin/busybox" &&
		mount --bind /mnt "$new/mnt" &&
		mount --bind "$LNET_TOP" "$new$LNET_TOP" &&
		mount --bind "$(command -v busybox)" "$new/usr/local/bin/busybox" ||
		return 1
	cd "$new" && mount --move . / && exec chroot . /lib/systemd/systemd
	say "handover: cannot start systemd in $lower"
}

say "running $GUEST_SCRIPT $GUEST_ARGS"
# shellcheck disable=SC2086
(cd /tmp && exec bash "$GUEST_SCRIPT" $GUEST_ARGS) >/mnt/script.log 2>&1
rc=$?
if [ "$rc" = 0 ] && [ -f /mnt/handover/lower ]; then
	handover
	rc=125
fi
finish $rc
