#!/bin/sh
# `make tsan`: the ThreadSanitizer build under the loads that run threads
# at once — the unit tests given as arguments, `fronts plan` on a terminal
# (whose progress line reads the live search) in both isolations, and the
# TUI polling a running planner in both. Every report fails the run: TSan
# writes each process's reports to $TMPD/tsan.PID (log_path), which must
# stay absent. tsan.supp holds the only suppressions (libraries, never
# fronts' own code). The TSan build has no test binary: these runs are
# the release one's, on purpose (what they check reads no pinned time).
FRONTS_TEST_BIN=${FRONTS_TEST_BIN:-$FRONTS_BIN}
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../tui/tmux.sh"
trap 'tui_stop; rm -rf "$TMPD"' EXIT
failed=0
fail() { echo "FAIL: $1"; [ -n "$2" ] && echo "  $2"; failed=$((failed + 1)); }

TSAN_OPTIONS="suppressions=$TOP/tests/tsan/tsan.supp log_path=$TMPD/tsan exitcode=66 allocator_may_return_null=1 second_deadlock_stack=1"
export TSAN_OPTIONS
# Tests that fork into a seccomp filter cannot run under TSan's runtime
# (see skip.c); they run in `make test`.
FRONTS_TSAN_SKIP='test_seccomp_*'
export FRONTS_TSAN_SKIP

# no_reports NAME — PASS when no process has written a TSan report since
# the last check; the reports go to the output and are cleared.
no_reports() {
	if ls "$TMPD"/tsan.* >/dev/null 2>&1; then
		fail "$1: no ThreadSanitizer report" "$(cat "$TMPD"/tsan.* | head -n 80)"
		rm -f "$TMPD"/tsan.*
	else pass "$1: no ThreadSanitizer report"; fi
}

for t in "$@"; do
	n=$(basename "$t")
	"$t" >"$TMPD/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then pass "$n: passes under TSan"
	else fail "$n: passes under TSan" "exit $rc: $(tail -n 30 "$TMPD/out")"; fi
	no_reports "$n"
done

D="$TMPD/demo"
new_demo "$D"
"$FRONTS" approve -C "$D" --yes >/dev/null 2>&1

# On a terminal, `fronts plan` shows its progress from planner snapshots
# while the search (or the workers' streams) fill them.
for iso in thread process; do
	if python3 "$TOP/tests/pty_drive.py" --out "$TMPD/pty" --timeout 300 \
	    'expect:iterations, ' end -- "$FRONTS" plan -C "$D" \
	    --isolation "$iso" --workers 2 --iterations 3000 >/dev/null 2>&1
	then pass "plan --isolation $iso on a terminal"
	else fail "plan --isolation $iso on a terminal" "$(tail -c 600 "$TMPD/pty")"; fi
	no_reports "plan --isolation $iso"
done

# The TUI polls the live snapshot every frame while the planner runs.
# ("plan ready" is the status message of a finished plan; the :workers
# message before each plan replaces the previous one.)
tui_start 120 40 "$FRONTS tui -C $D; echo EXIT=\$? >$TMPD/exit"
tui_wait "─ Search "
for iso in thread process; do
	tui_cmd "isolation $iso"
	tui_cmd "workers 2"
	tui_cmd "plan 3000"
	check_screen "tui: $iso plan runs to the end" "plan ready"
done
tui_keys q
tui_wait "The plan has not been written"
tui_keys y
check_file "tui: quits cleanly" "EXIT=0" "$TMPD/exit"
no_reports "tui"

echo "tsan: $failed failed"
[ "$failed" -eq 0 ]
