#!/bin/sh
# Honest measurement: a project made from an X archive and a Mastodon
# outbox alone is scored under the default objective (each front on the
# interactions its history gives), and `history import` says how many
# posts it wrote can be scored; a project with no counts says "not
# measured" (text and --json), never 0.000 or 0%; `plan` refuses an
# approved model that failed its conformance checks (exit 3, the check
# named), runs the checks first when they were never run for its
# sha256, and plans anyway with --force and a warning in its stats.warnings.
. "$(dirname "$0")/../lib.sh"

# --- an X archive and a Mastodon outbox, no objective in fronts.json ---
D="$TMPD/archive"
new_demo "$D"
: >"$D/history.jsonl"
python3 - "$D/fronts.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j.pop("objective")
json.dump(j, open(sys.argv[1], "w"), indent=2)
PY
expect_exit "import: the X archive" 0 "$FRONTS" -C "$D" history import \
    "$D/exports/tweets.js" --front x
expect_grep "import: says how many written posts can be scored" \
    "2 of the 2 posts written can be scored under the objective \(default, what history gives: x: likes \+ reposts" "$TMPD/out"
expect_exit "import: the Mastodon outbox" 0 "$FRONTS" -C "$D" history \
    import "$D/exports/outbox.json" --front mastodon
expect_grep "import: an outbox has no counts to score" \
    "0 of the 2 posts written can be scored" "$TMPD/out"
"$FRONTS" -C "$D" approve --yes >/dev/null 2>&1
expect_exit "archive: validate --backtest runs" 0 "$FRONTS" -C "$D" \
    validate --backtest --window 0.75
expect_grep "archive: the default objective scores the X posts" \
    "1 of 3 posts scored" "$TMPD/out"
expect_grep "archive: validate says which objective" \
    "reward = default, what history gives: x: likes \+ reposts; linkedin: no counts yet; mastodon: no counts yet" "$TMPD/out"
expect_grep "archive: a figure on too few posts is marked" \
    "rests on 1 posts, fewer than 10: indicative only" "$TMPD/out"
expect_grep "archive: spearman on one post is not measured" \
    "not measured \(spearman\): a rank correlation needs 3" "$TMPD/out"

# --- no counts at all: every figure is "not measured", with why --------
N="$TMPD/nocounts"
new_demo "$N"
python3 - "$N/history.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for h in lines:
    h["metrics"] = {}
open(sys.argv[1], "w").write("".join(json.dumps(h) + "\n" for h in lines))
PY
"$FRONTS" -C "$N" approve --yes >/dev/null 2>&1
expect_exit "no counts: validate --backtest runs" 0 "$FRONTS" -C "$N" \
    validate --backtest
expect_grep "no counts: not measured, and why" \
    "not measured \(spearman, mae_log, coverage80\): none of the 52 posts in the window can be scored" "$TMPD/out"
expect_no_grep "no counts: no 0.000 or 0% printed" "0\.000| 0%" "$TMPD/out"
expect_exit "no counts: --json" 0 "$FRONTS" -C "$N" validate --backtest \
    --json
if python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["backtest"]
assert b["posts"] == 0, b
for k in ("spearman", "mae_log", "coverage80"):
    assert b[k] is None, k
    assert "can be scored" in b["not_measured"][k], b["not_measured"]
for base in b["baselines"].values():
    assert base["mae_log"] is None and base["not_measured"]["mae_log"]
assert b["beats_baselines"] is None
' "$TMPD/out"; then pass "no counts: --json has null and a reason"
else fail "no counts: --json has null and a reason" "$(head -c 600 "$TMPD/out")"; fi

# --- plan and the conformance checks -----------------------------------
M="$TMPD/mutating"
new_demo "$M"
cp "$TOP/tests/data/models/mutating.py" "$M/model.py"
"$FRONTS" -C "$M" approve --yes >/dev/null 2>&1
sha=$(sha256sum "$M/model.py" | cut -d' ' -f1)
expect_exit "plan refuses a model that fails conformance" 3 "$FRONTS" \
    -C "$M" plan --iterations 200
expect_grep "plan names the failed check" \
    "fails the conformance check apply-does-not-mutate" "$TMPD/err"
if [ -f "$M/.fronts/conformance/$sha.json" ]; then
	pass "plan keeps the checks by sha256"
else fail "plan keeps the checks by sha256" "$(ls "$M/.fronts")"; fi
expect_exit "plan refuses again from the kept result (thread)" 3 \
    "$FRONTS" -C "$M" plan --iterations 200 --isolation thread
expect_exit "plan --force plans anyway" 0 "$FRONTS" -C "$M" plan \
    --iterations 200 --force --json -o "$TMPD/forced.json"
if python3 -c '
import json, sys
w = " ".join(json.load(open(sys.argv[1]))["stats"]["warnings"])
assert "apply-does-not-mutate" in w and "--force" in w, w
' "$TMPD/out"; then pass "plan --force: a warning in the stats"
else fail "plan --force: a warning in the stats" "$(head -c 600 "$TMPD/out")"; fi
expect_exit "a forced plan still reads back (publish, dry run)" 0 \
    "$FRONTS" -C "$M" publish "$TMPD/forced.json"

# approve-then-plan: the demo's checks run first (thread), then it plans
G="$TMPD/good"
new_demo "$G"
"$FRONTS" -C "$G" approve --yes >/dev/null 2>&1
expect_exit "approve then plan: checks run first, then the plan" 0 \
    "$FRONTS" -C "$G" plan --iterations 300 --isolation thread --json
gsha=$(sha256sum "$G/model.py" | cut -d' ' -f1)
if python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["conformant"] is True
' "$G/.fronts/conformance/$gsha.json"; then pass "approve then plan: kept as passed"
else fail "approve then plan: kept as passed" "$(ls "$G/.fronts")"; fi

# The demo's model is calibrated on its own history: its 80% intervals
# cover between 70% and 90% of the held-out posts.
expect_exit "demo: validate --backtest --json runs" 0 "$FRONTS" -C "$G" \
    validate --backtest --json
if python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["backtest"]
assert b["posts"] == 52, b["posts"]
assert 0.70 <= b["coverage80"] <= 0.90, b["coverage80"]
assert b["beats_baselines"] is True, b
' "$TMPD/out"; then pass "demo: backtest coverage80 within [0.70, 0.90]"
else fail "demo: backtest coverage80 within [0.70, 0.90]" "$(head -c 600 "$TMPD/out")"; fi

# A model whose only failures are calls over their time limit: refused
# for this run, never kept (the next run, on a quieter machine or with a
# longer --call-timeout-ms, checks again).
S="$TMPD/slow"
new_demo "$S"
cat >"$S/model.py" <<'PY'
def initial_state(ctx):
    while True:
        pass


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state, 0.0


def is_terminal(state):
    return True
PY
"$FRONTS" -C "$S" approve --yes >/dev/null 2>&1
ssha=$(sha256sum "$S/model.py" | cut -d' ' -f1)
expect_exit "plan refuses a model whose calls time out" 3 "$FRONTS" \
    -C "$S" plan --iterations 50 --call-timeout-ms 50
expect_grep "plan: the refusal names the time-out" "timed out" "$TMPD/err"
expect_grep "plan: a time-out is not kept" "not kept: every failure" \
    "$TMPD/err"
if [ ! -f "$S/.fronts/conformance/$ssha.json" ]; then
	pass "plan: no conformance file for a time-out"
else fail "plan: no conformance file for a time-out" \
    "$(cat "$S/.fronts/conformance/$ssha.json")"; fi
