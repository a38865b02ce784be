#!/bin/sh
# The TUI's accuracy: the Model pane's backtest line before approval
# (from the synthesis report that validated those bytes), measured in the
# sandbox once approved, and the :accuracy view (figures against the
# baselines, the scatter, the heatmaps), drawn in block characters.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
trap 'tui_stop; rm -rf "$TMPD"' EXIT

if ! command -v tmux >/dev/null 2>&1; then
	fail "tmux available" "tmux is needed for the TUI tests"
	exit 1
fi
export FRONTS_THEMES="$TOP/themes"

# --- unapproved, never synthesised: nothing runs, the pane says so ------
D="$TMPD/demo"
new_demo "$D"
tui_start 120 40 "$FRONTS tui -C $D"
check_screen "accuracy: unapproved model is not measured" "backtest: not measured yet"
tui_keys a
tui_wait "Approve model"
tui_keys y
check_screen "accuracy: measured once approved" "backtest: mae_log 0."
check_screen "accuracy: against the baselines" "front_median 0."
tui_keys : accuracy Enter
check_screen "accuracy: the view opens" "Accuracy: the newest 20% of history"
check_screen "accuracy: the figures table" "hour_weekday"
check_screen "accuracy: the builtin model as the third baseline" "  builtin  "
check_screen "accuracy: the verdict on the builtin" "the builtin model"
check_screen "accuracy: the scatter's axis" "▔▔▔▔▔▔▔▔"
check_screen "accuracy: says where the figures are from" "figures from a run in the sandbox worker"
tui_keys End
check_screen "accuracy: a heatmap per front" "bluesky"
check_screen "accuracy: heatmap rows by weekday" "  Sun   "
tui_keys Escape
check_no_screen "accuracy: Esc closes the view" "Accuracy: the newest 20%"
tui_keys q
tui_stop

# --- synthesised (replay), unapproved: the synthesis report's figures --
D2="$TMPD/demo2"
new_demo "$D2"
rm -f "$D2/model.py"
"$FRONTS" synth -C "$D2" >"$TMPD/synth.out" 2>&1 || fail "accuracy: synth replay" "$(tail -3 "$TMPD/synth.out")"
tui_start 120 40 "$FRONTS tui -C $D2"
check_screen "accuracy: figures before approval, from synthesis" "backtest: mae_log 0."
check_screen "accuracy: still unapproved" "approval: NOT approved"
tui_keys : accuracy Enter
check_screen "accuracy: the view names the synthesis report" "figures from synth-"
tui_keys q
tui_stop

# --- posts fronts published, pulled back: marked live in the scatter ---
D3="$TMPD/demo3"
new_demo "$D3"
python3 - "$D3/fronts.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["objective"] = {"likes": 1, "reposts": 2, "replies": 3}
json.dump(j, open(sys.argv[1], "w"), indent=1)
PY
python3 "$TOP/tests/cli/live_fixture.py" "$D3/history.jsonl" 8 0.05
"$FRONTS" -C "$D3" approve --yes >/dev/null 2>&1
tui_start 120 60 "$FRONTS tui -C $D3"
check_screen "live: measured once approved" "backtest: mae_log 0."
tui_keys : accuracy Enter
check_screen "live: the figures" "live: 6 posts · mae_log "
check_screen "live: the verdict and the advice" "coverage80 0% · worse than promised: run \`fronts synth\` again"
check_screen "live: the legend names the glyph" "◆ live: a post fronts published, at its prediction saved at publish (6)"
if tui_wait "▕[^▕]*◆" E; then pass "live: the posts marked in the scatter"
else fail "live: the posts marked in the scatter" "$(cat "$TMPD/screen")"; fi
tui_keys q
tui_stop
