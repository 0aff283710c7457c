#!/usr/bin/env bash
# make run: from a fresh Debian 12 machine to two guests showing the
# modules at work: install what is missing, build, boot two guests with the
# stock kernel linked by one virtual link, configure tcp0 with lnetctl,
# LNet ping each way and a short bulk transfer with its throughput
# (tests/scenarios/run-demo.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export LNET_TOP=$top

scripts/install-deps.sh
# LNET_BENCH=1 adds the test-only lnet_netbench.ko (the bulk transfer);
# make install still installs only lnet.ko and ksocklnd.ko.
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
