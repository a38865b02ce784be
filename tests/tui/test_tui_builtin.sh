#!/bin/sh
# The TUI on a project made by `fronts init --empty`: the Model pane says
# there is no model yet and how to get one; `:synth builtin` writes the
# builtin model in the background, unapproved, with no key set.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
trap 'tui_stop; rm -rf "$TMPD"' EXIT

if ! command -v tmux >/dev/null 2>&1; then
	fail "tmux available" "tmux is needed for the TUI tests"
	exit 1
fi
export FRONTS_THEMES="$TOP/themes"

E="$TMPD/empty"
"$FRONTS" init --empty "$E" >/dev/null
tui_start 140 40 "env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY $FRONTS tui -C $E"
check_screen "empty: the TUI opens on it" "my-project"
check_screen "empty: the Model pane says how to get a model" "no world model yet"
tui_cmd ':synth nonsense'
check_screen "empty: :synth refuses an unknown argument" ":synth takes nothing or builtin"
tui_cmd ':synth builtin'
check_screen "empty: :synth builtin writes a model" "synth: new model"
check_screen "empty: it is not approved" "approval: NOT approved"
check_screen "empty: its source is shown" "The builtin world model of fronts"
cmp -s "$TOP/src/sandbox/py/builtin_model.py" "$E/model.py" &&
	pass "empty: model.py is the builtin model" ||
	fail "empty: model.py is the builtin model"
tui_keys q
tui_stop
