#!/bin/sh
# Runs every benchmark binary given as arguments (`make bench`) from the
# repository root, so each finds fixtures/ and bench/peer_ismcts.py (the
# pure-Python ISMCTS that bench_search compares the planner against).
# FRONTS_BIN is the fronts binary that worker processes re-execute.
top=$(cd "$(dirname "$0")/.." && pwd)
export FRONTS_TOP="$top"
cd "$top" || exit 1
status=0
for b in "$@"; do
	echo "== $(basename "$b")"
	"$b" || status=1
done
# Shell benchmarks that drive the binary itself (bench_tui: a terminal).
for s in bench/bench_*.sh; do
	[ -f "$s" ] || continue
	echo "== $(basename "$s" .sh)"
	sh "$s" || status=1
done
exit $status
