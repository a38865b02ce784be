#!/bin/sh
# The TUI, driven in tmux: the four panes on the demo project, verdict
# markers for a refused model, the approval flow, a short plan filling the
# Search and Candidates panes, resizing, :theme, the publish dialog, the
# help screen, editing, and a clean exit that restores the terminal.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
trap 'tui_stop; rm -rf "$TMPD"' EXIT

if ! command -v tmux >/dev/null 2>&1; then
	fail "tmux available" "tmux is needed for the TUI tests"
	exit 1
fi
export FRONTS_THEMES="$TOP/themes"
D="$TMPD/demo"
new_demo "$D"
SHA=$(sha256sum "$D/model.py" | cut -d' ' -f1)

# --- the four panes on the demo project --------------------------------
tui_start 120 40 "$FRONTS tui -C $D; { echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo)\$'; } >$TMPD/exit1"
check_screen "tui: Rules pane shows rules.md" "Tidewater — social posting rules"
check_screen "tui: Model pane shows numbered source" "   1  # World model"
check_screen "tui: Model pane shows the sha256" "sha256 $(echo "$SHA" | cut -c1-20)"
check_screen "tui: Search pane is there" "─ Search "
check_screen "tui: Candidates pane is there" "─ Candidates "
check_screen "tui: status line says DRY-RUN" "DRY-RUN"
check_screen "tui: status line names the project" "tidewater-launch │ model unapproved"
# The parsed hard limits follow the prose (scroll to the end).
tui_keys 1 End
check_screen "tui: Rules pane lists the hard limits" "Hard limits (fronts.json, enforced)"
check_screen "tui: limits per front" "≤280 weighted · 4/day · gap"

# --- a mouse click moves the focus (X10 mouse report: button 1 pressed
# and released at column 81, row 6, inside the Search pane) ---------------
tui_keys -l "$(printf '\033[M q&\033[M#q&')"
check_screen "tui: a click focuses the pane under it" "─ Search ─ p plan/stop · Enter unfold"

# --- help ----------------------------------------------------------------
tui_keys '?'
check_screen "tui: ? shows every key" "P: publish the selected post"
tui_keys x
check_no_screen "tui: any key closes the help" "P: publish the selected post"

# --- approval flow -------------------------------------------------------
tui_keys p
check_screen "tui: p refuses an unapproved model" "the model is not approved"
tui_keys a
check_screen "tui: a asks before approving" "Approve model"
tui_keys n
check_screen "tui: n does not approve" "not approved"
if [ -s "$D/.fronts/approved" ] && grep -q "$SHA" "$D/.fronts/approved"; then
	fail "tui: nothing approved after n"
else pass "tui: nothing approved after n"; fi
tui_keys a
tui_wait "Approve model"
tui_keys y
check_screen "tui: y approves" "model approved"
expect_grep "tui: approval recorded in .fronts/approved" "$SHA" "$D/.fronts/approved"

# --- a short plan ----------------------------------------------------------
tui_cmd "isolation sideways"
check_screen "tui: :isolation checks its argument" ":isolation takes process or thread"
tui_cmd "workers 2"
check_screen "tui: :workers sets the workers" "workers: 2 (next plan)"
tui_cmd "plan 100"
check_screen "tui: :plan runs the planner to the end" "planner done"
check_screen "tui: the Model pane shows the checks passed" "approval: approved  checks: ok"
check_screen "tui: Search pane shows root children" "reward±95%"
tui_wait "post d"
if grep -qE '^│[▾▸ ] +(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [0-9]{2} [0-9:]{5} (wait|post d[0-9]+ → [a-z]+) +[0-9.k]+ ' "$TMPD/screen" ||
   grep -qE '(wait|post d[0-9]+ → [a-z]+) +[0-9.k]+ +-?[0-9]+\.[0-9]{2} ' "$TMPD/screen"; then
	pass "tui: search rows have visits and mean"
else fail "tui: search rows have visits and mean" "$(cat "$TMPD/screen")"; fi
check_screen "tui: Candidates pane shows the plan" "expected total"
tui_wait "expected total"
if grep -qE '(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [0-9]{2} [0-9:]{5} [a-z]+ +d[0-9]+ +[0-9]+/[0-9]+ ' "$TMPD/screen"; then
	pass "tui: candidate rows show time, front, draft and length/limit"
