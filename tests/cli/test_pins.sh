#!/bin/sh
# fronts pin, pins.jsonl in every plan (both isolations), pins the rules
# refuse, a plan whose start passed, and the calendar (plan --calendar,
# fronts show).
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
D=$TMPD/demo
new_demo "$D"
"$FRONTS" approve -C "$D" --yes >/dev/null 2>&1

# The demo starts 2026-12-01T08:00Z; the test clock is 09:10Z, so every
# plan starts at 10:00Z (11:00 in Berlin).
expect_exit "pin a draft to a front and time" 0 \
    "$FRONTS" pin -C "$D" d3 mastodon 2026-12-02T10:00:00+01:00
expect_exit "pin a draft to a front" 0 "$FRONTS" pin -C "$D" d7 mastodon
expect_exit "drop a draft" 0 "$FRONTS" pin -C "$D" --drop d1
expect_exit "pin and clear" 0 "$FRONTS" pin -C "$D" d5 x
expect_exit "clear a draft's pins" 0 "$FRONTS" pin -C "$D" --clear d5
expect_exit "pin --list" 0 "$FRONTS" pin -C "$D" --list
expect_grep "list: the timed pin" "d3 +on mastodon +2026-12-02T10:00:00\+01:00" "$TMPD/out"
expect_grep "list: the drop" "d1 +dropped" "$TMPD/out"
expect_no_grep "list: the cleared pin is gone" "d5" "$TMPD/out"
expect_exit "pin --list --json" 0 "$FRONTS" pin -C "$D" --list --json
cp "$D/pins.jsonl" "$TMPD/pins.saved"
echo '{"draft": "d9", "front": "x", "why": "launch"}' >>"$D/pins.jsonl"
expect_exit "pin --list with an unknown field" 0 "$FRONTS" pin -C "$D" --list
expect_grep "an unknown field warns with file and line" \
    "warning: .*pins.jsonl:4: .*why" "$TMPD/err"
cp "$TMPD/pins.saved" "$D/pins.jsonl"
"$FRONTS" pin -C "$D" --list --json >"$TMPD/out"
if $PY -c 'import json,sys; v=json.load(open(sys.argv[1])); assert len(v)==3 and v[2]=={"draft":"d1","drop":True,"line":3}, v' "$TMPD/out"
then pass "list --json: three pins, by line"; else fail "list --json"; fi
cp "$D/pins.jsonl" "$TMPD/pins.good"

check_plan() {
	$PY - "$1" <<'PYEOF'
import json, sys
o = json.load(open(sys.argv[1]))
posts = o["plan"]
assert not [p for p in posts if p["draft"] == "d1"], "dropped d1 planned"
assert all(p["front"] == "mastodon" for p in posts if p["draft"] == "d7")
d3 = [p for p in posts if p["draft"] == "d3"]
assert [(p["front"], p["at"]) for p in d3] == \
    [("mastodon", "2026-12-02T10:00:00+01:00")], d3
assert posts[0]["at"] >= "2026-12-01T11:00:00+01:00", posts[0]
assert "has passed" in o["stats"]["warnings"][0]
PYEOF
}
for iso in thread process; do
	expect_exit "plan with pins ($iso)" 0 "$FRONTS" plan -C "$D" \
	    --isolation $iso --workers 1 --iterations 1500 --seed 2 --json \
	    -o "$TMPD/plan-$iso.json"
	expect_grep "start passed: warned ($iso)" \
	    "warning: the plan's start, 2026-12-01T09:00:00\+01:00, has passed: the next slot from now is 2026-12-01T11:00:00\+01:00" "$TMPD/err"
	if check_plan "$TMPD/plan-$iso.json" 2>"$TMPD/py.err"; then
		pass "every pin honoured ($iso)"
	else
		fail "every pin honoured ($iso)" "$(cat "$TMPD/py.err")"
	fi
done

# publish says the same of a plan whose start passed (three hours on).
expect_exit "publish a plan whose start is ahead: no warning" 0 \
    "$FRONTS" publish "$TMPD/plan-thread.json" -C "$D"
expect_no_grep "no warning before the start" "has passed" "$TMPD/err"
expect_exit "publish a plan whose start passed (dry run)" 0 \
    env FRONTS_TEST_NOW=2026-12-01T12:10:00Z \
    "$FRONTS" publish "$TMPD/plan-thread.json" -C "$D"
expect_grep "publish warns the start passed" \
    "fronts publish: warning: the plan's start, 2026-12-01T11:00:00\+01:00, has passed: the next slot from now is 2026-12-01T14:00:00\+01:00" "$TMPD/err"

