#!/bin/sh
# The TUI acts only on what it showed: a y given to the approve dialog
# after a background synthesis replaced the model approves nothing, and a
# y given to the publish dialog after the planner handed over a new plan
# sends (dry run: marks; live: connects, writes to the ledger) nothing;
# the status line says why. Also: a model whose
# source holds terminal controls is drawn with them visible.
#
# The races are made deterministic, not timed: the fake language model
# holds its answer until the test creates a file (fake_llm.py
# "hold_until"), and the planner's run ends when the test sends its
# workers the stop signal the planner itself uses (SIGUSR1), both while
# the dialog is on screen.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
FAKE_PID=
trap 'tui_stop; [ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null; rm -rf "$TMPD"' EXIT

if ! command -v tmux >/dev/null 2>&1; then
	fail "tmux available" "tmux is needed for the TUI tests"
	exit 1
fi
export FRONTS_THEMES="$TOP/themes"
export FRONTS_RETRY_SCALE=0.001
unset OPENAI_API_KEY OPENAI_BASE_URL

# The fronts process inside the tmux pane.
tui_pid() {
	pid=$(tmx display -p -t t '#{pane_pid}')
	pgrep -P "$pid" -x "${FRONTS##*/}" || echo "$pid"
}

# --- approve while a synthesis replaces the model ------------------------
D=$TMPD/approve
new_demo "$D"
OLD=$(sha256sum "$D/model.py" | cut -d' ' -f1)
{ cat "$D/model.py"; printf '\n# the next version\n'; } >"$TMPD/new_model.py"
NEW=$(sha256sum "$TMPD/new_model.py" | cut -d' ' -f1)
FAKE_DIR=$TMPD/fake
mkdir -p "$FAKE_DIR"
printf '[{"code_file": "%s", "hold_until": "%s"}]\n' "$TMPD/new_model.py" \
    "$TMPD/release" >"$FAKE_DIR/script.json"
/usr/bin/python3 "$TOP/tests/servers/fake_llm.py" --script "$FAKE_DIR/script.json" \
    --log "$FAKE_DIR" --port-file "$FAKE_DIR/port" &
