#!/usr/bin/env bash
# make bench: not yet. The benchmarks (matching cost, lock scaling, LND
# throughput against raw TCP and verbs baselines) come with the issues that
# build what they measure; until then this says so instead of printing
# numbers that mean nothing.
echo "make bench: no benchmarks yet (see Documentation/testing.md)" >&2
exit 2
