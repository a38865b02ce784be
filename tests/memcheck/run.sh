#!/bin/sh
# make memcheck: the unit test binaries given as arguments, then a handful
# of real fronts invocations, under valgrind's memcheck. A read of an
# uninitialised value (or any other memory error) in fronts' code exits 99
# and fails the run; suppressions cover libpython only (valgrind.supp).
#
# Worker children are not traced: valgrind (3.19) implements neither
# seccomp(2) nor landlock (syscalls 317 and 444 are "unhandled") nor a
# lowered RLIMIT_NOFILE (it keeps descriptors of its own), so a worker
# under valgrind refuses to run, as it should. The parent's side of
# process isolation (frame reader, snapshots, tree merge, plan) is traced
# in `plan --isolation process`; the child's readers (job, project, model
# source) and its namespace set-up are traced by running `fronts __worker`
# on a job until it refuses to lock down; the rest of what a worker runs
# (search, model calls) is the same code `plan --isolation thread` traces
# in process.
. "$(dirname "$0")/../lib.sh"

# As lib.sh's, counting: the run fails if any check did.
failed=0
fail() { echo "FAIL: $1"; [ -n "$2" ] && echo "  $2"; failed=$((failed + 1)); }

PY=/usr/bin/python3
VG="valgrind -q --error-exitcode=99 --track-origins=yes \
    --suppressions=$TOP/tests/memcheck/valgrind.supp --trace-children=no \
    --child-silent-after-fork=yes --vgdb=no"

# vg NAME WANT CMD... — CMD under valgrind: exit WANT ("any": any exit
# but a crash), and no memory error.
vg() {
	name=$1; want=$2; shift 2
	$VG "$@" >"$TMPD/out" 2>"$TMPD/err"
	got=$?
	if [ "$got" -eq 99 ]; then
		fail "memcheck: $name" "valgrind found memory errors:"
		grep '^==' "$TMPD/err" | head -n 60
	elif [ "$want" = any ] && [ "$got" -lt 128 ]; then
		pass "memcheck: $name"
	elif [ "$want" = any ] || [ "$got" -ne "$want" ]; then
		fail "memcheck: $name" "exit $got, wanted $want: $(tail -c 600 "$TMPD/err") $(tail -c 600 "$TMPD/out")"
	else
		pass "memcheck: $name"
	fi
}

for t in "$@"; do
	vg "$(basename "$t")" 0 "$t"
done

D=$TMPD/demo
new_demo "$D"
"$FRONTS" approve -C "$D" --yes >/dev/null 2>&1
# Model calls run tens of times slower under valgrind: no call may time out.
SLOW="--call-timeout-ms 120000"

# --force: plan's own conformance run keeps its checks' call timeouts,
# which valgrind's slowdown overruns; validate runs them under valgrind
# below.
vg "plan --isolation thread" 0 "$FRONTS" plan -C "$D" --isolation thread \
    --iterations 10 --seed 2 $SLOW --force --json -o "$TMPD/plan.json"
vg "plan --isolation process" 0 "$FRONTS" plan -C "$D" \
    --isolation process --workers 2 --iterations 60 $SLOW --force \
    -o "$TMPD/plan2.json"
expect_grep "memcheck: process plan has posts" '"front"' "$TMPD/plan2.json"

# docs/DESIGN.md's plan object with every optional field left out.
$PY - "$TMPD/plan2.json" "$TMPD/minimal.json" <<'PYEOF'
import json, sys
p = json.load(open(sys.argv[1]))
out = {"plan": [{k: x[k] for k in ("slot", "front", "draft", "text")}
                for x in p["plan"]], "stats": {}}
json.dump(out, open(sys.argv[2], "w"))
PYEOF
vg "publish dry run, optional fields absent" 0 "$FRONTS" publish \
    "$TMPD/minimal.json" -C "$D"
# Without posts, nothing earlier in the loader's frame has written the
# stack where an unread optional field would be: memcheck sees the
# uninitialised read of an absent stats.iterations.
echo '{"plan": [], "stats": {"seconds": 1}}' >"$TMPD/empty.json"
vg "publish dry run, a plan without posts or stats" 0 "$FRONTS" publish \
    "$TMPD/empty.json" -C "$D"
vg "drafts" 0 "$FRONTS" drafts -C "$D"
vg "gate" 0 "$FRONTS" gate "$D/model.py"
# validate times its checks' model calls and has no option to relax that:
# on a loaded machine under valgrind a check may time out, which is a
# verdict (exit 1), not a memory error.
vg "validate --isolation thread" any "$FRONTS" validate -C "$D" \
    --isolation thread --json
expect_grep "memcheck: validate reports" '"conformant"' "$TMPD/out"
vg "validate --isolation process" any "$FRONTS" validate -C "$D" --json
expect_grep "memcheck: validate reports from its worker" '"conformant"' \
    "$TMPD/out"

# The worker's own readers, up to the lockdown valgrind cannot take.
$PY - "$D" "$TMPD/job" <<'PYEOF'
import json, struct, sys
job = {"kind": 0, "project_dir": sys.argv[1], "index": 0, "deadline": 60,
       "memory_mb": 0, "params": {"iterations": 5, "seconds": 0,
       "seed": "3", "workers": 1, "isolation": 0,
       "call_timeout_ms": 120000, "uct_c": 0}}
src = open(sys.argv[1] + "/model.py", "rb").read()
frame = lambda t, b: struct.pack("<I", len(b)) + t + b
open(sys.argv[2], "wb").write(frame(b"J", json.dumps(job).encode()) +
                              frame(b"M", src))
PYEOF
# Frames and valgrind's report go to pipes, as from a real parent: the
# worker's RLIMIT_FSIZE of 0 makes any write to a file fatal.
{ { $VG "$FRONTS" __worker 3<"$TMPD/job" 4>&1 >/dev/null 2>&5
    echo $? >"$TMPD/rc"; } | cat >"$TMPD/frames"; } 5>&1 | cat >"$TMPD/err"
got=$(cat "$TMPD/rc")
if [ "$got" -eq 99 ]; then
	fail "memcheck: worker readers" "valgrind found memory errors:"
	grep '^==' "$TMPD/err" | head -n 60
elif grep -q 'RLIMIT_NOFILE\|seccomp' "$TMPD/frames"; then
	pass "memcheck: worker readers (job, project, model) up to the rlimits"
else
	fail "memcheck: worker readers" "exit $got: $(head -c 300 "$TMPD/frames")"
fi

# A ledger with an intent, its outcome, and a line with an impossible date.
mkdir -p "$D/.fronts"
$PY - "$D/.fronts/ledger.jsonl" <<'PYEOF'
import sys
sha = "0" * 64
rec = ('{"record":"intent","entry":"e%016x","time":"%s","plan":"p","slot":0,'
       '"front":"x","draft":"d1","at":"2026-12-01T08:00:00Z",'
       '"text_sha256":"' + sha + '","channel":"mastodon"}\n')
with open(sys.argv[1], "w") as f:
    f.write(rec % (1, "2026-12-01T07:00:00Z"))
    f.write('{"record":"sent","entry":"e%016x"}\n' % 1)
    f.write(rec % (2, "2026-02-30T07:00:00Z"))
PYEOF
vg "ledger with a damaged line" 1 "$FRONTS" ledger -C "$D"
expect_grep "memcheck: the damaged line is named" "ledger.jsonl:3:" \
    "$TMPD/err"

echo "memcheck: $failed failed"
[ "$failed" -eq 0 ]
