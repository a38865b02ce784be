# Helpers for integration tests: source this file, then call check/expect.
# Each check prints "PASS: name" or "FAIL: name"; tests/run.sh counts them.
# FRONTS is the binary under test: the test build (fronts-test, the
# release objects plus the test hooks of src/core/hook.h), whose clock
# every test pins with FRONTS_TEST_NOW; FRONTS_RELEASE is the release
# binary, for the checks that it ignores those hooks. TOP is the
# repository root. A missing test binary stops the script: the release
# binary ignores FRONTS_TEST_NOW, so running on it would test at the wall
# clock's hour instead (a run that wants it says FRONTS_TEST_BIN=$FRONTS_BIN).
TOP=$(cd "$(dirname "$0")/../.." && pwd)
FRONTS_RELEASE=${FRONTS_BIN:-$TOP/build/fronts}
FRONTS=${FRONTS_TEST_BIN:-$TOP/${BUILD:-build}/fronts-test}
if [ ! -x "$FRONTS" ]; then
	echo "FAIL: the test binary $FRONTS is missing: build it with" \
	    "\`make ${BUILD:-build}/fronts-test\` (with that build's BUILD and" \
	    "OPT; \`make test\` builds it), or name one in FRONTS_TEST_BIN"
	exit 1
fi
# The moment every test runs at unless it sets its own: a weekday morning
# inside the demo plan's horizon, when no demo front is in quiet hours.
FRONTS_TEST_NOW=${FRONTS_TEST_NOW:-2026-12-01T09:10:00Z}
export FRONTS_TEST_NOW
# test_date OFFSET — the pinned moment moved by OFFSET ("-31 hours"), UTC.
test_date() { date -u -d "${FRONTS_TEST_NOW%%x*} $1" +%FT%TZ; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; [ -n "$2" ] && echo "  $2"; }
# check NAME GOT WANTED: passes when the two strings are equal.
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', wanted '$3'"; fi; }

# expect_exit NAME CODE CMD... — run CMD, compare its exit status.
expect_exit() {
	name=$1; want=$2; shift 2
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	got=$?
	if [ "$got" -eq "$want" ]; then pass "$name"
	else fail "$name" "exit $got, wanted $want; stderr: $(head -c 600 "$TMPD/err")"; fi
}

# expect_grep NAME PATTERN FILE — FILE contains the extended regex PATTERN.
expect_grep() {
	if grep -Eq -- "$2" "$3"; then pass "$1"
	else fail "$1" "no /$2/ in $3: $(head -c 600 "$3")"; fi
}

# expect_no_grep NAME PATTERN FILE...
expect_no_grep() {
	name=$1; pat=$2; shift 2
	if grep -rEq -- "$pat" "$@" 2>/dev/null; then fail "$name" "found /$pat/"
	else pass "$name"; fi
}

# new_demo DIR — a fresh copy of the demo project.
new_demo() { rm -rf "$1"; cp -r "$TOP/fixtures/demo" "$1"; rm -rf "$1/.fronts"; }
