#!/bin/sh
# A project that works without a language model: `fronts init --empty`
# loads and validates and says what to do next; `fronts synth --provider
# builtin` writes the builtin world model (no key, no network), which
# passes the gate and the conformance checks on an empty project, on a
# project whose history is only imported exports, and on the demo, where
# it beats both baselines of the backtest (asserted on the printed
# figures); the backtest lists it as a third baseline of every model.
. "$(dirname "$0")/../lib.sh"
unset ANTHROPIC_API_KEY OPENAI_API_KEY ANTHROPIC_BASE_URL OPENAI_BASE_URL
BUILTIN=$TOP/src/sandbox/py/builtin_model.py

# --- init --empty ---------------------------------------------------------
E=$TMPD/empty
expect_exit "empty: init --empty" 0 "$FRONTS" init --empty "$E"
expect_grep "empty: says what to run next" "synth --provider builtin" "$TMPD/out"
same=yes
for f in fronts.json rules.md history.jsonl drafts.jsonl README.txt; do
	cmp -s "$TOP/fixtures/empty/$f" "$E/$f" || same="no ($f)"
done
[ "$same" = yes ] && pass "empty: the files of fixtures/empty, byte for byte" ||
	fail "empty: the files of fixtures/empty, byte for byte" "$same"
[ -e "$E/model.py" ] && fail "empty: no model.py" || pass "empty: no model.py"
[ -s "$E/history.jsonl" ] || [ -s "$E/drafts.jsonl" ] &&
	fail "empty: no history, no drafts" || pass "empty: no history, no drafts"
expect_grep "empty: README.txt says what goes where" "^drafts.jsonl +the posts to plan" "$E/README.txt"
expect_exit "empty: it loads (drafts)" 0 "$FRONTS" -C "$E" drafts
expect_no_grep "empty: _comment keys load without a warning" "." "$TMPD/err"
expect_exit "empty: a second init refuses" 1 "$FRONTS" init --empty "$E"
for c in validate plan approve; do
	expect_exit "empty: $c without a model exits 1" 1 "$FRONTS" -C "$E" $c
	expect_grep "empty: $c says how to write one" \
	    "model.py: no world model yet; write one with .fronts synth --provider builtin" "$TMPD/err"
done

# --- synth --provider builtin on the empty project ------------------------
expect_exit "empty: synth --provider builtin" 0 "$FRONTS" -C "$E" synth \
    --provider builtin
cmp -s "$BUILTIN" "$E/model.py" && pass "empty: model.py is the builtin model" ||
	fail "empty: model.py is the builtin model"
expect_grep "empty: nothing to measure yet, said so" "backtest: not measured" "$TMPD/out"
expect_no_grep "empty: no conformance failure" "FAILED" "$TMPD/out"
expect_grep "empty: not approved" "it is NOT approved" "$TMPD/out"
expect_exit "empty: the gate accepts it" 0 "$FRONTS" gate "$E/model.py"
if python3 - "$E"/.fronts/synth-*.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["provider"] == "builtin" and r["model"] == "builtin", r["provider"]
assert r["tokens"] == {"input": 0, "output": 0}
assert r["candidates"][0]["all_pass"] is True
assert r["written"].endswith("/model.py") and r["approved"] is False
PY
then pass "empty: the synthesis report names the builtin"
else fail "empty: the synthesis report names the builtin"; fi
"$FRONTS" -C "$E" approve --yes >/dev/null 2>&1
expect_exit "empty: validate passes" 0 "$FRONTS" -C "$E" validate
expect_grep "empty: conformance ok" "^conformance: ok" "$TMPD/out"
expect_exit "empty: plan with no drafts exits 1" 1 "$FRONTS" -C "$E" plan
expect_grep "empty: plan says what to add" "drafts.jsonl holds no draft: nothing to plan" "$TMPD/err"
expect_exit "builtin: no --rounds" 2 "$FRONTS" -C "$E" synth \
    --provider builtin --rounds 3

