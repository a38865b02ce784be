#!/bin/sh
# What the Candidates pane shows of a draft beyond one text: a thread as
# one candidate with its parts and their lengths, its images with their
# verdicts, the alt text on i, and the variant a front gets.
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
tui_keys q
tui_wait "EXIT=" F >/dev/null || true
