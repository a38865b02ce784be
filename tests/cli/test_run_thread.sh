#!/bin/sh
# fronts run --live and a thread: killed (kill -9) between its parts, the
# next run offers the thread again, goes on at the first part not sent,
# replying to the last part sent, and never sends part 1 twice — as
# test_thread.sh checks for `fronts publish` — on Bluesky (root and parent)
# and on Mastodon (in_reply_to_id), against tests/servers/fake_social.py.
# A thread whose window closed before the next run (the draft's not_after,
# or its slot's window) is not sent on: the run says which parts will not
# be sent and why, records it, and `fronts ledger` shows it.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
DRIVE=$TOP/tests/cli/run_drive.py
FIX=$TOP/tests/cli/publish_fixture.py
SENTINEL=SENTINEL-41c9e2
export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-mastodon"
export BLUESKY_APP_PASSWORD="bp-$SENTINEL-bluesky"
export FAKE_MASTODON_TOKEN="$MASTODON_ACCESS_TOKEN"
export FAKE_BLUESKY_PASSWORD="$BLUESKY_APP_PASSWORD"
export FRONTS_TEST_WAIT_SCALE=0.001
export FIXTURE_THREAD=1
unset FRONTS_TEST_PAUSE_AT FRONTS_TEST_RESUME_FILE

. "$TOP/tests/cli/fake_social.sh"
trap 'stop_fake; [ -n "$KEEP" ] || rm -rf "$TMPD"' EXIT

posts() { grep '"ev": "post"' "$LOG"; }
# run NAME [DRIVE-OPTIONS] — fronts run --live on the plan, through a pty
# (no re-plans: the fixture has no approved model, so the plan is the one
# written); RC its status.
run() {
	n=$1; shift
	$PY "$DRIVE" --out "$TMPD/$n.out" --timeout 60 "$@" -- "$FRONTS" run \
	    "$P/plan.json" -C "$P" --live --timeout-ms 3000 \
	    >"$TMPD/$n.drive" 2>&1
	RC=$?
}

for front in bluesky mastodon; do
	start_fake "$front" ok
	P=$TMPD/$front
	$PY "$FIX" both "$P" "$PORT" 5 "$front:d8:3"

	FRONTS_TEST_PAUSE_AT=between-parts run "${front}1" --kill-on paused
	check "$front: killed between parts (SIGKILL)" "$RC" 137
	check "$front: part 1 posted, part 2 not" "$(posts | wc -l)" 1
	first=$(posts | sed -n '1s/.*"id": "\([a-z0-9]*\)".*/\1/p')
	check "$front: one intent and one sent so far" \
	    "$(grep -c '"record":"intent"' "$P/.fronts/ledger.jsonl")/$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")" 1/1

	run "${front}2"
	check "$front: the next run ends, exit 0" "$RC" 0
	expect_grep "$front: the thread is offered again, going on at part 2" \
	    'parts 1-1 of 3 were sent; it goes on at part 2' "$TMPD/${front}2.out"
	expect_grep "$front: sent" 'all 3 parts sent' "$TMPD/${front}2.out"
	check "$front: three posts in all, part 1 requested once" \
	    "$(posts | wc -l)/$(grep -c '"Tides, part one' "$LOG")" 3/1
	second=$(posts | sed -n '2s/.*"id": "\([a-z0-9]*\)".*/\1/p')
	if [ "$front" = bluesky ]; then
		check "$front: part 2 replies to part 1 (parent)" \
		    "$(posts | sed -n 2p | grep -c "\"parent\": {\"cid\": \"bafyfake$first\"")" 1
		check "$front: part 3 replies to part 2, its root part 1" \
		    "$(posts | sed -n 3p | grep "\"parent\": {\"cid\": \"bafyfake$second\"" | grep -c "\"root\": {\"cid\": \"bafyfake$first\"")" 1
	else
		check "$front: part 2 replies to part 1" \
		    "$(posts | sed -n 2p | grep -c "\"in_reply_to_id\": \"$first\"")" 1
		check "$front: part 3 replies to part 2" \
		    "$(posts | sed -n 3p | grep -c "\"in_reply_to_id\": \"$second\"")" 1
	fi
	check "$front: one intent and one sent per part" \
	    "$(grep -c '"record":"intent"' "$P/.fronts/ledger.jsonl")/$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")" 3/3
	expect_exit "$front: ledger" 0 "$FRONTS" ledger -C "$P"
	expect_grep "$front: the ledger has the whole thread" 'thread: 3 of 3 parts sent' "$TMPD/out"

	run "${front}3"
	check "$front: a third run sends nothing" "$(posts | wc -l)" 3
	expect_no_grep "$front: no secret on the terminal" "$SENTINEL" \
	    "$TMPD/${front}1.out" "$TMPD/${front}2.out"