else fail "tui: candidate rows show time, front, draft and length/limit" "$(cat "$TMPD/screen")"; fi

# --- a long plan: q asks while planning, Esc stops, z zooms ----------------
tui_cmd "seconds 120"
check_screen "tui: :seconds starts a timed plan" "planner running"
# Workers start slowly under sanitizers: let them search before Esc, or the
# stop comes before the first iteration and there is nothing to keep.
if tui_wait 'running · [1-9][0-9]* it' E; then
	pass "tui: the timed plan is searching"
else fail "tui: the timed plan is searching" "$(cat "$TMPD/screen")"; fi
tui_keys q
check_screen "tui: q asks while the planner runs" "The planner is running; quitting stops it."
tui_keys n
check_screen "tui: n keeps the TUI running" "not quitting"
tui_keys z
check_no_screen "tui: z zooms the focused pane" "─ Rules "
tui_keys z
check_screen "tui: z again restores the layout" "─ Rules "
tui_keys Escape
check_screen "tui: Esc stops the planner" "planner stopped"
check_screen "tui: the plan is still there after a stop" "expected total"
# The stopped workers hand their trees back a moment later; wait for that
# result before the next command, whose message it would otherwise replace.
if tui_wait 'plan ready|the previous plan stays|planner failed' E; then
	pass "tui: the stopped planner hands back its result"
else fail "tui: the stopped planner hands back its result" "$(cat "$TMPD/screen")"; fi

# --- :write and :open --------------------------------------------------------
tui_cmd "write $TMPD/plan.json"
check_screen "tui: :write saves the plan" "wrote $TMPD/plan.json"
if [ -s "$TMPD/plan.json" ] && grep -q '"plan"' "$TMPD/plan.json"; then
	pass "tui: the written plan is plan JSON"
else fail "tui: the written plan is plan JSON"; fi

# --- edit the selected post ----------------------------------------------------
tui_keys 4
tui_keys e
tui_wait '^edit> ' E
if tui_wait '^edit> \([a-z]+ [0-9]+/[0-9]+\) ' E; then pass "tui: the editor counts the post's length on its front"
else fail "tui: the editor counts the post's length on its front" "$(cat "$TMPD/screen")"; fi
# At the start of the text, so the edit is on screen however long the post.
tui_keys Home
tui_keys -l "EDITED-BY-TEST "
if tui_wait '^edit> \([a-z]+ [0-9]+/[0-9]+( OVER)?\) EDITED-BY-TEST' E; then pass "tui: the count follows the typing"
else fail "tui: the count follows the typing" "$(cat "$TMPD/screen")"; fi
tui_keys Enter
check_screen "tui: e edits the selected post" "post 1 edited"
check_screen "tui: the edit shows in the Candidates pane" "EDITED-BY-TEST"

# --- Ctrl-C in the editor cancels the edit; it never ends fronts ------------
tui_keys e
tui_wait '^edit> ' E
tui_keys Home
tui_keys -l "LOST-EDIT "
tui_keys C-c
check_screen "tui: Ctrl-C in the editor cancels the edit" "edit cancelled"
check_screen "tui: fronts still runs after Ctrl-C in the editor" "DRY-RUN"
check_no_screen "tui: the cancelled text is not in the plan" "LOST-EDIT"
check_screen "tui: the earlier edit stays" "EDITED-BY-TEST"
# Ctrl-C outside the editor is q: with the edited plan unwritten, it asks.
tui_keys C-c
check_screen "tui: Ctrl-C asks before losing an unsaved plan" "The plan has not been written"
tui_keys n
check_screen "tui: n keeps the unsaved plan" "not quitting"

# --- :theme ------------------------------------------------------------------
tui_cmd "theme dark"
check_screen "tui: :theme switches the theme" "theme dark"
tui_cmd "theme no-such-theme"
check_screen "tui: :theme names an unknown theme" "no theme named 'no-such-theme'"
tui_cmd "bogus"
check_screen "tui: unknown commands are reported" "unknown command :bogus"

