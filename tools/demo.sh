#!/bin/sh
# make demo: the main job on the bundled demo project, offline, no keys.
# Works on a scratch copy so the bundled project stays pristine.
set -e
FRONTS=$1
TOP=$(cd "$(dirname "$0")/.." && pwd)
DEMO=${FRONTS_DEMO_DIR:-$TOP/build/demo}
rm -rf "$DEMO"
"$FRONTS" init "$DEMO"
echo "== fronts history import (the X archive and the Mastodon outbox in fixtures/demo/exports)"
"$FRONTS" -C "$DEMO" history import "$TOP/fixtures/demo/exports/tweets.js" --front x
"$FRONTS" -C "$DEMO" history import "$TOP/fixtures/demo/exports/outbox.json" --front mastodon
echo "== fronts history import again (nothing new)"
"$FRONTS" -C "$DEMO" history import "$TOP/fixtures/demo/exports/tweets.js" --front x --dry-run
echo "== fronts history topics"
"$FRONTS" -C "$DEMO" history topics
echo "== fronts drafts"
"$FRONTS" -C "$DEMO" drafts || true
echo "== fronts gate model.py"
"$FRONTS" gate "$DEMO/model.py"
echo "== fronts approve --yes"
"$FRONTS" -C "$DEMO" approve --yes
echo "== fronts plan"
"$FRONTS" -C "$DEMO" plan --iterations 20000 --seed 1 -o "$DEMO/plan.json"
echo "== fronts publish (dry run)"
"$FRONTS" -C "$DEMO" publish "$DEMO/plan.json"
# Last, the TUI on the same project when there is a terminal to show it
# on; without one (CI, a pipe) the demo ends here.
if [ -t 0 ] && [ -t 1 ]; then
	echo "== fronts tui (? shows every key, q quits)"
	"$FRONTS" -C "$DEMO" tui
fi
