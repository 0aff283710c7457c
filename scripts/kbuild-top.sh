#!/usr/bin/env bash
# Prints the work tree's path for kbuild: the tree itself, or, when its
# path has whitespace (which kbuild's M= cannot take), a symlink to it
# at /tmp/lnet-tree-<hash> made here.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if [[ $top != *[[:space:]]* ]]; then
	echo "$top"
	exit 0
fi
alias=/tmp/lnet-tree-$(printf '%s' "$top" | sha256sum | cut -c1-12)
ln -sfn "$top" "$alias"
echo "$alias"