# --- a project whose history is only imported exports --------------------
I=$TMPD/imported
"$FRONTS" init --empty "$I" >/dev/null
python3 - "$I/fronts.json" "$I/drafts.jsonl" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["timezone"] = "Europe/Berlin"
j["fronts"] = [
    {"id": "x", "platform": "x", "limits": {"max_posts_per_day": 4}},
    {"id": "mastodon", "platform": "mastodon",
     "instance": "https://mastodon.example", "limits": {}}]
json.dump(j, open(sys.argv[1], "w"), indent=1)
open(sys.argv[2], "w").write(
    '{"id": "d1", "text": "Tidewater 2.0 is out", "topics": ["launch"]}\n'
    '{"id": "d2", "text": "How merges work", "topics": ["engineering"]}\n')
PY
expect_exit "imported: the X archive" 0 "$FRONTS" -C "$I" history import \
    "$TOP/fixtures/demo/exports/tweets.js" --front x
expect_exit "imported: the Mastodon outbox" 0 "$FRONTS" -C "$I" history \
    import "$TOP/fixtures/demo/exports/outbox.json" --front mastodon
expect_exit "imported: synth --provider builtin" 0 "$FRONTS" -C "$I" synth \
    --provider builtin
expect_no_grep "imported: no conformance failure" "FAILED" "$TMPD/out"
"$FRONTS" -C "$I" approve --yes >/dev/null 2>&1
expect_exit "imported: validate passes" 0 "$FRONTS" -C "$I" validate
expect_grep "imported: conformance ok" "^conformance: ok" "$TMPD/out"
expect_exit "imported: plan" 0 "$FRONTS" -C "$I" plan --iterations 300
expect_grep "imported: the plan posts" "plan for my-project: [1-9][0-9]* posts" "$TMPD/out"

# --- the demo: the builtin beats both baselines --------------------------
D=$TMPD/demo
new_demo "$D"
rm "$D/model.py"
expect_exit "demo: synth --provider builtin" 0 "$FRONTS" -C "$D" synth \
    --provider builtin
expect_grep "demo: it is the builtin model" "\(it is the builtin model\)" "$TMPD/out"
if python3 - "$TMPD/out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"backtest: mae_log ([0-9.]+) \(front_median ([0-9.]+), "
              r"hour_weekday ([0-9.]+), builtin ([0-9.]+)\)", t)
model, fm, hw, bi = map(float, m.groups())
print("builtin %.3f, front_median %.3f, hour_weekday %.3f" % (model, fm, hw))
assert model < fm and model < hw and model == bi
assert "beats both baselines" in t
PY
then pass "demo: the builtin's mae_log is below both baselines'"
else fail "demo: the builtin's mae_log is below both baselines'" "$(cat "$TMPD/out")"; fi
"$FRONTS" -C "$D" approve --yes >/dev/null 2>&1
expect_exit "demo: validate --backtest" 0 "$FRONTS" -C "$D" validate --backtest
for b in front_median hour_weekday builtin; do
	expect_grep "demo: the table lists $b" "^  $b +52 " "$TMPD/out"
done
expect_grep "demo: the model is its own third baseline" \
    "the model is the builtin model \(its own baseline\)" "$TMPD/out"

# Another model is measured against it (the demo's recorded model).
cp "$TOP/fixtures/demo/model.py" "$D/model.py"
"$FRONTS" -C "$D" approve --yes >/dev/null 2>&1
expect_exit "demo model: validate --backtest --json" 0 "$FRONTS" -C "$D" \
    validate --backtest --json
if python3 - "$TMPD/out" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["backtest"]
bi = b["baselines"]["builtin"]
assert isinstance(bi["mae_log"], float) and bi["mae_log"] > 0, bi
assert b["beats_builtin"] == (b["beats_baselines"] and
                              b["mae_log"] < bi["mae_log"])
assert "is_builtin" not in b
PY
then pass "demo model: measured against the builtin too"
else fail "demo model: measured against the builtin too" "$(head -c 600 "$TMPD/out")"; fi
