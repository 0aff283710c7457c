#!/usr/bin/env bash
# Print the version string of Debian's stock kernel (the one linux-image-amd64
# and linux-headers-amd64 point at), e.g. 6.1.0-56-amd64.
set -euo pipefail
dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) || {
	echo "stock-kernel: linux-headers-amd64 not installed (run scripts/install-deps.sh)" >&2
	exit 1
}
ver=${dep#linux-headers-}
ver=${ver%% *}
ver=${ver%%,*}
[ -d "/usr/src/linux-headers-$ver" ] || {
	echo "stock-kernel: /usr/src/linux-headers-$ver missing" >&2
	exit 1
}
echo "$ver"
