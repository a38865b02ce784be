#!/bin/sh
# The :calendar view, driven in tmux: the plan day by front with a cursor;
# g puts a draft in a cell, m moves a post, s swaps two, p pins one, d
# drops a draft; each edit writes pins.jsonl (as `fronts pin` does), the
# planner plans again around it and the header shows the new expected
# total beside the old; an edit the rules refuse leaves pins.jsonl alone.
. "$(dirname "$0")/../lib.sh"
command -v tmux >/dev/null 2>&1 || { fail "tmux available" "needed here"; exit 1; }
. "$(dirname "$0")/tmux.sh"
trap 'tui_stop; rm -rf "$TMPD"' EXIT
D="$TMPD/demo"
new_demo "$D"
export FRONTS_THEMES="$TOP/themes"
"$FRONTS" approve -C "$D" --yes >/dev/null 2>&1

# replanned N — the header after edit N, once its plan is in.
replanned() {
	if tui_wait "edit $2 · expected total [0-9.]+ \(before the edit [0-9.]+\) *│" E
	then pass "$1"; else fail "$1" "$(cat "$TMPD/screen")"; fi
}
# has_pin NAME JSON-LINE — pins.jsonl holds that line.
has_pin() {
	if grep -qxF -- "$2" "$D/pins.jsonl" 2>/dev/null; then pass "$1"
	else fail "$1" "pins.jsonl: $(cat "$D/pins.jsonl" 2>/dev/null)"; fi
}

tui_start 160 50 "$FRONTS tui -C $D"
tui_wait "─ Candidates " >/dev/null
tui_cmd "calendar"
check_screen "tui calendar: refused without a plan" "no plan yet"
tui_cmd "isolation thread"
tui_cmd "plan 300"
check_screen "tui calendar: a plan first" "plan ready"
tui_cmd "calendar"
check_screen "tui calendar: the view opens" "─ Calendar "
check_screen "tui calendar: the fronts as columns" "x"
check_screen "tui calendar: the days" "── Tue 2026-12-01 ──"
check_screen "tui calendar: the total" "expected total"
# The cursor starts on the first slot (11:00: the test clock is 10:10 in
# Berlin, the demo's start passed) and the first front.
tui_keys Right Right g d 7 Enter
replanned "tui calendar: g puts a draft, the plan comes again" 1
has_pin "tui calendar: g writes the pin" '{"draft":"d7","front":"mastodon","at":"2026-12-01T11:00:00+01:00"}'
check_screen "tui calendar: the draft is in its cell" "d7 "
tui_keys m Down Down Enter
replanned "tui calendar: m moves a post" 2
has_pin "tui calendar: the move is a pin at 13:00" '{"draft":"d7","front":"mastodon","at":"2026-12-01T13:00:00+01:00"}'
tui_keys Right g d 8 Enter
replanned "tui calendar: a second draft put" 3
tui_keys s Left Enter
replanned "tui calendar: s swaps two posts" 4
has_pin "tui calendar: swapped: d8 where d7 was" '{"draft":"d8","front":"mastodon","at":"2026-12-01T13:00:00+01:00"}'
has_pin "tui calendar: swapped: d7 where d8 was" '{"draft":"d7","front":"bluesky","at":"2026-12-01T13:00:00+01:00"}'
tui_keys p
replanned "tui calendar: p pins a post where it is" 5
tui_keys d
replanned "tui calendar: d drops a draft" 6
has_pin "tui calendar: the drop is in pins.jsonl" '{"draft":"d8","drop":true}'
if grep -q '"draft":"d8","front"' "$D/pins.jsonl"; then
	fail "tui calendar: the drop replaced d8's pin"
else pass "tui calendar: the drop replaced d8's pin"; fi
if grep -qE '[ !~+x?-]d8 [0-9]' "$TMPD/screen"; then
	fail "tui calendar: a dropped draft is in no cell" "$(cat "$TMPD/screen")"
else pass "tui calendar: a dropped draft is in no cell"; fi
cp "$D/pins.jsonl" "$TMPD/pins.before"
tui_keys Left Left g d 3 Enter
check_screen "tui calendar: a pin the rules refuse is refused" "pins.jsonl:3: pin of d3 on x at"
if cmp -s "$D/pins.jsonl" "$TMPD/pins.before"; then
	pass "tui calendar: a refused edit leaves pins.jsonl alone"
else fail "tui calendar: a refused edit leaves pins.jsonl alone"; fi
"$FRONTS" pin -C "$D" --list >"$TMPD/list"
expect_grep "tui calendar: fronts pin reads what the TUI wrote" "d7 +on bluesky +2026-12-01T13:00:00\+01:00" "$TMPD/list"
tui_keys Escape
check_no_screen "tui calendar: Esc closes the view" "─ Calendar "
