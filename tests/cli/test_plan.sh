#!/bin/sh
# fronts plan and fronts validate against the demo project and small
# hostile models: output shapes, files written, approval, exit codes.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
D=$TMPD/demo
new_demo "$D"

# An unapproved model is refused before anything runs.
expect_exit "plan refuses an unapproved model" 3 \
    "$FRONTS" plan -C "$D" --isolation thread --iterations 10
expect_grep "refusal says how to approve" "approve" "$TMPD/err"
expect_exit "validate refuses an unapproved model" 3 \
    "$FRONTS" validate -C "$D"
"$FRONTS" approve -C "$D" --yes >/dev/null 2>&1

expect_exit "usage: both budgets" 2 \
    "$FRONTS" plan -C "$D" --iterations 10 --seconds 1
expect_exit "usage: bad isolation" 2 \
    "$FRONTS" plan -C "$D" --isolation none
expect_exit "usage: bad workers" 2 "$FRONTS" plan -C "$D" --workers 0

expect_exit "plan --json runs" 0 "$FRONTS" plan -C "$D" --isolation thread \
    --iterations 150 --seed 3 --json -o "$TMPD/plan.json"
cp "$TMPD/out" "$TMPD/plan.out"
if $PY - "$TMPD/plan.out" "$TMPD/plan.json" "$D" <<'EOF'
import json, sys
out = json.load(open(sys.argv[1]))
saved = json.load(open(sys.argv[2]))
assert out == saved, "stdout and -o differ"
assert set(out) == {"project", "plan", "expected_total", "alternatives", "stats"}, out.keys()
ident = out["project"]
assert ident["name"] == json.load(open(sys.argv[3] + "/fronts.json"))["name"], ident
assert all(len(ident[k]) == 16 for k in ("fronts_sha256", "drafts_sha256")), ident
st = out["stats"]
for k in ("iterations", "model_calls", "illegal_proposals", "seconds",
          "model_seconds", "workers", "isolation", "seed"):
    assert k in st, k
assert st["iterations"] == 150 and st["seed"] == 3 and st["isolation"] == "thread"
assert st["model_calls"] > 150
drafts = {}
for line in open(sys.argv[3] + "/drafts.jsonl"):
    if line.strip():
        d = json.loads(line)
        drafts[d["id"]] = d
assert out["plan"], "empty plan"
for p in out["plan"]:
    for k in ("slot", "at", "front", "draft", "text", "expected_reward",
              "visits", "ci95"):
        assert k in p, k
    assert p["text"] == drafts[p["draft"]]["text"]
    assert p["at"].endswith("+01:00"), p["at"]
    lo, hi = p["ci95"]
    assert lo <= p["expected_reward"] <= hi
slots = [p["slot"] for p in out["plan"]]
assert slots == sorted(slots)
EOF
then pass "plan JSON has docs/DESIGN.md's shape and matches -o"
else fail "plan JSON has docs/DESIGN.md's shape and matches -o"; fi

