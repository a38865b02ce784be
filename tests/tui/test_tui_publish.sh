#!/bin/sh
# Publishing from the TUI against the fake Composio server on 127.0.0.1
# (tests/servers/fake_social.py): the dialog shows the exact request, n
# sends nothing, y sends exactly one request, the outcome shows in the
# Candidates pane and the ledger, a sent post is never sent again, and a
# dry run sends nothing even on y.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

PY=/usr/bin/python3
FIX=$TOP/tests/cli/publish_fixture.py
SENTINEL=SENTINEL-7c1d
export COMPOSIO_API_KEY="ck-$SENTINEL-composio"
export FAKE_COMPOSIO_KEY="$COMPOSIO_API_KEY"
export FRONTS_THEMES="$TOP/themes"
. "$TOP/tests/cli/fake_social.sh"
trap 'tui_stop; stop_fake; rm -rf "$TMPD"' EXIT

start_fake fake ok
check_count() {
	got=$(count "$2")
	if [ "$got" -eq "$3" ]; then pass "$1"
	else fail "$1" "$got lines match $2 in the fake's log, wanted $3"; fi
}

P=$TMPD/live
$PY "$FIX" both "$P" "$PORT" 5 x:d1:1 linkedin:d2:2

# --- live: n sends nothing, y sends one request --------------------------
tui_start 120 40 "$FRONTS tui -C $P --live; echo EXIT=\$? >$TMPD/exit"
check_screen "publish: status line says LIVE" "LIVE"
tui_cmd "open $P/plan.json"
check_screen "publish: :open loads a plan" "opened $P/plan.json: 2 posts"
tui_keys 4 P
check_screen "publish: P opens the live dialog" "Publish (LIVE)"
check_screen "publish: the dialog names the account" "account  @tidewaterdev"
check_screen "publish: the dialog shows the request URL" "127.0.0.1:$PORT/api/v3.1/tools/execute/"
check_screen "publish: the dialog shows the text" "Tidewater 1.0 is out"
if grep -qF "$SENTINEL" "$TMPD/screen"; then
	fail "publish: the key is never on screen"
else pass "publish: the key is never on screen"; fi
tui_keys n
check_screen "publish: n cancels" "cancelled: nothing was sent"
check_count "publish: n makes zero connections" '"ev": "connect"' 0

tui_keys P
tui_wait "Publish (LIVE)"
tui_keys y
check_screen "publish: y sends and shows the outcome" "[sent]"
check_count "publish: y sends exactly one request" '"ev": "request"' 1
check_count "publish: one post created" '"ev": "post"' 1
expect_grep "publish: the ledger records the send" '"sent"' "$P/.fronts/ledger.jsonl"

tui_keys P
check_screen "publish: a sent post is not offered again" "not sending: already sent"
check_count "publish: still one request" '"ev": "request"' 1

# --- an edited post is named as such in the dialog -------------------------
tui_keys Down e
tui_wait '^edit> ' E
tui_keys Home
tui_keys -l "EDITED "
tui_keys Enter
check_screen "publish: the edit is taken" "post 2 edited"
tui_keys P
check_screen "publish: the dialog says the text is edited" "edited from draft d2"
tui_keys n
check_screen "publish: n cancels the edited post" "cancelled: nothing was sent"

tui_keys q
check_screen "publish: q asks with unsent live posts" "Live mode: some planned posts have not been sent."
tui_keys y
check_file "publish: quits cleanly" "EXIT=0" "$TMPD/exit"
tui_stop

# --- dry run: even y sends nothing ----------------------------------------
# start_on DIR WIDTH ENV ARGS — a fresh one-post project in DIR and a TUI
# on it (ENV before the binary, ARGS after), its plan open and P pressed.
start_on() {
	$PY "$FIX" both "$1" "$PORT" 5 x:d1:1
	: >"$LOG"
	tui_start "$2" 40 "$3 $FRONTS tui -C $1 $4"
	tui_cmd "open $1/plan.json"
	tui_wait "opened"
	tui_keys 4 P
}

D=$TMPD/dry
start_on "$D" 120 "" ""
check_screen "publish: dry-run dialog" "Publish (dry run)"
tui_keys y
check_screen "publish: dry run says nothing was sent" "dry run: nothing sent"
check_count "publish: dry run makes zero connections" '"ev": "connect"' 0
if [ -f "$D/.fronts/ledger.jsonl" ] && grep -q intent "$D/.fronts/ledger.jsonl"; then
	fail "publish: dry run writes no ledger intent"
else pass "publish: dry run writes no ledger intent"; fi
tui_keys q
tui_stop

# --- sent, but the outcome cannot be written --------------------------------
# The test swaps the ledger for a directory while the publishing thread
# waits after the response, so the outcome record fails although the post
# exists.
U=$TMPD/unrec
start_on "$U" 160 "FRONTS_TEST_PAUSE_AT=after-response FRONTS_TEST_RESUME_FILE=$TMPD/resume" "--live 2>$TMPD/tui.err"
tui_wait "Publish (LIVE)"
tui_keys y
check_file "unrecorded: the thread pauses after the response" "paused" "$TMPD/tui.err"
mv "$U/.fronts/ledger.jsonl" "$TMPD/ledger.keep" && mkdir "$U/.fronts/ledger.jsonl" && touch "$TMPD/resume"
check_screen "unrecorded: says sent, outcome not recorded" "sent, outcome not recorded"
if grep -qiF "nothing sent" "$TMPD/screen"; then
	fail "unrecorded: never says nothing was sent" "$(cat "$TMPD/screen")"
else pass "unrecorded: never says nothing was sent"; fi
check_screen "unrecorded: names fronts ledger resolve" "fronts ledger resolve"
check_count "unrecorded: one post created" '"ev": "post"' 1
rmdir "$U/.fronts/ledger.jsonl" && mv "$TMPD/ledger.keep" "$U/.fronts/ledger.jsonl"
tui_keys P
check_screen "unrecorded: the post is not offered again" "an earlier attempt is unresolved"
check_count "unrecorded: still one request" '"ev": "request"' 1
tui_keys q
tui_keys y
tui_stop
expect_exit "unrecorded: fronts ledger" 0 "$FRONTS" ledger -C "$U"
expect_grep "unrecorded: the ledger lists it unknown" 'unknown .*front x' "$TMPD/out"
# --- the request is prepared off the screen's thread -----------------------
# Bluesky resolves each mention before the request exists; with a slow
# resolveHandle the screen still answers keys, and the dialog comes once
# the request is ready.
start_fake fake ok --resolve-delay 2
B=$TMPD/bsky
$PY "$FIX" both "$B" "$PORT" 5 bluesky:d5:1
: >"$LOG"
tui_start 160 40 "$FRONTS tui -C $B"
tui_cmd "open $B/plan.json"
tui_wait "opened"
tui_keys 4 P
check_screen "prepare: P says the request is being prepared" "preparing the request for post 1"
tui_keys P
check_screen "prepare: the screen answers keys meanwhile" "being prepared; wait for it"
if grep -qF "Publish (dry run)" "$TMPD/screen"; then
	fail "prepare: no dialog before the request is ready"
else pass "prepare: no dialog before the request is ready"; fi
check_screen "prepare: then the dialog" "Publish (dry run)"
check_screen "prepare: with the resolved mention" "did:plc:alicealicealice"
tui_keys n
check_screen "prepare: n cancels" "cancelled: nothing was sent"
check_count "prepare: nothing posted" '"ev": "post"' 0
tui_keys q
tui_stop

expect_no_grep "TUI: no sentinel key in any file" "$SENTINEL" "$TMPD"
