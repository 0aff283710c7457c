#!/usr/bin/env bash
# make interop: our modules against a real Lustre 2.17.0 LNet node
# (tests/scenarios/interop.sh, full mode), stock kernel, two guests: over
# tcp with Lustre on guest 0, over o2ib (soft-RoCE) with Lustre on guest 1.
# Each suite prints "suite NAME: N passed, N failed", then the total
# "N passed, N failed"; exit status 1 on any failure. INTEROP_SUITES=
# "tcp:0 o2ib:1" (NET:LUSTRE-GUEST words; empty: none) chooses other runs.
# Then routing with three guests (INTEROP_ROUTING, below), Multi-Rail
# (INTEROP_MR) and the packages (INTEROP_PACKAGES).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export LNET_TOP=$top

log() { echo "interop: $*" >&2; }

scripts/install-deps.sh || { log "install-deps failed"; exit 1; }
make -s modules LNET_BENCH=1 >&2 || { log "make modules failed"; exit 1; }
make -s tools >/dev/null || { log "make tools failed"; exit 1; }
lustre=$(scripts/build-lustre.sh | tail -n1)
[ -d "$lustre" ] || { log "scripts/build-lustre.sh failed"; exit 1; }

total_pass=0
total_fail=0
# count OUT RC SUITE: add a run's result line to the totals
count() {
	local out=$1 rc=$2 suite=$3 line
	echo "$out"
	line=$(grep -E '^suite [^:]+: [0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -n1)
	if [[ $line =~ :\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
		total_pass=$((total_pass + BASH_REMATCH[1]))
		total_fail=$((total_fail + BASH_REMATCH[2]))
		# a failed run must count as a failure whatever its line says
		((rc == 0 || BASH_REMATCH[2] > 0)) || total_fail=$((total_fail + 1))
	else
		echo "suite $suite: 0 passed, 1 failed (exit $rc, no result line)"
		total_fail=$((total_fail + 1))
	fi
	((rc == 0)) || log "$suite failed (exit $rc); logs in build/vmtest/$suite"
}

for run in ${INTEROP_SUITES-tcp:0 o2ib:1}; do
	net=${run%%:*}
	g=${run#*:}
	suite=interop-$net-lustre$g
	log "$suite: $net, Lustre on guest $g"
	out=$(build/tools/vmtest/lnet-vmtest --suite "$suite" \
		--kernel stock --guests 2 --timeout 1200 --env "LUSTRE_DIR=$lustre" \
		--script "$top/tests/scenarios/interop.sh" \
		--arg "$net" --arg "lustre=$g" --arg full)
	count "$out" $? "$suite"
done
# Routing (tests/scenarios/interop-routing.sh): Lustre's node routing
# between two of ours, ours between two of Lustre's, from tcp0 to tcp1 or
# to o2ib0. INTEROP_ROUTING="lustre:tcp ours:tcp lustre:o2ib ours:o2ib"
# (ROUTER:FAR words) chooses other runs; empty: none.
for run in ${INTEROP_ROUTING-lustre:tcp ours:tcp lustre:o2ib ours:o2ib}; do
	r=${run%%:*}
	far=${run#*:}
	suite=interop-routing-$r-$far
	log "$suite: three guests, $r routes tcp0 - ${far}"
	out=$(build/tools/vmtest/lnet-vmtest --suite "$suite" \
		--kernel stock --guests 3 --mem 2048 --timeout 1200 \
		--env "LUSTRE_DIR=$lustre" \
		--script "$top/tests/scenarios/interop-routing.sh" \
		--arg "router=$r" --arg "far=$far")
	count "$out" $? "$suite"
done
# Multi-Rail with Lustre (tests/scenarios/interop-multirail.sh): ours and
# Lustre's node, two rails each, discover each other and run lst over both.
# INTEROP_MR=0 skips it.
if [ "${INTEROP_MR:-1}" = 1 ]; then
	suite=interop-multirail
	log "$suite: ours and Lustre, tcp and tcp1 each"
	out=$(build/tools/vmtest/lnet-vmtest --suite "$suite" \
		--kernel stock --guests 2 --link 0-1 --link 0-1 --timeout 1200 \
		--env "LUSTRE_DIR=$lustre" \
		--script "$top/tests/scenarios/interop-multirail.sh")
	count "$out" $? "$suite"
fi
# The packages (make deb) installed into a throw-away Debian root
# (scripts/pkg-root.sh: dpkg -i, DKMS), booted under systemd with
# lnet.service bringing up Lustre's exported configuration
# (tests/scenarios/packages.sh). INTEROP_PACKAGES=0 skips it.
if [ "${INTEROP_PACKAGES:-1}" = 1 ]; then
	suite=packages
	log "$suite: make deb, install into a Debian root, boot it under systemd"
	root=$top/build/pkgtest/root
	debs=()
	mapfile -t debs < <(scripts/make-deb.sh | grep -v dbgsym)
	if [ ${#debs[@]} -ne 2 ]; then
		echo "suite $suite: 0 passed, 1 failed (make deb failed: build/deb/build.log)"
		total_fail=$((total_fail + 1))
	elif ! scripts/pkg-root.sh "$root" "${debs[@]}" >"$top/build/pkgtest.log" 2>&1; then
		tail -n 20 "$top/build/pkgtest.log" >&2
		echo "suite $suite: 0 passed, 1 failed (pkg-root.sh failed: build/pkgtest.log)"
		total_fail=$((total_fail + 1))
	else
		out=$(build/tools/vmtest/lnet-vmtest --suite "$suite" \
			--kernel stock --guests 2 --timeout 900 --kernel-arg net.ifnames=0 \
			--env "LUSTRE_DIR=$lustre" --env "PKG_ROOT=$root" \
			--script "$top/tests/scenarios/packages.sh")
		count "$out" $? "$suite"
	fi
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