T=$(ls "$D"/.fronts/trajectories/*-3.jsonl 2>/dev/null | head -n 1)
if [ -n "$T" ] && [ "$(wc -l <"$T")" -eq 3 ]; then pass "trajectory record written"
else fail "trajectory record written" "$(ls -R "$D/.fronts")"; fi
SHA=$(sha256sum "$D/model.py" | cut -d' ' -f1)
expect_grep "trajectory names the model sha256" "$SHA" "$T"
expect_no_grep "trajectory holds no key" "(api_key|Authorization|x-api-key)" "$T"

# Same seed, same plan.
"$FRONTS" plan -C "$D" --isolation thread --iterations 150 --seed 3 --json \
    >"$TMPD/again.json" 2>/dev/null
if $PY -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["plan"] == b["plan"] and a["alternatives"] == b["alternatives"]
' "$TMPD/plan.out" "$TMPD/again.json"; then pass "same seed, same plan"
else fail "same seed, same plan"; fi

# A finished plan survives a failed -o or trajectory write: printed in the
# format asked, the write error reported, exit 1. (Tests run as root, so
# the unwritable paths are ones no permission makes writable.)
expect_exit "plan -o a directory: exit 1" 1 "$FRONTS" plan -C "$D" \
    --isolation thread --iterations 40 --seed 3 --json -o "$TMPD"
expect_grep "-o error names the file" "$TMPD: cannot" "$TMPD/err"
if $PY -c '
import json, sys
out = json.load(open(sys.argv[1]))
assert out["plan"] and out["stats"]["iterations"] == 40
' "$TMPD/out"; then pass "plan -o failing still prints the JSON plan"
else fail "plan -o failing still prints the JSON plan" "$(head -c 300 "$TMPD/out")"; fi
expect_exit "plan -o under a missing directory: exit 1" 1 "$FRONTS" plan \
    -C "$D" --isolation thread --iterations 40 -o "$TMPD/no/such/plan.json"
expect_grep "-o failing still prints the table" "40 iterations" "$TMPD/out"
expect_grep "-o error says the plan was printed" "standard output" "$TMPD/err"
new_demo "$TMPD/notraj"
"$FRONTS" approve -C "$TMPD/notraj" --yes >/dev/null 2>&1
mkdir -p "$TMPD/notraj/.fronts"
: >"$TMPD/notraj/.fronts/trajectories"	# a file where the directory goes
expect_exit "plan with no room for its trajectory: exit 1" 1 "$FRONTS" plan \
    -C "$TMPD/notraj" --isolation thread --iterations 40 --json \
    -o "$TMPD/notraj.json"
expect_grep "trajectory error is reported" "trajectory" "$TMPD/err"
if $PY -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a == b and a["plan"]
' "$TMPD/out" "$TMPD/notraj.json"; then
	pass "plan whose trajectory fails is printed and written to -o"
else fail "plan whose trajectory fails is printed and written to -o"; fi
expect_exit "both writes failing: exit 1" 1 "$FRONTS" plan -C "$TMPD/notraj" \
    --isolation thread --iterations 40 -o /proc/fronts-plan.json
expect_grep "both write errors are reported" \
    "fronts-plan.json: cannot.*" "$TMPD/err"
expect_grep "both write errors are reported (trajectory)" "trajectory" \
    "$TMPD/err"
expect_grep "both failing still prints the table" "40 iterations" "$TMPD/out"

expect_exit "plan prints a table" 0 "$FRONTS" plan -C "$D" --isolation thread \
    --iterations 100
expect_grep "table has the header" "expected reward \(95%\)" "$TMPD/out"
expect_grep "table shows local times" "2026-12-01 [0-9:]+ CET" "$TMPD/out"
expect_grep "table shows the statistics" "100 iterations" "$TMPD/out"

expect_exit "validate --json runs" 0 "$FRONTS" validate -C "$D" --json
if $PY -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["conformant"] is True
names = {c["name"] for c in r["checks"]}
for n in ("random-rollouts", "apply-does-not-mutate", "seeded-runs-repeat",
          "legal-actions-deterministic", "sample-hidden"):
    assert n in names, n
assert "predict-agrees-with-apply" in names
b = r["backtest"]
assert b["ran"] is True and b["posts"] > 0 and len(b["entries"]) >= b["posts"]
assert 0 <= b["coverage80"] <= 1 and b["mae_log"] >= 0
assert set(b["baselines"]) == {"front_median", "hour_weekday", "builtin"}
assert b["builtin_asked"] is True and b["builtin_self"] is False
assert all("builtin_mean_log" in e for e in b["entries"])
' "$TMPD/out"; then pass "validate JSON report"
else fail "validate JSON report" "$(head -c 400 "$TMPD/out")"; fi
expect_exit "validate prints a report" 0 "$FRONTS" validate -C "$D"
expect_grep "report has conformance" "conformance: ok" "$TMPD/out"
expect_exit "validate --backtest --json runs" 0 "$FRONTS" validate -C "$D" \
    --backtest --window 0.25 --json
if $PY -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert list(r) == ["backtest", "live"], list(r)
b = r["backtest"]
assert list(b) == ["window", "posts", "min_posts", "few", "spearman",
                   "mae_log", "coverage80", "baselines", "beats_baselines",
                   "beats_builtin", "worst"], list(b)
assert b["window"] == 0.25 and b["posts"] == 65, b["posts"]
for k in ("front_median", "hour_weekday", "builtin"):
    assert set(b["baselines"][k]) == {"spearman", "mae_log"}
assert isinstance(b["beats_baselines"], bool)
assert isinstance(b["beats_builtin"], bool)
assert b["worst"] and set(b["worst"][0]) == {"id", "predicted", "observed"}
' "$TMPD/out"; then pass "validate --backtest JSON shape"
else fail "validate --backtest JSON shape" "$(head -c 400 "$TMPD/out")"; fi
expect_exit "validate --backtest prints the table" 0 "$FRONTS" validate \
    -C "$D" --backtest
expect_grep "table has the baselines" "hour_weekday" "$TMPD/out"
expect_grep "table has the builtin baseline" "^  builtin +[0-9]+ +[-0-9.]+ +[0-9.]+ +-" "$TMPD/out"
expect_grep "table says how the model compares with the builtin" \
    "(beats|does NOT beat) the builtin model" "$TMPD/out"
expect_exit "validate: --window wants a fraction" 2 "$FRONTS" validate \
    -C "$D" --backtest --window 1.5

# Hostile and broken models, each approved, in-process.
model() {
	new_demo "$TMPD/$1"
	cat >"$TMPD/$1/model.py"
	"$FRONTS" approve -C "$TMPD/$1" --yes >/dev/null 2>&1
}

model mutating <"$TOP/tests/data/models/mutating.py"
expect_exit "validate fails a mutating model" 1 \
    "$FRONTS" validate -C "$TMPD/mutating"
expect_grep "failure names apply and its line" \
    "fail apply-does-not-mutate .*apply, model.py line 12" "$TMPD/out"

model raising <<'EOF'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, 1.0 / (rng.random() - 2.0) + undefined_name


def is_terminal(state):
    return state >= 72
EOF
expect_exit "plan: a raising model is exit 4" 4 "$FRONTS" plan \
    -C "$TMPD/raising" --isolation thread --iterations 60 --force
expect_grep "error names type and line" "NameError.*line 10" "$TMPD/err"
expect_exit "validate: a raising model fails" 1 \
    "$FRONTS" validate -C "$TMPD/raising"
expect_grep "validate names apply's line" "apply, model.py line 10" "$TMPD/out"

model spinning <<'EOF'
def initial_state(ctx):
    return 0


def legal_actions(state):
    while True:
        pass


def apply(state, action, rng):
    return state + 1, 0.0


def is_terminal(state):
    return state >= 72
EOF
expect_exit "plan: a spinning model is exit 4" 4 "$FRONTS" plan \
    -C "$TMPD/spinning" --isolation thread --iterations 60 --force \
    --call-timeout-ms 20

model greedy <<'EOF'
def initial_state(ctx):
    return (0, ())


def legal_actions(state):
    out = [("wait",), ("like", "d1"), ("post", "nope", "x"), ("post", 3, "x")]
    for d in ctx_drafts:
        for f in ("x", "linkedin", "mastodon", "bluesky"):
            out.append(("post", d, f))
    return out


def apply(state, action, rng):
    slot, posted = state
    if action[0] == "wait":
        return (slot + 1, posted), 0.0
    posted = posted + ((action[1], action[2]),)
    return (slot, posted), 1000000.0


def is_terminal(state):
    return state[0] >= 72


ctx_drafts = ["d%d" % i for i in range(1, 25)]
EOF
expect_exit "plan: a greedy model still plans" 0 "$FRONTS" plan \
    -C "$TMPD/greedy" --isolation thread --iterations 200 --json
if $PY - "$TMPD/out" "$TMPD/greedy" <<'EOF'
import json, sys
from datetime import datetime
out = json.load(open(sys.argv[1]))
fronts = {f["id"]: f for f in json.load(open(sys.argv[2] + "/fronts.json"))["fronts"]}
assert out["stats"]["illegal_proposals"] > 0
per = {}
for p in out["plan"]:
    lim = fronts[p["front"]]["limits"]
    t = datetime.fromisoformat(p["at"])
    a, b = lim["quiet_hours"]
    h = t.hour
    assert not ((a < b and a <= h < b) or (a > b and (h >= a or h < b))), p
    per.setdefault(p["front"], []).append(t)
for f, ts in per.items():
    lim = fronts[f]["limits"]
    for x, y in zip(ts, ts[1:]):
        assert (y - x).total_seconds() >= lim["min_gap_minutes"] * 60, (f, x, y)
    days = {}
    for t in ts:
        days[t.date()] = days.get(t.date(), 0) + 1
    assert max(days.values()) <= lim["max_posts_per_day"], (f, days)
EOF
then pass "greedy model: no illegal post, illegal proposals counted"
else fail "greedy model: no illegal post, illegal proposals counted" \
    "$(head -c 600 "$TMPD/out")"; fi

# Process isolation (the default): workers, the same refusals and errors.
expect_exit "plan in 2 worker processes" 0 "$FRONTS" plan -C "$D" \
    --workers 2 --iterations 150 --seed 5 --json
if $PY -c '
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
assert s["isolation"] == "process" and s["workers"] == 2, s
assert s["iterations"] == 150, s
' "$TMPD/out"; then pass "process plan: stats say 2 workers, 150 iterations"
else fail "process plan: stats say 2 workers, 150 iterations" \
    "$(head -c 400 "$TMPD/out")"; fi
"$FRONTS" plan -C "$D" --workers 2 --iterations 150 --seed 5 --json \
    >"$TMPD/again2.json" 2>/dev/null
if $PY -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["plan"] == b["plan"] and a["alternatives"] == b["alternatives"]
' "$TMPD/out" "$TMPD/again2.json"; then pass "same seed and workers, same plan"
else fail "same seed and workers, same plan"; fi
expect_exit "process: a raising model is exit 4" 4 "$FRONTS" plan \
    -C "$TMPD/raising" --workers 1 --iterations 60 --force
expect_grep "process: error names type and line" "NameError.*line 10" \
    "$TMPD/err"

model cspin <<'EOF2'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)] if sum(range(10 ** 13)) > 0 else []


def apply(state, action, rng):
    return state + 1, 0.0


def is_terminal(state):
    return state >= 72
EOF2
expect_exit "process: an uninterruptible model is killed, exit 4" 4 \
    "$FRONTS" plan -C "$TMPD/cspin" --workers 1 --iterations 10 \
    --call-timeout-ms 100 --force
expect_grep "stall is explained" \
    "legal_actions ran past its deadline of 100 ms and did not stop" "$TMPD/err"

# children PID — the pids of PID's children (from /proc, no procps needed).
children() {
	for f in /proc/[0-9]*/stat; do
		read -r cpid comm cstate cppid rest <"$f" 2>/dev/null &&
		    [ "$cppid" = "$1" ] && echo "$cpid"
	done
}

