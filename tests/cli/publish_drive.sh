# Helpers for the thread and media publishing tests: source after
# tests/cli/fake_social.sh. proj NAME POST... writes a project of
# tests/cli/publish_fixture.py's "both" kind pointed at the fake ($P);
# drive NAME [pty_drive options] publishes $P/plan.json live under a
# terminal ($RC, $TMPD/NAME.out); line FILE TEXT is the number of FILE's
# first line holding TEXT; posts lists the fake's posts.
PY=/usr/bin/python3
DRIVE=$TOP/tests/pty_drive.py
FIX=$TOP/tests/cli/publish_fixture.py
PROMPT='Send this post now'
proj() { P=$TMPD/$1; shift; rm -rf "$P"; $PY "$FIX" both "$P" "$PORT" 5 "$@"; }
drive() {
	n=$1; shift
	$PY "$DRIVE" --out "$TMPD/$n.out" "$@" -- "$FRONTS" publish \
	    "$P/plan.json" -C "$P" --live --timeout-ms 3000 >"$TMPD/$n.drive" 2>&1
	RC=$?
}
line() { grep -n -F -- "$2" "$1" | head -n 1 | cut -d: -f1; }
posts() { grep '"ev": "post"' "$LOG"; }
