#!/bin/sh
# The numbers of every command's options, refused with one wording; then
# numbers and deadlines from the model, through the real binary in both
# isolation modes: a reward or value beyond ±1e12 is a model error naming
# the function and its line (exit 4, never a crash), and a call that times
# out ends the plan with exit 4, while an exception now and then is only
# counted.
. "$(dirname "$0")/../lib.sh"

# ---- the options' numbers ---------------------------------------------------
# Every number and duration option of every command goes through one parser
# (src/cli/args.c): a negative number, a sign, trailing junk, a value out
# of range and a missing value are refused with exit 2 and one wording,
# "fronts CMD: --OPT: expected WHAT, got 'ARG'", before anything is read.
W64="whole number from 0 to 18446744073709551615"
SECS="number of seconds above 0 and at most 1000000"
MB="whole number from 64 to 1048576"
# CMD OPT WHAT, one option a line (WHAT: the rest of the line)
cat >"$TMPD/opts" <<EOF2
plan iterations whole number from 1 to 1099511627776
plan seconds number of seconds above 0 and below 1000000
plan workers whole number from 1 to 256
plan seed $W64
plan call-timeout-ms whole number of milliseconds from 1 to 3600000
plan time-limit $SECS
plan memory-mb $MB
run late whole number of minutes from 0 to 100000
run replan whole number of minutes from 0 to 100000
run iterations whole number from 1 to 1099511627776
run workers whole number from 1 to 256
run seed $W64
run timeout-ms whole number of milliseconds from 1 to 3600000
synth rounds whole number from 1 to 50
synth timeout number of seconds above 0 and at most 3600
synth seed $W64
synth time-limit $SECS
synth memory-mb $MB
validate window number above 0 and below 1
validate time-limit $SECS
validate memory-mb $MB
publish timeout-ms whole number of milliseconds from 1 to 3600000
EOF2
cd "$TMPD" || exit 1
while read -r cmd opt what <&3; do
	for arg in -1 +5 5x " 5" 99999999999999999999; do
		expect_exit "$cmd --$opt '$arg': exit 2" 2 "$FRONTS" "$cmd" \
		    "--$opt" "$arg"
		line="fronts $cmd: --$opt: expected a $what, got '$arg'"
		if grep -qxF -- "$line" "$TMPD/err"; then
			pass "$cmd --$opt '$arg': one wording"
		else fail "$cmd --$opt '$arg': one wording" \
		    "no line '$line' in: $(head -c 300 "$TMPD/err")"; fi
	done
	expect_exit "$cmd --$opt=-1: exit 2" 2 "$FRONTS" "$cmd" "--$opt=-1"
	expect_grep "$cmd --$opt=-1: the same words" \
	    "^fronts $cmd: --$opt: expected a .*, got '-1'\$" "$TMPD/err"
	expect_exit "$cmd --$opt without a value: exit 2" 2 "$FRONTS" "$cmd" \
	    "--$opt"
	line="fronts $cmd: --$opt: expected a $what, got nothing"
	if grep -qxF -- "$line" "$TMPD/err"; then
		pass "$cmd --$opt without a value: one wording"
	else fail "$cmd --$opt without a value: one wording" \
	    "no line '$line' in: $(head -c 300 "$TMPD/err")"; fi
done 3<"$TMPD/opts"
cd "$TOP" || exit 1
# Each of those runs was refused before it looked for a project.
ls -A "$TMPD" | grep -qv '^\(opts\|out\|err\)$' &&
	fail "refused options leave nothing behind" "$(ls -A "$TMPD")" ||
	pass "refused options leave nothing behind"
# In range they are taken: a short plan with every number option given.
new_demo "$TMPD/inrange"
"$FRONTS" approve -C "$TMPD/inrange" --yes >/dev/null 2>&1
expect_exit "every plan number option in range is taken" 0 "$FRONTS" plan \
    -C "$TMPD/inrange" --isolation thread --iterations 50 --workers 1 \
    --seed 18446744073709551615 --call-timeout-ms 5000 --time-limit 600 \
    --memory-mb 64
expect_exit "--seconds in range is taken" 0 "$FRONTS" plan \
    -C "$TMPD/inrange" --isolation thread --seconds 0.2 --seed=3 --json

# model NAME — a demo project whose model.py is stdin, approved.
model() {
	new_demo "$TMPD/$1"
	cat >"$TMPD/$1/model.py"
	"$FRONTS" approve -C "$TMPD/$1" --yes >/dev/null 2>&1
}

model huge_reward <<'EOF2'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",), ("post", "d1", "x"), ("post", "d2", "mastodon")]


def apply(state, action, rng):
    return state + 1, 1e308


def is_terminal(state):
    return state >= 72
EOF2

model huge_value <<'EOF2'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",), ("post", "d1", "x")]


def apply(state, action, rng):
    return state + 1, 1.0


def is_terminal(state):
    return state >= 72


def value(state):
    return 1e308
EOF2

# counting NAME CODE — a model whose apply() counts its calls in CALLS
# and runs CODE (two lines, at lines 14-15) before it returns.
counting() {
	model "$1" <<EOF2
CALLS = []


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    CALLS.append(1)
$2
    return state + 1, 1.0


def is_terminal(state):
    return state >= 72
EOF2
}

# apply() starts hanging after 5000 calls, two thirds into the budget:
# the iterations before would make a plan, the timeout must not.
counting hangs_late '    while len(CALLS) > 5000:
        pass'
# An exception on one call in a hundred after the first thousand.
counting raises_sometimes '    if len(CALLS) > 1000 and len(CALLS) % 100 == 0:
        return state + 1, 1 / 0'

for iso in thread process; do
	expect_exit "$iso: apply returning 1e308 is exit 4" 4 "$FRONTS" plan --force \
	    -C "$TMPD/huge_reward" --isolation "$iso" --workers 1 \
	    --iterations 100
	expect_grep "$iso: the error names apply, the number and its line" \
	    "apply returned reward 1e\+308, beyond ±1e12 \(model line 9, in apply\)" \
	    "$TMPD/err"
	expect_no_grep "$iso: no plan from huge rewards" "." "$TMPD/out"

	expect_exit "$iso: value returning 1e308 is exit 4" 4 "$FRONTS" plan --force \
	    -C "$TMPD/huge_value" --isolation "$iso" --workers 1 \
	    --iterations 100
	expect_grep "$iso: the error names value, the number and its line" \
	    "value returned value 1e\+308, beyond ±1e12 \(model line 17, in value\)" \
	    "$TMPD/err"

	expect_exit "$iso: a call timing out late is exit 4" 4 "$FRONTS" plan --force \
	    -C "$TMPD/hangs_late" --isolation "$iso" --workers 1 \
	    --iterations 100 --call-timeout-ms 50
	expect_grep "$iso: the timeout names apply and its line" \
	    "the model timed out: apply\(\) ran longer than 50 ms \(model line 1[45], in apply\)" \
	    "$TMPD/err"
	expect_no_grep "$iso: no plan after a timeout" "." "$TMPD/out"

	expect_exit "$iso: exceptions now and then still plan" 0 "$FRONTS" \
	    plan --force -C "$TMPD/raises_sometimes" --isolation "$iso" --workers 1 \
	    --iterations 100
	expect_grep "$iso: the exceptions are counted" \
	    "^100 iterations, .*, [1-4]?[0-9] failed iterations" "$TMPD/out"
	expect_grep "$iso: the exceptions are reported" \
	    "model error: model\| ZeroDivisionError: division by zero \(model line 15, in apply\)" \
	    "$TMPD/err"
done