FAKE_PID=$!
i=0
while [ ! -s "$FAKE_DIR/port" ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
export ANTHROPIC_API_KEY=sk-ant-test-races
export ANTHROPIC_BASE_URL=http://127.0.0.1:$(cat "$FAKE_DIR/port")

tui_start 160 40 "$FRONTS tui -C $D"
check_screen "races: the old model is shown" "sha256 $(echo "$OLD" | cut -c1-20)"
tui_keys s
i=0
while [ ! -s "$FAKE_DIR/requests.jsonl" ] && [ $i -lt "$TUI_TIMEOUT" ]; do
	sleep 0.1; i=$((i + 1))
done
if [ -s "$FAKE_DIR/requests.jsonl" ]; then pass "races: synthesis is waiting on its answer"
else fail "races: synthesis is waiting on its answer" "no request reached the fake"; fi
tui_keys a
check_screen "races: the dialog shows the old model" "sha256 $OLD"
touch "$TMPD/release"
check_screen "races: the new model arrives under the open dialog" "synth: new model $(echo "$NEW" | cut -c1-12)"
check_screen "races: the dialog is still open" "Approve only code you have read"
tui_keys y
check_screen "races: the status line says why nothing was approved" \
    "model changed while the dialog was open: nothing approved"
if [ -f "$D/.fronts/approved" ] && grep -q -e "$NEW" -e "$OLD" "$D/.fronts/approved"; then
	fail "races: neither model is approved" "$(cat "$D/.fronts/approved")"
else pass "races: neither model is approved"; fi
check_screen "races: the new model stays unapproved" "model unapproved"
# The same dialog with nothing changing underneath still approves.
tui_keys a
tui_wait "sha256 $NEW"
tui_keys y
check_screen "races: an undisturbed y approves" "approved $(echo "$NEW" | cut -c1-12)"
expect_grep "races: the shown model is the one approved" "^$NEW$" "$D/.fronts/approved"
tui_keys q
tui_stop
kill "$FAKE_PID" 2>/dev/null
FAKE_PID=

# --- quitting while a synthesis waits on its answer -----------------------
# The synthesis runs on a thread of the TUI: q stops its request at once,
# and nothing of it is written.
Q=$TMPD/quit
new_demo "$Q"
QOLD=$(sha256sum "$Q/model.py" | cut -d' ' -f1)
QREPORTS=$(ls "$Q/.fronts" 2>/dev/null | grep -c '^synth-' || true)
FAKE_DIR=$TMPD/fakeq
mkdir -p "$FAKE_DIR"
printf '[{"code_file": "%s", "hold_until": "%s"}]\n' "$TMPD/new_model.py" \
    "$TMPD/never" >"$FAKE_DIR/script.json"
/usr/bin/python3 "$TOP/tests/servers/fake_llm.py" --script "$FAKE_DIR/script.json" \
    --log "$FAKE_DIR" --port-file "$FAKE_DIR/port" &
FAKE_PID=$!
i=0
while [ ! -s "$FAKE_DIR/port" ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
export ANTHROPIC_BASE_URL=http://127.0.0.1:$(cat "$FAKE_DIR/port")
tui_start 160 40 "$FRONTS tui -C $Q; echo EXIT=\$? >$TMPD/qexit"
check_screen "races: the old model is shown before quitting" "sha256 $(echo "$QOLD" | cut -c1-20)"
tui_keys s
check_screen "races: the status line shows the synthesis's progress" \
    "synth: round 1: asking anthropic"
i=0
while [ ! -s "$FAKE_DIR/requests.jsonl" ] && [ $i -lt "$TUI_TIMEOUT" ]; do
	sleep 0.1; i=$((i + 1))
done
tui_keys q
check_file "races: q during a synthesis quits cleanly" "EXIT=0" "$TMPD/qexit"
sha256sum "$Q/model.py" >"$TMPD/qsha"
expect_grep "races: the stopped synthesis wrote no model" "^$QOLD " "$TMPD/qsha"
if [ "$(ls "$Q/.fronts" 2>/dev/null | grep -c '^synth-' || true)" = "$QREPORTS" ]; then
	pass "races: the stopped synthesis wrote no report"
else fail "races: the stopped synthesis wrote no report" "$(ls "$Q/.fronts")"; fi
tui_stop
kill "$FAKE_PID" 2>/dev/null
FAKE_PID=

# --- publish while the planner hands over a new plan ---------------------
P=$TMPD/publish
new_demo "$P"
"$FRONTS" -C "$P" approve --yes >/dev/null 2>&1
tui_start 160 40 "$FRONTS tui -C $P; echo EXIT=\$? >$TMPD/exit"
tui_cmd "workers 1"
tui_cmd "plan 200"
check_screen "races: a first plan" "plan ready"
tui_cmd "seconds 600"
# Enough iterations that the stopped search has a post to hand over.
if tui_wait 'running · ([1-9][0-9]{2,}|[0-9.]+[kM]) it' E; then
	pass "races: a second plan is searching"
else fail "races: a second plan is searching" "$(cat "$TMPD/screen")"; fi
tui_keys 4 P
check_screen "races: the publish dialog is open" "Publish (dry run)"
check_screen "races: the planner still runs under it" "planner running"
# Stop the workers the way the planner does; the stopped search hands its
# tree over as the next plan while the dialog is still open.
for w in $(pgrep -P "$(tui_pid)"); do kill -USR1 "$w"; done
check_screen "races: the new plan arrives under the open dialog" "plan ready"
tui_keys y
check_screen "races: the status line says why nothing was sent" \
    "plan changed while the dialog was open: nothing sent"
if grep -qF "[dry run]" "$TMPD/screen"; then
	fail "races: no post of the new plan is marked" "$(cat "$TMPD/screen")"
else pass "races: no post of the new plan is marked"; fi
# An undisturbed dialog still does what it says.
tui_keys P
tui_wait "Publish (dry run)"
tui_keys y
check_screen "races: an undisturbed y acts" "dry run: nothing sent"
tui_keys q
tui_wait "The plan has not been written"
tui_keys y
check_file "races: quits cleanly" "EXIT=0" "$TMPD/exit"
tui_stop

# --- live: a y after a new plan arrived sends nothing ---------------------
# The fake Composio server counts connections; the plan opened from a file
# is replaced by the planner's while the dialog for its post 2 is open.
export COMPOSIO_API_KEY=ck-test-races FAKE_COMPOSIO_KEY=ck-test-races
LOG=$TMPD/social.log
: >"$LOG"
/usr/bin/python3 "$TOP/tests/servers/fake_social.py" --port-file "$TMPD/sport" \
    --log "$LOG" --mode ok &
FAKE_PID=$!
i=0
while [ ! -s "$TMPD/sport" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
export COMPOSIO_BASE_URL=http://127.0.0.1:$(cat "$TMPD/sport")
L=$TMPD/live
/usr/bin/python3 "$TOP/tests/cli/publish_fixture.py" both "$L" "$(cat "$TMPD/sport")" 5 \
    x:d1:1 linkedin:d2:2
cp "$TOP/fixtures/demo/model.py" "$L/model.py"
"$FRONTS" -C "$L" approve --yes >/dev/null 2>&1
tui_start 160 40 "$FRONTS tui -C $L --live; echo EXIT=\$? >$TMPD/exit"
tui_cmd "open $L/plan.json"
check_screen "races live: the plan file is open" "opened $L/plan.json: 2 posts"
tui_cmd "workers 1"
tui_cmd "seconds 600"
if tui_wait 'running · ([1-9][0-9]{2,}|[0-9.]+[kM]) it' E; then
	pass "races live: the planner is searching"
else fail "races live: the planner is searching" "$(cat "$TMPD/screen")"; fi
tui_keys 4 j P
check_screen "races live: the dialog shows post 2" "Publish (LIVE)"
check_screen "races live: it is the opened plan's post" "How we cut sync conflicts"
for w in $(pgrep -P "$(tui_pid)"); do kill -USR1 "$w"; done
check_screen "races live: the new plan arrives under the open dialog" "plan ready"
tui_keys y
check_screen "races live: the status line says why nothing was sent" \
    "plan changed while the dialog was open: nothing sent"
if grep -q '"ev": "connect"' "$LOG"; then
	fail "races live: no connection was made" "$(cat "$LOG")"
else pass "races live: no connection was made"; fi
if [ -f "$L/.fronts/ledger.jsonl" ] && grep -q intent "$L/.fronts/ledger.jsonl"; then
	fail "races live: no ledger intent" "$(cat "$L/.fronts/ledger.jsonl")"
else pass "races live: no ledger intent"; fi
tui_keys q
tui_wait "Live mode: some planned posts have not been sent."
tui_keys y
check_file "races live: quits cleanly" "EXIT=0" "$TMPD/exit"
tui_stop
kill "$FAKE_PID" 2>/dev/null
FAKE_PID=

# --- controls in the source are drawn visibly ----------------------------
C=$TMPD/controls
new_demo "$C"
{ printf 'x = 1  # \033[2K\033[1Gx = 2\n'; printf 's = "a\342\200\256b"\n'; cat "$C/model.py"; } >"$C/model.py.new"
mv "$C/model.py.new" "$C/model.py"
tui_start 120 40 "$FRONTS tui -C $C"
check_screen "races: the model pane shows ESC visibly" 'x = 1  # \x1b[2K\x1b[1Gx = 2'
check_screen "races: the model pane shows a bidi override visibly" 's = "a<U+202E>b"'
check_screen "races: the gate refuses it" "gate: REFUSED"
check_screen "races: the verdict names the rule" "[control-char]"
tui_keys q
tui_stop