# Pins the rules refuse: never written by fronts pin (exit 3, the file as
# it was), refused by plan before any search, by line and rule.
expect_exit "pin: text too long for the front" 3 "$FRONTS" pin -C "$D" d3 x
expect_grep "refusal names the line and the rule" \
    "pins.jsonl:4: pin of d3 on x refused: .*max_length" "$TMPD/err"
expect_exit "pin: not on a slot boundary" 3 \
    "$FRONTS" pin -C "$D" d9 x 2026-12-02T10:30:00+01:00
expect_grep "off-grid refusal names the nearest slots" \
    "not on a slot boundary .*2026-12-02T10:00:00\+01:00 and 2026-12-02T11:00:00\+01:00" "$TMPD/err"
expect_exit "pin: after the horizon" 3 \
    "$FRONTS" pin -C "$D" d9 x 2027-01-20T10:00:00+01:00
expect_exit "pin: unknown draft" 2 "$FRONTS" pin -C "$D" nope x
expect_exit "pin: bad time" 2 "$FRONTS" pin -C "$D" d9 x tomorrow
if cmp -s "$D/pins.jsonl" "$TMPD/pins.good"; then
	pass "refused pins leave pins.jsonl as it was"
else
	fail "refused pins leave pins.jsonl as it was"
fi
echo '{"draft": "d9", "front": "x", "at": "2026-12-02T02:00:00+01:00"}' >>"$D/pins.jsonl"
expect_exit "plan refuses a pin in quiet hours" 3 "$FRONTS" plan -C "$D" \
    --isolation thread --iterations 50
expect_grep "quiet-hours refusal by line" \
    "pins.jsonl:4: pin of d9 on x at 2026-12-02T02:00:00\+01:00 refused: inside the front's quiet hours" "$TMPD/err"
expect_no_grep "no search ran" "iterations" "$TMPD/out"
cp "$TMPD/pins.good" "$D/pins.jsonl"
echo '{"draft": "d99", "front": "x", "oops": 1}' >>"$D/pins.jsonl"
expect_exit "plan refuses an unknown draft in pins.jsonl" 1 "$FRONTS" plan \
    -C "$D" --isolation thread --iterations 50
expect_grep "loader names file, line and field" \
    "pins.jsonl:4: field \"draft\"" "$TMPD/err"
cp "$TMPD/pins.good" "$D/pins.jsonl"

# The calendar: 80 columns unless the terminal or COLUMNS is wider.
expect_exit "plan --calendar" 0 env -u COLUMNS "$FRONTS" plan -C "$D" \
    --isolation thread --iterations 800 --calendar
if $PY -c 'import sys; assert max(len(l.rstrip("\n")) for l in open(sys.argv[1])) <= 80' "$TMPD/out"
then pass "calendar fits 80 columns"; else fail "calendar fits 80 columns"; fi
expect_grep "calendar: fronts as columns" "^ +x +linkedin +mastodon +bluesky" "$TMPD/out"
expect_grep "calendar: days separated" "^-- Wed 2026-12-02 ---" "$TMPD/out"
expect_grep "calendar: the pinned post in its cell" "^10:00 .*d3 [0-9]" "$TMPD/out"
expect_exit "show --calendar, 132 columns" 0 env COLUMNS=132 "$FRONTS" show \
    -C "$D" "$TMPD/plan-thread.json" --calendar
if $PY -c 'import sys; assert max(len(l.rstrip("\n")) for l in open(sys.argv[1])) > 80' "$TMPD/out"
then pass "calendar uses a wider terminal"; else fail "calendar uses a wider terminal"; fi
expect_exit "show" 0 "$FRONTS" show -C "$D" "$TMPD/plan-thread.json"
expect_grep "show: each post's state" "mastodon +d3 .* planned$" "$TMPD/out"
expect_exit "show --json --calendar" 0 "$FRONTS" show -C "$D" \
    "$TMPD/plan-thread.json" --json --calendar
if $PY -c '
import json,sys
o=json.load(open(sys.argv[1]))
assert o["fronts"]==["x","linkedin","mastodon","bluesky"]
cells=[c for r in o["rows"] for c in r["cells"] if c]
assert all(c["state"]=="planned" for c in cells)
assert any(c["draft"]=="d3" for c in cells)' "$TMPD/out"
then pass "show --json --calendar: rows of cells"; else fail "show --json --calendar"; fi
expect_exit "show: usage" 2 "$FRONTS" show -C "$D"