# --- resize --------------------------------------------------------------------
# Side by side, the top screen line holds two pane corners; stacked, one.
corners() { head -n 1 "$TMPD/screen" | grep -o '┐' | wc -l; }
tmx resize-window -t t -x 80 -y 24
i=0
while [ $i -lt 50 ]; do
	tui_screen >"$TMPD/screen"
	# Until the redraw is whole: a capture may land in the middle of it.
	[ "$(corners)" -eq 1 ] && [ "$(wc -l <"$TMPD/screen")" -eq 24 ] &&
	    [ "$(grep -c '─ \(Rules\|Model\|Search\|Candidates\) ' "$TMPD/screen")" -eq 4 ] &&
	    break
	sleep 0.1; i=$((i + 1))
done
if [ "$(grep -c '─ \(Rules\|Model\|Search\|Candidates\) ' "$TMPD/screen")" -eq 4 ] &&
   [ "$(corners)" -eq 1 ]; then
	pass "tui: 80x24 stacks all four panes"
else fail "tui: 80x24 stacks all four panes" "$(cat "$TMPD/screen")"; fi
check_screen "tui: the badge survives a small terminal" "DRY-RUN"
tmx resize-window -t t -x 120 -y 40
i=0
while [ $i -lt 50 ]; do
	tui_screen >"$TMPD/screen"
	[ "$(corners)" -eq 2 ] && break
	sleep 0.1; i=$((i + 1))
done
if [ "$(corners)" -eq 2 ] && head -n 1 "$TMPD/screen" | grep -q '─ Rules .*─ Search '; then
	pass "tui: 120x40 puts panes side by side again"
else fail "tui: 120x40 puts panes side by side again" "$(cat "$TMPD/screen")"; fi

# --- quit and terminal restore ------------------------------------------------
tui_keys q
check_screen "tui: q asks before losing an unsaved plan" "The plan has not been written (:write PLAN.json keeps it)"
tui_keys n
tui_cmd "write $TMPD/plan-edited.json"
check_screen "tui: :write saves the edited plan" "wrote $TMPD/plan-edited.json"
tui_keys q
check_file "tui: q exits with status 0" "EXIT=0" "$TMPD/exit1"
check_file "tui: terminal back in canonical mode" "icanon" "$TMPD/exit1"
check_file "tui: terminal modes read after q" "echo" "$TMPD/exit1"
if grep -qx -- '-icanon' "$TMPD/exit1" || grep -qx -- '-echo' "$TMPD/exit1"; then
	fail "tui: echo and icanon restored" "$(cat "$TMPD/exit1")"
else pass "tui: echo and icanon restored"; fi
tui_stop

# --- a refused model: verdicts are marked, approval impossible ----------------
R="$TMPD/refused"
new_demo "$R"
{ echo "import os"; echo "x = 1"; echo "def f(s):"; echo "    return open('/etc/passwd')"; cat "$D/model.py"; } >"$R/model.py.new"
mv "$R/model.py.new" "$R/model.py"
tui_start 120 40 "$FRONTS tui -C $R"
check_screen "tui: refused model says REFUSED" "gate: REFUSED"
check_screen "tui: a verdict marker on the refused line" "   1▶ import os"
check_screen "tui: the verdict's message under the line" "└─ col 0 [import]"
tui_keys n
check_screen "tui: n jumps to a verdict" "verdict 1/"
tui_keys a
check_screen "tui: a refuses a model the gate refused" "it cannot be approved"
tui_keys p
check_screen "tui: p refuses to plan with it" "the gate refused this model"
tui_keys q
tui_stop

# --- 80,000 refused lines: shown at once, the first 100 verdicts ---------------
# (The old gate took over five minutes on this file, and every redraw then
# matched each line against each verdict.)
M="$TMPD/many"
new_demo "$M"
/usr/bin/python3 -c 'import sys; sys.stdout.write("a._\n" * 80000)' >"$M/model.py"
tui_start 120 40 "$FRONTS tui -C $M"
check_screen "tui: many verdicts counted, the first 100 shown" "gate: REFUSED, 100 of 80000 verdicts shown"
tui_keys N
check_screen "tui: N jumps to the last verdict shown" "verdict 100/100"
check_screen "tui: its line is on screen" " 100▶ a._"
tui_keys q
tui_stop

