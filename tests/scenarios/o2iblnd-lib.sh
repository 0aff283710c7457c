# Sourced by the o2iblnd-*.sh guest scenarios (not one itself): lib.sh,
# lnet_lndtest's paths, ko2iblnd's test knobs (K, test builds only) and
# the counters of /sys/kernel/debug/ko2iblnd/stats.
# shellcheck shell=bash disable=SC2034
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
peer=$(t_peer_addrs | head -n1)
test_ko=$LNET_MODDIR/tests/lndtest/lnet_lndtest.ko
P=/sys/module/lnet_lndtest/parameters
K=/sys/module/ko2iblnd/parameters
STATS=/sys/kernel/debug/ko2iblnd/stats

# kib_load [PARAMS...]: lnet and a test build of ko2iblnd over rxe0.
kib_load() {
	if [ ! -f "$test_ko" ]; then
		t_fail "lnet_lndtest.ko present" "build with LNET_TESTS=1 (stock) or make modules-debug"
		return 1
	fi
	t_lnd_load o2ib "$@" || return 1
	if [ ! -f $K/test_done_extra ]; then
		t_fail "ko2iblnd has its test knobs" "a test build (LNET_KUNIT) is needed"
		return 1
	fi
}

# stat NAME: the counter NAME of our one NI
stat() { awk -v k="$1" '$2 == k { print $3 }' $STATS; }
stat_gt() { test "$(stat "$1")" -gt "$2"; }
stat_is() { test "$(stat "$1")" -eq "$2"; }
stat_le() { test "$(stat "$1")" -le "$2"; }

kib_unload() {
	cat $STATS
	t_check "unload lnet_lndtest" rmmod lnet_lndtest
	t_check "unload ko2iblnd" rmmod ko2iblnd
	t_check "unload lnet" rmmod lnet
}

# kib_server_end: the server's last steps (two-guest scenarios with flags)
kib_server_end() {
	kib_unload
	t_flag_bye 120
	exit 0
}

# kib_client_run1: lnet_lndtest as the peer's client, a short first run
# (results "run1 ...")
kib_client_run1() {
	dmesg -C
	t_insmod "load lnet_lndtest (client run 1)" "$test_ko" mode=client \
		target="$peer@o2ib" count=64 || return 1
	t_lndtest_results run1
}
