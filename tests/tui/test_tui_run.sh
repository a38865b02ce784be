#!/bin/sh
# The TUI's run mode (R, :run): with the test clock running ten minutes a
# second, a post whose slot has come opens the publish dialog by itself
# (the bell rings, --notify runs), the status line counts down to the next
# post, the next post's dialog opens when its slot comes, and a post
# whose window closed is skipped. A dry run: nothing is sent.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

PY=/usr/bin/python3
FIX=$TOP/tests/cli/publish_fixture.py
export COMPOSIO_API_KEY="ck-SENTINEL-91ab-composio"
export FAKE_COMPOSIO_KEY="$COMPOSIO_API_KEY"
export FRONTS_THEMES="$TOP/themes"
. "$TOP/tests/cli/fake_social.sh"
trap 'tui_stop; stop_fake; rm -rf "$TMPD"' EXIT

start_fake fake ok
P=$TMPD/run
# The fixture's slot 0 began three hours before the pinned 09:10: slot 2's
# window (08:00-09:00) has closed, slot 3 (09:00) is due, slot 4 (10:00)
# comes fifty minutes later.
$PY "$FIX" both "$P" "$PORT" 5 reddit:d3:2 x:d1:3 linkedin:d2:4

# --notify writes its environment aside and renames it: the file appears
# whole, so the check that waits for it never reads half of it.
tui_start 120 40 "FRONTS_TEST_NOW=${FRONTS_TEST_NOW}x600 $FRONTS tui -C $P --notify 'env >$TMPD/notify.tmp && mv $TMPD/notify.tmp $TMPD/notify.env'"
check_screen "run mode: the TUI is up" "DRY-RUN"
tui_cmd "open $P/plan.json"
check_screen "run mode: :open loads the plan" "opened $P/plan.json: 3 posts"
tui_keys R
check_screen "run mode: a post whose window closed is skipped, never offered" "skipped"
check_screen "run mode: the due post's dialog opens by itself" "Publish (dry run)"
check_screen "run mode: it is the post of the slot that came" "account  @tidewaterdev"
check_file "run mode: --notify ran with the post's draft" "FRONTS_DRAFT=d1" "$TMPD/notify.env"
if grep -q SENTINEL "$TMPD/notify.env"; then fail "run mode: no secret in --notify's environment"
else pass "run mode: no secret in --notify's environment"; fi
tui_keys n
check_no_screen "run mode: n closes the dialog" "Publish (dry run)"
check_screen "run mode: not now: offered again inside its window" "Publish (dry run)"
check_screen "run mode: the same post again" "account  @tidewaterdev"
tui_keys y
check_screen "run mode: the status line counts down to the next post" "RUN: next d2 on linkedin"
check_screen "run mode: the next post's dialog opens at its slot" "account  Tidewater Labs GmbH"
tui_keys y
check_screen "run mode: y in a dry run sends nothing" "dry run: nothing sent"
tui_cmd "run off"
check_screen "run mode: :run off ends it" "run mode off"
check_no_screen "run mode: no run line once off" "RUN:"
if [ "$(count '"ev": "post"')" -eq 0 ]; then pass "run mode: a dry run posts nothing"
else fail "run mode: a dry run posts nothing"; fi
tui_keys q

# --- live: a closed window is recorded, and run mode holds the lock ---------
P=$TMPD/live
$PY "$FIX" both "$P" "$PORT" 5 reddit:d3:2 linkedin:d2:6
tui_stop
tui_start 120 40 "$FRONTS tui -C $P --live"
check_screen "live run mode: the TUI is up" "LIVE"
tui_cmd "open $P/plan.json"
check_screen "live run mode: the plan is loaded" "opened $P/plan.json: 2 posts"
tui_keys R
check_screen "live run mode: the closed window is told" "skipped (late)"
expect_grep "live run mode: skipped (late) in the ledger" '"record":"skipped".*"reason":"late"' "$P/.fronts/ledger.jsonl"
expect_exit "live run mode: a second writer is refused" 1 "$FRONTS" history pull -C "$P"
expect_grep "live run mode: the refusal names run mode" 'held by pid [0-9]+ \(fronts TUI run mode\)' "$TMPD/err"
tui_cmd "run off"
check_screen "live run mode: :run off" "run mode off"
expect_exit "live run mode: off, the lock is free again" 0 "$FRONTS" history pull -C "$P" --front mastodon
tui_keys q
