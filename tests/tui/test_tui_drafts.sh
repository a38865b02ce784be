#!/bin/sh
# What the Candidates pane shows of a draft beyond one text: a thread as
# one candidate with its parts and their lengths, its images with their
# verdicts, the alt text on i, and the variant a front gets; the editor
# goes through every part of a thread (Enter and PgDn next, PgUp back),
# counting each part's length on the front as it is typed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

PY=/usr/bin/python3
FIX=$TOP/tests/cli/publish_fixture.py
export FRONTS_THEMES="$TOP/themes"
trap 'tui_stop; rm -rf "$TMPD"' EXIT

P=$TMPD/p
$PY "$FIX" both "$P" 9 5 x:d1:1 mastodon:d2:2
mkdir -p "$P/media"
cp "$TOP/fixtures/demo/media/harbour.png" "$P/media/"
$PY - "$P/drafts.jsonl" <<'PYEOF'
import json, sys
path = sys.argv[1]
ds = [json.loads(l) for l in open(path)]
for d in ds:
    if d["id"] == "d1":
        d["media"] = [{"path": "media/harbour.png", "alt": "A boat on a calm sea ALT-SHOWN"}]
        d["thread"] = ["SECOND-PART of the thread, with its own length."]
    if d["id"] == "d2":
        d["variants"] = {"mastodon": "A shorter version for Mastodon."}
open(path, "w").write("".join(json.dumps(d) + "\n" for d in ds))
PYEOF

tui_start 140 50 "$FRONTS tui -C $P; echo EXIT=\$? >$TMPD/exit"
check_screen "drafts: the TUI starts" "DRY-RUN"
tui_cmd "open $P/plan.json"
check_screen "drafts: :open loads the plan" "2 posts"
tui_keys 4
check_screen "drafts: a thread with an image is one candidate, marked" "[2 parts · 1 img]"
check_screen "drafts: the detail lists the second part with its length" "part 2/2 · 47/280"
check_screen "drafts: the detail shows the image" "[image media/harbour.png, alt]"
check_no_screen "drafts: alt text hidden until asked" "ALT-SHOWN"
tui_keys i
check_screen "drafts: i shows the alt text" "A boat on a calm sea ALT-SHOWN"
tui_keys i
check_no_screen "drafts: i again hides it" "ALT-SHOWN"
check_screen "drafts: the variant a front gets is named" "[variant mastodon]"
check_screen "drafts: the help line lists i" "i alt text"

# --- every part of a thread is edited, each counted ---------------------------
tui_keys e
if tui_wait '^edit 1/2> \([a-z]+ [0-9]+/280\) ' E; then pass "drafts: the editor opens part 1 of 2, counted"
else fail "drafts: the editor opens part 1 of 2, counted" "$(cat "$TMPD/screen")"; fi
tui_keys Enter
if tui_wait '^edit 2/2> \([a-z]+ 47/280\) SECOND-PART' E; then pass "drafts: Enter goes on to part 2, counted on its own"
else fail "drafts: Enter goes on to part 2, counted on its own" "$(cat "$TMPD/screen")"; fi
tui_keys Home
tui_keys -l "PART2-EDITED "
if tui_wait '^edit 2/2> \([a-z]+ 60/280\) PART2-EDITED' E; then pass "drafts: part 2's count follows the typing"
else fail "drafts: part 2's count follows the typing" "$(cat "$TMPD/screen")"; fi
tui_keys PageUp
if tui_wait '^edit 1/2> \([a-z]+ [0-9]+/280\) ' E; then pass "drafts: PgUp goes back to part 1"
else fail "drafts: PgUp goes back to part 1" "$(cat "$TMPD/screen")"; fi
tui_keys PageDown
if tui_wait '^edit 2/2> \([a-z]+ 60/280\) PART2-EDITED' E; then pass "drafts: PgDn comes back to part 2 as it was typed"
else fail "drafts: PgDn comes back to part 2 as it was typed" "$(cat "$TMPD/screen")"; fi
tui_keys Enter
check_screen "drafts: the edit names the part and its length" "post 1 edited: part 2 60/280 within the limit"
check_screen "drafts: the detail shows part 2 as edited" "part 2/2 · 60/280"
check_screen "drafts: the edited part's text is shown" "PART2-EDITED SECOND-PART"

# An over-long later part is flagged, in the editor and in the pane.
tui_keys e
tui_wait '^edit 1/2> ' E
tui_keys Enter
tui_wait '^edit 2/2> ' E
tui_keys End
tui_keys -l "$(printf '%0230d' 0)"
if tui_wait '^edit 2/2> \([a-z]+ 290/280 OVER\) ' E; then pass "drafts: the editor says a later part is over"
else fail "drafts: the editor says a later part is over" "$(cat "$TMPD/screen")"; fi
tui_keys Enter
check_screen "drafts: the message says the part is over" "part 2 290/280 OVER"
check_screen "drafts: the pane flags the part" "part 2/2 · 290/280 — over the limit"
tui_keys P
check_screen "drafts: publishing refuses the over-long part" "part 2 of 2: length 290/280"
tui_keys Escape
tui_wait 'DRY-RUN' F

# Ctrl-C in any part drops the whole edit.
tui_keys e
tui_wait '^edit 1/2> ' E
tui_keys -l "LOST-ONE "
tui_keys Enter
tui_wait '^edit 2/2> ' E
tui_keys C-u
tui_keys -l "LOST-TWO"
tui_keys C-c
check_screen "drafts: Ctrl-C in part 2 cancels the edit" "edit cancelled"
check_no_screen "drafts: nothing of the cancelled edit stays" "LOST-"
check_screen "drafts: the earlier edit of part 2 stays" "part 2/2 · 290/280"

# :write keeps the edited parts, which a plan file carries as "thread".
tui_cmd "write $TMPD/edited.json"
check_screen "drafts: :write names the file" "wrote $TMPD/edited.json"
if grep -q '"thread":.*PART2-EDITED' "$TMPD/edited.json"; then pass "drafts: the written plan carries the edited part"
else fail "drafts: the written plan carries the edited part" "$(cat "$TMPD/edited.json")"; fi
tui_keys q
tui_wait "EXIT=" F >/dev/null || true
