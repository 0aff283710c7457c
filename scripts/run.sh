#!/usr/bin/env bash
# make run: from a fresh Debian 12 machine to two guests showing the
# modules at work: install what is missing, build, boot two guests with the
# stock kernel linked by one virtual link, configure tcp0 with lnetctl,
# LNet ping each way, a short bulk transfer with its throughput, and 10
# seconds of lst brw write and read with lst's stat tables
# (tests/scenarios/run-demo.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export LNET_TOP=$top

scripts/install-deps.sh
# LNET_BENCH=1 adds the test-only lnet_netbench.ko (the bulk transfer);
# make install installs only the product modules (lnet, ksocklnd, ko2iblnd,
# lnet_selftest).
make -s modules LNET_BENCH=1
make -s tools >/dev/null
echo "== booting two guests (stock kernel $(scripts/stock-kernel.sh), TCG)"
rc=0
build/tools/vmtest/lnet-vmtest --suite run --kernel stock --guests 2 --link 0-1 \
	--timeout 400 --script "$top/tests/scenarios/run-demo.sh" --verbose || rc=$?
for g in build/vmtest/run/g*; do
	echo "== $(basename "$g"): what its test script printed"
	sed 's/^/   /' "$g/script.log" 2>/dev/null || echo "   (no output)"
done
exit $rc
