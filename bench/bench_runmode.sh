#!/bin/sh
# bench_runmode — the time from a post's slot to its publish dialog in the
# TUI's run mode: the test build's clock starts three seconds before a
# slot, run mode is switched on, and the screen is read every 10 ms until
# the dialog shows. Not a test: the figure depends on the machine (the
# UI's tick is 100 ms; the request is prepared on a thread). Needs tmux
# and the test build ($BUILD/fronts-test); BENCH_RUNMODE_ROUNDS (5).
TOP=$(cd "$(dirname "$0")/.." && pwd)
FRONTS=${FRONTS_TEST_BIN:-$TOP/${BUILD:-build}/fronts-test}
if [ ! -x "$FRONTS" ] || ! command -v tmux >/dev/null; then
	echo "bench_runmode: skipped (needs tmux and $FRONTS)"
	exit 0
fi
T=$(mktemp -d)
SOCK=fronts-bench-$$
trap 'tmux -L $SOCK kill-server 2>/dev/null; rm -rf "$T"' EXIT
FRONTS_TEST_NOW=2026-12-01T09:59:57Z /usr/bin/python3 \
    "$TOP/tests/cli/publish_fixture.py" both "$T/p" 9 5 x:d1:4 >/dev/null
# screen_wait REGEX — until the screen matches (10 s at most).
screen_wait() {
	n=0
	until tmux -L $SOCK capture-pane -p -t t 2>/dev/null | grep -qE -- "$1"; do
		sleep 0.01
		n=$((n + 1))
		[ $n -lt 1000 ] || { echo "bench_runmode: no /$1/ on screen" >&2; return 1; }
	done
}
rounds=${BENCH_RUNMODE_ROUNDS:-5}
i=0
while [ $i -lt "$rounds" ]; do
	tmux -L $SOCK kill-server 2>/dev/null
	t0=$(date +%s.%N)
	tmux -L $SOCK -f /dev/null new-session -d -s t -x 120 -y 40 \
	    "env LANG=C.UTF-8 FRONTS_THEMES=$TOP/themes FRONTS_TEST_NOW=2026-12-01T09:59:57Z $FRONTS tui -C $T/p"
	# Keys only once the screen is ready for them (a stray letter is a
	# command of its own).
	screen_wait DRY-RUN || break
	tmux -L $SOCK send-keys -t t ':'
	screen_wait '^:$' || break
	tmux -L $SOCK send-keys -t t -l "open $T/p/plan.json"
	tmux -L $SOCK send-keys -t t Enter
	screen_wait 'opened' || break
	tmux -L $SOCK send-keys -t t R
	while ! tmux -L $SOCK capture-pane -p -t t 2>/dev/null | grep -q 'Publish (dry run)'; do
		sleep 0.01
		[ "$(echo "$(date +%s.%N) - $t0 > 10" | bc)" = 1 ] && break
	done
	t1=$(date +%s.%N)
	echo "$t1 - $t0 - 3" | bc
	i=$((i + 1))
done >"$T/lat"
sort -n "$T/lat" | awk '{a[NR]=$1} END {printf "run mode: slot to dialog, median %.0f ms, max %.0f ms over %d rounds\n", a[int((NR+1)/2)]*1000, a[NR]*1000, NR}'
