#!/bin/bash
# Run lnet.ko's KUnit suites (lnet_kunit.ko) on the debug kernel; the
# suites run while the module loads. Then unload everything: kmemleak and
# lockdep reports from the whole run fail it (runner's console scan).
. "$LNET_TOP/scripts/guest/lib.sh"
t_insmod "load lnet" "$LNET_MODDIR/lnet/lnet.ko" || exit 1
t_insmod "load lnet_kunit (runs the suites)" "$LNET_MODDIR/lnet/tests/lnet_kunit.ko"
t_kunit_collect
[ -n "$(ls /mnt/kunit 2>/dev/null)" ] || t_fail "kunit results present" "no suite results in debugfs"
t_check "unload lnet_kunit" rmmod lnet_kunit
t_check "unload lnet" rmmod lnet
