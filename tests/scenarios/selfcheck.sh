#!/bin/bash
# Guest side of a bench self-check: load one module that makes the debug
# kernel report a failure (kunit, lockdep or kasan). The runner is started
# with --expect and passes only if it notices the report.
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"
which=$1
t_insmod "load selfcheck_$which" "$LNET_MODDIR/tests/selfcheck/selfcheck_$which.ko"
t_kunit_collect
t_check "unload selfcheck_$which" rmmod "selfcheck_$which"
