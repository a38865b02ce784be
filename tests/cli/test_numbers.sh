#!/bin/sh
# Numbers and deadlines from the model, through the real binary in both
# isolation modes: a reward or value beyond ±1e12 is a model error naming
# the function and its line (exit 4, never a crash), and a call that times
# out ends the plan with exit 4, while an exception now and then is only
# counted.
. "$(dirname "$0")/../lib.sh"

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
	expect_exit "$iso: apply returning 1e308 is exit 4" 4 "$FRONTS" plan \
	    -C "$TMPD/huge_reward" --isolation "$iso" --workers 1 \
	    --iterations 100
	expect_grep "$iso: the error names apply, the number and its line" \
	    "apply returned reward 1e\+308, beyond ±1e12 \(model line 9, in apply\)" \
	    "$TMPD/err"
	expect_no_grep "$iso: no plan from huge rewards" "." "$TMPD/out"

	expect_exit "$iso: value returning 1e308 is exit 4" 4 "$FRONTS" plan \
	    -C "$TMPD/huge_value" --isolation "$iso" --workers 1 \
	    --iterations 100
	expect_grep "$iso: the error names value, the number and its line" \
	    "value returned value 1e\+308, beyond ±1e12 \(model line 17, in value\)" \
	    "$TMPD/err"

	expect_exit "$iso: a call timing out late is exit 4" 4 "$FRONTS" plan \
	    -C "$TMPD/hangs_late" --isolation "$iso" --workers 1 \
	    --iterations 100 --call-timeout-ms 50
	expect_grep "$iso: the timeout names apply and its line" \
	    "the model timed out: apply\(\) ran longer than 50 ms \(model line 1[45], in apply\)" \
	    "$TMPD/err"
	expect_no_grep "$iso: no plan after a timeout" "." "$TMPD/out"

	expect_exit "$iso: exceptions now and then still plan" 0 "$FRONTS" \
	    plan -C "$TMPD/raises_sometimes" --isolation "$iso" --workers 1 \
	    --iterations 100
	expect_grep "$iso: the exceptions are counted" \
	    "^100 iterations, .*, [1-4]?[0-9] failed iterations" "$TMPD/out"
	expect_grep "$iso: the exceptions are reported" \
	    "model error: model\| ZeroDivisionError: division by zero \(model line 15, in apply\)" \
	    "$TMPD/err"
done
