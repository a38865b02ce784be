#!/bin/sh
# Hostile models through the CLI, in both isolation modes: each approved
# (as an operator might by mistake), each run by `fronts plan`, each must
# end in exit 4 with the right message while fronts itself survives. Models
# the gate refuses cannot even be approved.
. "$(dirname "$0")/../lib.sh"

P=$TMPD/proj
new_demo "$P"

# hostile NAME — install tests/hostile/NAME.py as the project's approved model.
hostile() {
	cp "$TOP/tests/hostile/$1.py" "$P/model.py"
	"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
}

for iso in process thread; do
	hostile spin
	expect_exit "spin $iso: exit 4" 4 "$FRONTS" plan --force -C "$P" --iterations 5 \
	    --call-timeout-ms 200 --isolation "$iso"
	expect_grep "spin $iso: names the timeout" "ran longer than 200 ms" "$TMPD/err"

	hostile recursion
	expect_exit "recursion $iso: exit 4" 4 "$FRONTS" plan --force -C "$P" \
	    --iterations 5 --isolation "$iso"
	expect_grep "recursion $iso: names the error" "RecursionError" "$TMPD/err"
done

# The memory bomb and 10**10**8 (which only the worker's deadline ends)
# are tested in tests/unit (test_worker, test_wmodel) with a small memory
# limit and a short deadline; through the CLI they take the default 2 GiB
# and the plan's deadline, too long for this suite.

for m in openfile socket fork; do
	cp "$TOP/tests/hostile/$m.py" "$P/model.py"
	expect_exit "$m: approval refused" 3 "$FRONTS" approve -C "$P" --yes
	expect_exit "$m: plan refused" 3 "$FRONTS" plan --force -C "$P" --iterations 5
done

# A model that swallows the call timeout would outlive it in process; the
# gate refuses each way of catching it, so it never runs.
cp "$TOP/tests/hostile/swallow_timeout.py" "$P/model.py"
expect_exit "swallow_timeout: approval refused" 3 "$FRONTS" approve -C "$P" --yes
expect_exit "swallow_timeout: plan refused" 3 "$FRONTS" plan --force -C "$P" \
    --iterations 5 --isolation thread
expect_exit "swallow_timeout: gate verdicts" 3 "$FRONTS" gate "$P/model.py"
for rule in broad-except except-type finally; do
	expect_grep "swallow_timeout: $rule" ": $rule: " "$TMPD/out"
done

# The worker entry point refuses to run without its pipes.
expect_exit "__worker by hand: usage" 2 "$FRONTS" __worker
expect_grep "__worker by hand: says why" "not by hand" "$TMPD/err"

# A public libpython bug the gate cannot see (gh-120384: an out-of-bounds
# write from an extended-slice assignment): the worker crashes, fronts
# reports it and survives. In thread mode it would crash fronts itself,
# which is why the worker, not the gate, is the boundary.
cp "$TOP/tests/hostile/slice_oob.py" "$P/model.py"
expect_exit "slice_oob: the gate accepts it" 0 "$FRONTS" gate "$P/model.py"
"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
expect_exit "slice_oob process: exit 4" 4 "$FRONTS" plan --force -C "$P" \
    --iterations 5 --workers 1
# (Under AddressSanitizer the overflow is caught first, and its report's
# own system calls end the worker in the filter: a death all the same.)
expect_grep "slice_oob process: the crash is named" \
    "worker crashed with signal|ran out of memory|malformed|killed by the seccomp filter" \
    "$TMPD/err"

# The lockdown is up before the module body runs: a top-level import of a
# codec from disk fails in the worker; in process it works.
cp "$TOP/tests/hostile/codec_import.py" "$P/model.py"
"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
expect_exit "codec_import process: exit 4" 4 "$FRONTS" plan --force -C "$P" \
    --iterations 5 --workers 1
expect_grep "codec_import process: the read was refused" \
    "seccomp filter: it called (openat|newfstatat)" "$TMPD/err"
expect_exit "codec_import thread: works in process" 0 "$FRONTS" plan --force -C "$P" \
    --iterations 5 --isolation thread
expect_exit "codec_import validate: exit 4 in the worker" 4 "$FRONTS" \
    validate -C "$P"
expect_exit "codec_import validate --isolation thread: runs" 0 "$FRONTS" \
    validate -C "$P" --isolation thread

# Host code never runs what a model patched (the rng it seeds is of a
# class of its own), and releasing a model's objects is guarded: a
# finalizer that spins ends in exit 4, bounded by the call's deadline and
# the guard's grace. `timeout` turns a hang into a failure.
for iso in process thread; do
	cp "$TOP/tests/hostile/patch_random.py" "$P/model.py"
	"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
	expect_exit "patch_random $iso: the host's rng is untouched" 0 \
	    timeout 60 "$FRONTS" plan --force -C "$P" --iterations 5 --workers 1 \
	    --isolation "$iso" --call-timeout-ms 300

	cp "$TOP/tests/hostile/finalizer.py" "$P/model.py"
	"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
	expect_exit "finalizer $iso: exit 4" 4 timeout 60 "$FRONTS" plan --force \
	    -C "$P" --iterations 5 --workers 1 --isolation "$iso" \
	    --call-timeout-ms 300
	expect_grep "finalizer $iso: names the release" \
	    "releasing a model object ran longer than 300 ms|release of a model object ran past its deadline" \
	    "$TMPD/err"
done

# One long C-level operation (10**10**8 and the like) holds the interpreter
# lock, so the watchdog cannot raise in it; the backstop needs no lock and
# ends even the fronts process itself at the deadline plus the grace.
cp "$TOP/tests/hostile/bigpow.py" "$P/model.py"
"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
for iso in process thread; do
	expect_exit "bigpow $iso: the backstop ends it, exit 4" 4 timeout 60 \
	    "$FRONTS" plan --force -C "$P" --iterations 5 --workers 1 --isolation "$iso" \
	    --call-timeout-ms 200
	expect_grep "bigpow $iso: names the call" \
	    "apply ran past its deadline of 200 ms and did not stop within 1000 ms more" \
	    "$TMPD/err"
done
