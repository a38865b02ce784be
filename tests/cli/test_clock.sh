#!/bin/sh
# The clock: the test build's FRONTS_TEST_NOW sets the "now" of a plan
# that starts "now" (in the parent and in its sandbox worker alike), a
# malformed value is fatal rather than ignored, and the release binary
# reads the system clock whatever the variable says. Without the test
# build an integration script stops at once, naming it, rather than test
# the release binary at the wall clock's hour.
. "$(dirname "$0")/../lib.sh"

FRONTS_TEST_BIN=$TMPD/missing/fronts-test sh "$TOP/tests/cli/test_layers.sh" >"$TMPD/nobin" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && [ "$(grep -c '^PASS' "$TMPD/nobin")" -eq 0 ] &&
    grep -q "^FAIL: the test binary $TMPD/missing/fronts-test is missing: build it with .make " "$TMPD/nobin"; then
	pass "clock: no test binary: the script fails, naming it and make"
else fail "clock: no test binary: the script fails, naming it and make" "exit $rc: $(cat "$TMPD/nobin")"; fi

P=$TMPD/p
new_demo "$P"
sed -i 's/"start": "[^"]*"/"start": "now"/' "$P/fronts.json"
"$FRONTS" -C "$P" approve --yes >/dev/null 2>&1

first_at() {	# first_at BINARY ISOLATION — the plan's first post time
	"$1" -C "$P" plan --iterations 60 --isolation "$2" --json 2>"$TMPD/err" |
	    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["plan"][0]["at"])' \
	    2>/dev/null
}

for iso in process thread; do
	at=$(FRONTS_TEST_NOW=2030-01-01T00:30:00Z first_at "$FRONTS" $iso)
	case $at in
	2030-01-01T*) pass "clock: the test build plans from FRONTS_TEST_NOW ($iso)" ;;
	*) fail "clock: the test build plans from FRONTS_TEST_NOW ($iso)" "got '$at'; $(head -c 300 "$TMPD/err")" ;;
	esac
done

at=$(FRONTS_TEST_NOW=2030-01-01T00:30:00Z first_at "$FRONTS_RELEASE" process)
case $at in
2030-*|"") fail "clock: the release binary ignores FRONTS_TEST_NOW" "got '$at'; $(head -c 300 "$TMPD/err")" ;;
*) pass "clock: the release binary ignores FRONTS_TEST_NOW" ;;
esac

FRONTS_TEST_NOW=@1893456000x3600 "$FRONTS" -C "$P" ledger >/dev/null 2>"$TMPD/err"
if [ $? -eq 0 ]; then pass "clock: @EPOCH with a speed is accepted"
else fail "clock: @EPOCH with a speed is accepted" "$(cat "$TMPD/err")"; fi

expect_exit "clock: a malformed FRONTS_TEST_NOW is fatal" 1 \
    env FRONTS_TEST_NOW=tomorrow "$FRONTS" -C "$P" ledger
expect_grep "clock: and says why" "FRONTS_TEST_NOW=tomorrow: not a time" "$TMPD/err"

# Every "now" comes from clock_now() and every test hook through
# hook_env(): a direct read would escape the pin or reach the release
# binary.
if grep -rnE '\btime\(NULL\)|\btime\(0\)' "$TOP/src" "$TOP/tests/unit" --include='*.c' |
    grep -v '^[^:]*src/core/clock\.c:' >"$TMPD/direct"; then
	fail "clock: no source or unit test reads the system clock but clock.c" "$(cat "$TMPD/direct")"
else pass "clock: no source or unit test reads the system clock but clock.c"; fi
if grep -rnE 'getenv\("FRONTS_(TEST|RETRY)' "$TOP/src" >"$TMPD/direct"; then
	fail "clock: test hooks are read through hook_env() only" "$(cat "$TMPD/direct")"
else pass "clock: test hooks are read through hook_env() only"; fi
if strings "$FRONTS_RELEASE" | grep -E 'FRONTS_TEST_|FRONTS_RETRY_SCALE' >"$TMPD/direct"; then
	fail "clock: the release binary holds no test hook's name" "$(cat "$TMPD/direct")"
else pass "clock: the release binary holds no test hook's name"; fi
