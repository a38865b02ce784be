#!/bin/sh
# bench_tui — the TUI's key-to-screen latency while planning on every
# core, and the UI thread's CPU idle and while planning (see
# bench/bench_tui.py). Not a test: the figures depend on the machine.
# BENCH_TUI_KEYS (100) keys, BENCH_TUI_SECONDS (5) per CPU window.
TOP=$(cd "$(dirname "$0")/.." && pwd)
FRONTS=${FRONTS_BIN:-$TOP/build/fronts}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$TOP/fixtures/demo" "$T/demo"
rm -rf "$T/demo/.fronts"
"$FRONTS" -C "$T/demo" approve --yes >/dev/null || exit 1
FRONTS_THEMES="$TOP/themes" /usr/bin/python3 "$TOP/bench/bench_tui.py" \
    "$FRONTS" "$T/demo" "${BENCH_TUI_KEYS:-100}" "${BENCH_TUI_SECONDS:-5}"
