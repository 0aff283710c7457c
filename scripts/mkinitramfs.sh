#!/usr/bin/env bash
# Build (or reuse) the guests' initramfs: busybox, the stock kernel's
# virtio/9p modules, and an /init that mounts the host root read-only over
# 9p and switch_roots into scripts/guest/init.sh (named on the kernel
# command line as lnt.init=, percent-encoded). The debug kernel has 9p built in and simply
# finds no modules for its version. Prints the image path on the last line.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${LNET_CACHE:-$HOME/.cache/lnet-dev}
kver=$("$top/scripts/stock-kernel.sh")
busybox=/bin/busybox
[ -x "$busybox" ] || { echo "mkinitramfs: $busybox missing (run make deps)" >&2; exit 1; }

key=$(cat "$0" "$busybox" "/lib/modules/$kver/modules.dep" | sha256sum | cut -c1-16)
image=$cache/initramfs-$kver-$key.cpio.gz
if [ -f "$image" ]; then
	echo "$image"
	exit 0
fi
mkdir -p "$cache"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,newroot,lib/modules/"$kver"}
cp "$busybox" "$work/bin/busybox"

# Modules in load order, dependencies first, as modprobe would insert them.
: >"$work/lib/modules/$kver/load"
for m in virtio_pci 9pnet_virtio 9p; do
	modprobe --show-depends -S "$kver" "$m" | while read -r verb path _; do
		[ "$verb" = insmod ] || continue
		name=$(basename "$path")
		grep -qxF "$name" "$work/lib/modules/$kver/load" && continue
		cp "$path" "$work/lib/modules/$kver/$name"
		echo "$name" >>"$work/lib/modules/$kver/load"
	done
done

cat >"$work/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
kver=$(uname -r)
if [ -f /lib/modules/$kver/load ]; then
	while read -r m; do
		insmod /lib/modules/$kver/$m || echo "initramfs: insmod $m failed"
	done </lib/modules/$kver/load
fi
target=
for word in $(cat /proc/cmdline); do
	case "$word" in lnt.init=*) target=${word#lnt.init=} ;; esac
done
# lnet-vmtest percent-encodes the path (a work tree may have spaces in it)
target=$(printf '%b' "$(echo "$target" | sed 's/%\([0-9A-F][0-9A-F]\)/\\x\1/g')")
if ! mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,msize=512000,ro \
	hostroot /newroot; then
	echo "initramfs: cannot mount the host root over 9p"
	reboot -f
fi
if [ -z "$target" ] || [ ! -x "/newroot$target" ]; then
	echo "initramfs: lnt.init='$target' is not an executable on the host root"
	reboot -f
fi
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot "$target"
INIT
chmod +x "$work/init"

(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) >"$image.tmp"
mv "$image.tmp" "$image"
echo "$image"
