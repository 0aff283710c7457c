#!/usr/bin/env bash
# Install every Debian package the project needs. Idempotent: when all are
# present it only runs dpkg-query and returns in well under a second.
set -euo pipefail

packages=(
	# module builds against the stock kernel, and the stock guest kernel
	build-essential linux-headers-amd64 linux-image-amd64 kmod
	# the debug test kernel
	linux-source-6.1 ccache flex bison bc libelf-dev libssl-dev
	xz-utils cpio dwarves rsync python3
	# static checks
	sparse perl shellcheck
	# guests
	qemu-system-x86 busybox-static iproute2 iputils-ping procps
	# soft-RoCE user space and baselines
	rdma-core ibverbs-utils ibverbs-providers perftest iperf3
	# user-space verbs for lnet-ibpeer (tools/ibpeer)
	libibverbs-dev librdmacm-dev
	# C++ tools
	cmake g++ libgtest-dev libgmock-dev libcli11-dev libyaml-cpp-dev libfmt-dev nlohmann-json3-dev
	# Debian packages (make deb) and the throw-away root they install into
	dpkg-dev debhelper dh-dkms mmdebstrap
	# benchmark charts
	gnuplot-nox
)

missing=()
for p in "${packages[@]}"; do
	case "$p" in \#*) continue ;; esac
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