# --- a model that fails its conformance checks: the planner refuses it ------
F="$TMPD/failing"
new_demo "$F"
sed 's/^def apply(state, action, rng):$/def apply(state, action, rng):\n    return 1 \/ 0/' "$D/model.py" >"$F/model.py"
if grep -q 'return 1 / 0' "$F/model.py"; then pass "tui: failing model prepared"
else fail "tui: failing model prepared" "no 'def apply(state, action, rng):' line in the demo model"; fi
"$FRONTS" -C "$F" approve --yes >/dev/null 2>&1
tui_start 120 40 "$FRONTS tui -C $F; echo EXIT=\$? >$TMPD/exit2"
check_screen "tui: failing model is approved" "model approved"
tui_cmd "plan 200"
check_screen "tui: a model that fails its checks is refused" "plan refused: failed check"
if tui_wait "plan refused: failed checks? [a-z]+-[a-z-]+" E; then pass "tui: the refusal names the failed check"
else fail "tui: the refusal names the failed check" "$(cat "$TMPD/screen")"; fi
check_screen "tui: the Model pane shows the verdict beside the approval" "approval: approved  checks: FAILED"
if tui_wait "│failed: [a-z]+-[a-z-]+" E; then pass "tui: the Model pane names the failed checks"
else fail "tui: the Model pane names the failed checks" "$(cat "$TMPD/screen")"; fi
check_no_screen "tui: no planner ran" "planner done"
tui_keys '?'
check_screen "tui: still responsive after the refusal" "P: publish the selected post"
tui_keys x q
check_file "tui: quits cleanly after a refusal" "EXIT=0" "$TMPD/exit2"
tui_stop
FSHA=$(sha256sum "$F/model.py" | cut -d' ' -f1)
if [ -f "$F/.fronts/conformance/$FSHA.json" ]; then pass "tui: the checks are kept by sha256"
else fail "tui: the checks are kept by sha256" "$(ls "$F/.fronts")"; fi
tui_start 120 40 "$FRONTS tui -C $F"
check_screen "tui: the kept verdict shows at once" "checks: FAILED"
tui_keys p
check_screen "tui: p refuses it from the kept verdict" "plan refused: failed check"
tui_keys q
tui_stop

# --- synthesis in the background: the new model arrives unapproved -----------
S="$TMPD/synth"
new_demo "$S"
rm -f "$S/model.py"
tui_start 120 40 "env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY $FRONTS tui -C $S"
check_screen "tui: no model yet" "model no model"
tui_keys s
check_screen "tui: s synthesises a model" "synth: new model"
check_screen "tui: the synthesised model is not approved" "approval: NOT approved"
check_screen "tui: its source is shown" "   1  #"
if [ -f "$S/model.py" ]; then pass "tui: synth wrote model.py"
else fail "tui: synth wrote model.py"; fi
tui_keys q
tui_stop

# --- 8-colour terminal and NO_COLOR -------------------------------------------
tui_start 100 30 "env TERM=screen NO_COLOR=1 $FRONTS tui -C $D --theme high-contrast; echo EXIT=\$? >$TMPD/exit3"
check_screen "tui: runs with NO_COLOR on an 8-colour terminal" "DRY-RUN"
tui_keys q
check_file "tui: NO_COLOR run exits cleanly" "EXIT=0" "$TMPD/exit3"
tui_stop
expect_exit "tui: unknown theme is an error" 1 sh -c "script -qec '$FRONTS tui -C $D --theme nope' /dev/null </dev/null"
expect_exit "tui: needs a terminal" 2 sh -c "$FRONTS tui -C $D </dev/null >/dev/null"

# --- a fatal signal restores the terminal too ---------------------------------
tui_start 100 30 "$FRONTS tui -C $D; { echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo)\$'; } >$TMPD/exit4"
tui_wait "DRY-RUN"
pid=$(tmx display -p -t t '#{pane_pid}')
tpid=$(pgrep -P "$pid" -x "${FRONTS##*/}" || echo "$pid")
kill -TERM "$tpid"
check_file "tui: SIGTERM ends the TUI" "EXIT=143" "$TMPD/exit4"
check_file "tui: terminal modes read after SIGTERM" "echo" "$TMPD/exit4"
if grep -qx -- 'icanon' "$TMPD/exit4" && grep -qx -- 'echo' "$TMPD/exit4"; then
	pass "tui: terminal restored after SIGTERM"
else fail "tui: terminal restored after SIGTERM" "$(cat "$TMPD/exit4")"; fi
tui_stop
