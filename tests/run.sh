#!/bin/sh
# Runs every unit test binary given as arguments, then every integration
# script in tests/cli and tests/tui, and prints one closing tally line.
# Integration scripts print "PASS: name" / "FAIL: name" per check (see
# tests/lib.sh); a script that exits non-zero without a FAIL line counts as
# one failure.
# Under `make asan`: CPython's intentional leaks are not ours (lsan.supp).
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

passed=0
failed=0
failures=""
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for t in "$@"; do
	"$t" >"$out" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	p=${p:-0}; f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		failures="$failures $(basename "$t")"
		cat "$out"
	fi
	echo "unit $(basename "$t"): $p passed, $f failed"
done

if [ -z "$FRONTS_ONLY_UNIT" ]; then
	for s in tests/cli/test_*.sh tests/tui/test_*.sh; do
		[ -f "$s" ] || continue
		sh "$s" >"$out" 2>&1
		rc=$?
		p=$(grep -c '^PASS: ' "$out")
		f=$(grep -c '^FAIL: ' "$out")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		passed=$((passed + p)); failed=$((failed + f))
		if [ "$f" -ne 0 ]; then
			failures="$failures $(basename "$s")"
			cat "$out"
		fi
		echo "integration $(basename "$s"): $p passed, $f failed"
	done
fi

[ -n "$failures" ] && echo "failing:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