# cpu_ticks PID — the CPU time, in clock ticks, that PID and its live
# children have used so far (utime and stime, fields 14 and 15 of stat).
cpu_ticks() {
	t=0
	for p in "$1" $(children "$1"); do
		set -- $(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null)
		[ $# -ge 13 ] && t=$((t + ${12} + ${13}))
	done
	echo "$t"
}

# sigint SECONDS ARGS... — start `fronts plan ARGS` with a long budget,
# send it Ctrl-C (SIGINT) once it and its workers have used SECONDS of
# CPU time (a wall-clock sleep gives a loaded machine's search nothing
# to stop), and wait for it; its children's pids go to $TMPD/kids, its
# status to $rc.
sigint() {
	want=$(($1 * $(getconf CLK_TCK))); shift
	"$FRONTS" plan "$@" --seconds 300 >"$TMPD/out" 2>"$TMPD/err" &
	pid=$!
	i=0
	while [ "$(cpu_ticks "$pid")" -lt "$want" ] && [ "$i" -lt 1200 ] &&
	    kill -0 "$pid" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	children "$pid" >"$TMPD/kids"
	kill -INT "$pid"
	wait "$pid"
	rc=$?
}

# interrupt NAME SECONDS ARGS... — sigint, and its workers, which were
# running, are gone.
interrupt() {
	name=$1; shift
	sigint "$@"
	left=0
	for k in $(cat "$TMPD/kids"); do
		kill -0 "$k" 2>/dev/null && left=1
	done
	if [ -s "$TMPD/kids" ] && [ "$left" -eq 0 ]; then
		pass "$name: workers were running, none is left"
	else fail "$name: workers were running, none is left" \
	    "kids: $(cat "$TMPD/kids"), left: $left"; fi
}

# Ctrl-C stops the search gracefully: every worker sends its tree, the plan
# so far is printed and marked as stopped early, exit 0.
interrupt "Ctrl-C" 2 -C "$D" --workers 2 --seed 1 --json
if [ "$rc" -eq 0 ] && $PY -c '
import json, sys
out = json.load(open(sys.argv[1]))
st = out["stats"]
assert st["stopped"] is True and st["workers"] == 2, st
assert 0 < st["iterations"] and len(out["plan"]) > 0, st
' "$TMPD/out"; then pass "Ctrl-C: exit 0, the plan so far, marked stopped"
else fail "Ctrl-C: exit 0, the plan so far, marked stopped" \
    "exit $rc: $(head -c 400 "$TMPD/err")"; fi
expect_grep "Ctrl-C: says it stopped early" "stopped early" "$TMPD/err"
expect_no_grep "Ctrl-C: no tree was lost" "lost" "$TMPD/err"

# Stopped long before the search would deepen, the plan still covers the
# horizon, in either isolation: a finished plan of the demo has some 37
# posts up to its last slots; one cut short at the stop had about 6, all
# in its first hours.
covers() {
	why=$($PY -c '
import json, sys
out = json.load(open(sys.argv[1]))
horizon = json.load(open(sys.argv[2] + "/fronts.json"))["horizon_slots"]
plan = out["plan"]
assert out["stats"]["stopped"] is True, out["stats"]
assert len(plan) >= 20, len(plan)
assert plan[-1]["slot"] >= horizon * 2 // 3, (plan[-1]["slot"], horizon)
' "$TMPD/out" "$D" 2>&1 | tail -n 1)
	if [ "$rc" -eq 0 ] && [ -z "$why" ]; then
		pass "$1: the plan covers the horizon"
	else fail "$1: the plan covers the horizon" "exit $rc: $why"; fi
}
covers "Ctrl-C"
sigint 2 -C "$D" --isolation thread --seed 1 --json
covers "Ctrl-C, thread isolation"

# One worker of two hangs in a C-level operation (which of them depends on
# its first draw: with seed 1, worker 1): it cannot answer the stop and
# ends at its call's deadline plus the guard's grace (or the planner's stop
# grace, whichever comes first); the plan is built from worker 0's tree.
new_demo "$TMPD/half"
cat >>"$TMPD/half/model.py" <<'EOF2'


demo_sample_hidden = sample_hidden
CHOSEN = []


def sample_hidden(ctx, rng):
    if not CHOSEN:
        CHOSEN.append(rng.random() < 0.5)
    if CHOSEN[0]:
        return 10 ** 10 ** 9
    return demo_sample_hidden(ctx, rng)
EOF2
"$FRONTS" approve -C "$TMPD/half" --yes >/dev/null 2>&1
interrupt "Ctrl-C, one worker stuck" 1 -C "$TMPD/half" --workers 2 --seed 1 \
    --call-timeout-ms 1500 --force
if [ "$rc" -eq 0 ]; then pass "Ctrl-C, one worker stuck: exit 0"
else fail "Ctrl-C, one worker stuck: exit 0" "exit $rc: $(cat "$TMPD/err")"; fi
expect_grep "Ctrl-C, one worker stuck: its tree was lost" \
    "worker 1: .*(sample_hidden ran past its deadline|did not answer the stop).*; its tree was lost" \
    "$TMPD/err"
expect_grep "Ctrl-C, one worker stuck: a plan from the other" \
    "^  .* (x|linkedin|bluesky|mastodon) " "$TMPD/out"
expect_grep "Ctrl-C, one worker stuck: marked stopped" \
    "^stopped early" "$TMPD/out"