done

# --- the thread's window closed before the next run ----------------------------
# begin_closed NAME — a project whose thread d8 on Mastodon is killed
# between parts 1 and 2 (its window is closed after, before the next run).
begin_closed() {
	start_fake "$1" ok
	P=$TMPD/$1
	$PY "$FIX" both "$P" "$PORT" 5 "mastodon:d8:3"
	FRONTS_TEST_PAUSE_AT=between-parts run "${1}1" --kill-on paused
	check "$1: killed between parts, part 1 posted" "$RC/$(posts | wc -l)" 137/1
}
begin_closed notafter
$PY - "$P/drafts.jsonl" "$(test_date '-15 seconds')" <<'PYEOF'
import json, sys
p = sys.argv[1]
lines = [json.loads(l) for l in open(p)]
for d in lines:
    if d["id"] == "d8":
        d["not_after"] = sys.argv[2]
open(p, "w").write("".join(json.dumps(d) + "\n" for d in lines))
PYEOF
expect_exit "not_after: publish's dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "not_after: publish refuses the rest, and why" \
    "parts 2-3 of 3 will not be sent: now .* is outside draft d8's window \(not_after" "$TMPD/out"
run notafter2
check "not_after: the run ends, exit 0" "$RC" 0
expect_grep "not_after: the run says which parts will not go, and why" \
    "d8 on mastodon: parts 2-3 of 3 of the thread will not be sent: the draft's window \(not_after\) closed at 2026-12-01T09:09:45\+00:00, recorded in the ledger" \
    "$TMPD/notafter2.out"
expect_no_grep "not_after: the thread is not offered" 'goes on at part 2' "$TMPD/notafter2.out"
check "not_after: nothing more posted" "$(posts | wc -l)" 1
expect_exit "not_after: ledger" 0 "$FRONTS" ledger -C "$P"
expect_grep "not_after: the ledger has part 2 skipped, with why" \
    'part 2/3  [0-9a-f]+  skipped  d8 on mastodon: parts 2-3 of 3 of the thread will not be sent' "$TMPD/out"
expect_grep "not_after: and part 3 not sent" 'part 3/3  not sent: the part before was skipped' "$TMPD/out"
expect_grep "not_after: the thread's summary" 'thread: 1 of 3 parts sent; the rest will not be sent' "$TMPD/out"
run notafter3
check "not_after: a third run says nothing of it, sends nothing" \
    "$(grep -c 'will not be sent' "$TMPD/notafter3.out")/$(posts | wc -l)" 0/1

# The slot's own window (an hour, the default lateness) closed: the same.
begin_closed slotend
FRONTS_TEST_NOW=$(test_date '+2 hours') run slotend2
check "slot window: the run ends, exit 0" "$RC" 0
expect_grep "slot window: the run says which parts will not go, and why" \
    'd8 on mastodon: parts 2-3 of 3 of the thread will not be sent: its window closed at 2026-12-01T10:00:00\+00:00, recorded in the ledger' \
    "$TMPD/slotend2.out"
check "slot window: nothing more posted" "$(posts | wc -l)" 1
