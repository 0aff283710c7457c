#!/usr/bin/env bash
# make run: from a fresh Debian 12 machine to two guests showing the
# modules at work: install what is missing, build, boot two guests with the
# stock kernel, load and unload lnet.ko and ping across the virtual link.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export LNET_TOP=$top

scripts/install-deps.sh
make -s modules
make -s tools >/dev/null
echo "== booting two guests (stock kernel $(scripts/stock-kernel.sh), TCG)"
rc=0
build/tools/vmtest/lnet-vmtest --suite run --kernel stock --guests 2 --timeout 300 \
	--script "$top/tests/scenarios/smoke.sh" --verbose || rc=$?
for g in build/vmtest/run/g*; do
	echo "== $(basename "$g"): what its test script printed"
	sed 's/^/   /' "$g/script.log" 2>/dev/null || echo "   (no output)"
done
exit $rc
