#!/bin/sh
# The layer check (tests/layers.sh) passes on this checkout and fails, naming
# the file, on a tree where a lower layer includes a higher one, where net
# and sandbox include each other, or where core includes curses or curl.
. "$(dirname "$0")/../lib.sh"

expect_exit "layers: this checkout has no upward include" 0 sh "$TOP/tests/layers.sh" "$TOP"

# fake_tree DIR FOLDER FILE LINE — a tree of empty layers plus one file.
fake_tree() {
	rm -rf "$1"
	for d in core sandbox net runs cli ui; do mkdir -p "$1/src/$d"; done
	mkdir -p "$1/src/$2"
	printf '%s\n' "$4" >"$1/src/$2/$3"
}

F=$TMPD/tree
fake_tree "$F" core plan.c '#include "runs/planner.h"'
expect_exit "layers: core including runs fails" 1 sh "$TOP/tests/layers.sh" "$F"
expect_grep "layers: the failure names the file" 'src/core/plan.c includes runs/' "$TMPD/out"

fake_tree "$F" net synth.c '#include "sandbox/gate.h"'
expect_exit "layers: net including sandbox fails" 1 sh "$TOP/tests/layers.sh" "$F"

fake_tree "$F" sandbox worker.c '#include "net/http.h"'
expect_exit "layers: sandbox including net fails" 1 sh "$TOP/tests/layers.sh" "$F"

fake_tree "$F" ui ui.c '#include "cli/cli.h"'
expect_exit "layers: ui including cli fails (the TUI is a client of the layers)" 1 sh "$TOP/tests/layers.sh" "$F"

fake_tree "$F" cli cmd_tui.c '#include "ui/ui.h"'
expect_exit "layers: cli including ui passes (cli is the top)" 0 sh "$TOP/tests/layers.sh" "$F"

fake_tree "$F" core util.c '#include <curl/curl.h>'
expect_exit "layers: core including curl fails" 1 sh "$TOP/tests/layers.sh" "$F"

fake_tree "$F" extra x.c '#include "core/util.h"'
expect_exit "layers: an unknown folder fails" 1 sh "$TOP/tests/layers.sh" "$F"

fake_tree "$F" ui pane.c '#include "runs/planner.h"'
expect_exit "layers: ui including runs passes" 0 sh "$TOP/tests/layers.sh" "$F"
