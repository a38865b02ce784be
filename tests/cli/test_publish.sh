#!/bin/sh
# fronts publish and fronts ledger against fake Composio, Mastodon and
# Bluesky servers on 127.0.0.1 (tests/servers/fake_social.py), with every
# keypress typed through a pseudo-terminal (tests/pty_drive.py). The fakes
# log each connection, request and created post; the checks count them.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
DRIVE=$TOP/tests/pty_drive.py
FIX=$TOP/tests/cli/publish_fixture.py

# Sentinel credentials: none may appear in any file or any output.
SENTINEL=SENTINEL-5b7e0c
export COMPOSIO_API_KEY="ck-$SENTINEL-composio"
export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-mastodon"
export BLUESKY_APP_PASSWORD="bp-$SENTINEL-bluesky"
export FAKE_COMPOSIO_KEY="$COMPOSIO_API_KEY"
export FAKE_MASTODON_TOKEN="$MASTODON_ACCESS_TOKEN"
export FAKE_BLUESKY_PASSWORD="$BLUESKY_APP_PASSWORD"
unset FRONTS_TEST_PAUSE_AT
EXTRA=

. "$TOP/tests/cli/fake_social.sh"
trap 'stop_fake; [ -n "$KEEP" ] || rm -rf "$TMPD"' EXIT

# proj NAME [CAP] [POSTS...] — a fresh project $TMPD/NAME with plan.json.
proj() {
	P=$TMPD/$1; shift
	cap=$1; shift
	rm -rf "$P"
	$PY "$FIX" both "$P" "$PORT" "$cap" "$@"
}

# drive NAME STEP... — fronts publish --live on a pty, transcript in
# $TMPD/NAME.out; sets RC.
drive() {
	n=$1; shift
	$PY "$DRIVE" --out "$TMPD/$n.out" "$@" -- "$FRONTS" publish \
	    "$P/plan.json" -C "$P" --live --timeout-ms 1500 $EXTRA \
	    >"$TMPD/$n.drive" 2>&1
	RC=$?
}


PROMPT='Send this post now'

# --- dry run: the exact requests, nothing sent ------------------------------
start_fake dry ok
proj dry 5 x:d1:1 linkedin:d2:1 mastodon:d3:2 bluesky:d4:2 x:d2:20 reddit:d3:3
expect_exit "dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
cp "$TMPD/out" "$TMPD/dry.out"
expect_grep "dry run says so" 'DRY RUN' "$TMPD/dry.out"
expect_grep "dry run: composio URL" "POST http://127.0.0.1:$PORT/api/v3.1/tools/execute/TWITTER_CREATION_OF_A_POST" "$TMPD/dry.out"
expect_grep "dry run: composio key as ***" '^x-api-key: \*\*\*$' "$TMPD/dry.out"
expect_grep "dry run: X body" '"arguments":\{"text":"Tidewater 1.0 is out: offline-first sync for field teams."\},"user_id":"tidewater","connected_account_id":"ca_test_x"' "$TMPD/dry.out"
expect_grep "dry run: LinkedIn arguments" '"commentary":"How we cut sync.*"author":"urn:li:organization:90412233","visibility":"PUBLIC"' "$TMPD/dry.out"
expect_grep "dry run: reddit passes every fixed argument and the pinned version" '"arguments":\{"subreddit":"tidewatersync","flair_id":"a1b2c3d4-flair","nsfw":false,"title":"Field teams: what breaks first when the network drops\?","kind":"self","text":""\},"user_id":"tidewater","version":"20260410_00"' "$TMPD/dry.out"
expect_grep "dry run: mastodon URL" "POST http://127.0.0.1:$PORT/api/v1/statuses" "$TMPD/dry.out"
expect_grep "dry run: mastodon token as ***" '^Authorization: \*\*\*$' "$TMPD/dry.out"
expect_grep "dry run: idempotency key from the entry" '^Idempotency-Key: fronts-e[0-9a-f]{16}$' "$TMPD/dry.out"
expect_grep "dry run: bluesky session, password as ***" '"identifier":"tidewater.dev","password":"\*\*\*"' "$TMPD/dry.out"
expect_grep "dry run: bluesky record key" '"collection":"app.bsky.feed.post","rkey":"[234567a-j][234567a-z]{12}"' "$TMPD/dry.out"
expect_grep "dry run: future post listed" 'planned for later' "$TMPD/dry.out"
check "dry run: zero connections" "$(count '"ev": "connect"')" 0
[ -e "$P/.fronts/ledger.jsonl" ] && fail "dry run writes no ledger" || pass "dry run writes no ledger"

# --- --live refuses without a terminal ---------------------------------------
expect_exit "--live without a terminal: exit 2" 2 "$FRONTS" publish "$P/plan.json" -C "$P" --live
expect_grep "--live without a terminal: says why" 'terminal' "$TMPD/err"
check "--live without a terminal: zero connections" "$(count '"ev": "connect"')" 0

# --- Bluesky mentions and tags as facets ----------------------------------------
start_fake facets ok
proj facets 5 bluesky:d5:1 bluesky:d6:2
expect_exit "facets: dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
O=$TMPD/facets.out
cp "$TMPD/out" "$O"
expect_grep "mention: a resolved handle is a mention facet" '\{"index":\{"byteStart":7,"byteEnd":25\},"features":\[\{"\$type":"app.bsky.richtext.facet#mention","did":"did:plc:alicealicealice"\}\]\}' "$O"
expect_grep "mention: an unresolved handle is named in the dry run" 'warning: @nobody.example does not resolve to an account \(HandleNotFound: Unable to resolve handle\): it stays plain text' "$O"
check "mention: the unresolved handle gets no facet" "$(grep -c '"byteStart":30,' "$O")" 0
check "mention: a Mastodon address is no Bluesky mention" "$(grep -c 'tidewater@mastodon' "$TMPD/facets.log")" 0
check "mention: each handle resolved once" "$(requests resolveHandle)" 2
expect_grep "tag: a hashtag is a tag facet" '"\$type":"app.bsky.richtext.facet#tag","tag":"sync"' "$O"
expect_grep "tag: 64 graphemes is a tag" '"tag":"a{64}"' "$O"
check "tag: 65 graphemes is not" "$(grep -cE '"tag":"b{65}"' "$O")" 0
expect_grep "tag: the long one is named" 'warning: #b{40}… is longer than a Bluesky tag may be \(64 graphemes, 640 bytes\): it stays plain text' "$O"
check "facets: the dry run posts nothing" "$(requests createRecord)" 0
proj mentions 5 bluesky:d7:1
expect_exit "mentions: dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "mention: after a parenthesis" '\{"index":\{"byteStart":1,"byteEnd":19\},"features":\[\{"\$type":"app.bsky.richtext.facet#mention"' "$TMPD/out"
expect_grep "mention: the closing full stop is not part of it" '\{"index":\{"byteStart":51,"byteEnd":69\},"features":\[\{"\$type":"app.bsky.richtext.facet#mention"' "$TMPD/out"
check "mention: none inside an e-mail address" "$(grep -o 'facet#mention' "$TMPD/out" | wc -l)" 2

# --- n sends nothing; q stops -------------------------------------------------
start_fake keys ok
proj keys 5 x:d1:1 mastodon:d3:2
drive n "expect:$PROMPT" send:n "expect:$PROMPT" send:n end
check "n: exit 0" "$RC" 0
expect_grep "n: skipped" 'skipped' "$TMPD/n.out"
check "n: zero connections" "$(count '"ev": "connect"')" 0
drive q "expect:$PROMPT" send:q end
expect_grep "q: stopped" 'stopped' "$TMPD/q.out"
check "q: the second post is not shown" "$(grep -c '== post 2/2' "$TMPD/q.out")" 0
check "q: zero connections" "$(count '"ev": "connect"')" 0

# --- no key in the environment: refused before any intent ------------------
unset COMPOSIO_API_KEY
drive nokey "expect:$PROMPT" send:y end
export COMPOSIO_API_KEY="$FAKE_COMPOSIO_KEY"
expect_grep "no key: names the variable" 'not sent: COMPOSIO_API_KEY is not set' "$TMPD/nokey.out"
check "no key: zero connections" "$(count '"ev": "connect"')" 0
[ -e "$P/.fronts/ledger.jsonl" ] && fail "no key: no intent" || pass "no key: no intent"

# --- y sends exactly one request, once ---------------------------------------
start_fake yes ok
proj yes 5 x:d1:1
drive y "expect:$PROMPT" send:y end
check "y (composio): exit 0" "$RC" 0
expect_grep "y (composio): SENT with the post's URL" 'SENT: https://x.com/i/web/status/[0-9]+' "$TMPD/y.out"
check "y (composio): exactly one request" "$(requests /api/v3.1/tools/execute/)" 1
check "y (composio): the key was accepted" "$(grep -c '"auth": "ok"' "$LOG")" 1
expect_grep "y (composio): ledger intent" '"record":"intent"' "$P/.fronts/ledger.jsonl"
expect_grep "y (composio): ledger sent" '"record":"sent"' "$P/.fronts/ledger.jsonl"
# the spread of one post's reward: (12 - 8) / 3.92 x sqrt(100 visits)
expect_grep "y (composio): the prediction with its sd" '"reward":10,"ci95":\[8,12\],"sd":10\.2040816' "$P/.fronts/predictions.jsonl"
expect_grep "y (composio): trajectory outcome" '"event":"publish-outcome".*"state":"sent"' "$P/.fronts/trajectories/publish.jsonl"
check "y (composio): v3.1 runs the tool's latest version" "$(grep -c '"ev": "tool-run".*"version": "20260403_00"' "$LOG")" 1
proj yesli 5 linkedin:d2:1 reddit:d3:1
drive yli "expect:$PROMPT" send:y "expect:$PROMPT" send:y end
check "y (linkedin, reddit): exit 0" "$RC" 0
expect_grep "y (linkedin): the ledger holds LinkedIn's share URN" '"record":"sent".*"post_id":"urn:li:share:7[0-9]+","url":"https://www.linkedin.com/feed/update/urn:li:share:7[0-9]+/"' "$P/.fronts/ledger.jsonl"
check "y (reddit): the pinned version ran" "$(grep -c '"ev": "tool-run", "t": [0-9.]*, "tool": "REDDIT_CREATE_REDDIT_POST", "version": "20260410_00"' "$LOG")" 1
check "y (reddit): flair_id reached the tool" "$(grep '"ev": "post"' "$LOG" | grep -c '"flair_id": "a1b2c3d4-flair"')" 1
P=$TMPD/yes
drive y2 end
check "re-run after sent: exit 0" "$RC" 0
expect_grep "re-run after sent: says already sent" 'already sent' "$TMPD/y2.out"
check "re-run after sent: no prompt" "$(grep -c "$PROMPT" "$TMPD/y2.out")" 0
check "re-run after sent: still one request" "$(requests /api/v3.1/tools/execute/TWITTER)" 1
expect_exit "fronts ledger lists the entry" 0 "$FRONTS" ledger -C "$P"
expect_grep "fronts ledger: sent" 'e[0-9a-f]{16}  sent' "$TMPD/out"

# --- the daily cap counts the ledger's sent posts ----------------------------
start_fake cap ok
proj cap 1 x:d1:1 x:d2:2
drive cap "expect:$PROMPT" send:y end
check "cap: one request" "$(requests /api/v3.1/tools/execute/)" 1
expect_grep "cap: the second post is refused by the legality engine" 'not offered: .*daily cap' "$TMPD/cap.out"
check "cap: one prompt only" "$(grep -c "$PROMPT" "$TMPD/cap.out")" 1
check "cap: exit 3 (refused)" "$RC" 3

# --- future posts wait unless --now ------------------------------------------
start_fake future ok
proj future 5 x:d1:30
drive future end
expect_grep "future: listed with its time, not offered" 'planned for later' "$TMPD/future.out"
check "future: no prompt" "$(grep -c "$PROMPT" "$TMPD/future.out")" 0
EXTRA=--now
drive futnow "expect:$PROMPT" send:n end
EXTRA=
check "future with --now: offered" "$(grep -c "$PROMPT" "$TMPD/futnow.out")" 1
check "future: zero connections" "$(count '"ev": "connect"')" 0

# --- Mastodon and Bluesky directly -------------------------------------------
start_fake direct ok
proj direct 5 mastodon:d3:1 bluesky:d4:1
drive direct "expect:$PROMPT" send:y "expect:$PROMPT" send:y end
check "direct: exit 0" "$RC" 0
check "mastodon: one status" "$(count '"platform": "mastodon"')" 1
check "mastodon: idempotency key sent" "$(grep '"path": "/api/v1/statuses"' "$LOG" | grep -c '"idempotency_key": "fronts-e')" 1
check "bluesky: one session" "$(requests createSession)" 1
check "bluesky: one record" "$(count '"platform": "bluesky"')" 1
expect_grep "bluesky: sent with its at:// uri" '"post_id":"at://did:plc:fakefakefake/app.bsky.feed.post/' "$P/.fronts/ledger.jsonl"

# --- a pinned tool version Composio does not have: failed, with its fix --------
start_fake badver ok
proj badver 5 reddit:d3:1
python3 - "$P/fronts.json" <<'PYEOF'
import json, sys
f = json.load(open(sys.argv[1]))
[x for x in f["fronts"] if x["id"] == "reddit"][0]["composio"]["version"] = "19990101_00"
json.dump(f, open(sys.argv[1], "w"))
PYEOF
drive badver "expect:$PROMPT" send:y end
check "unknown version: exit 5" "$RC" 5
expect_grep "unknown version: failed, with Composio's suggested fix" 'FAILED \(not posted\): HTTP 404: Tool REDDIT_CREATE_REDDIT_POST not found at version 19990101_00 \(suggested fix: Use one of the tool.s available versions\)' "$TMPD/badver.out"
check "unknown version: no post" "$(count '"ev": "post"')" 0

# --- provider error inside an HTTP 200 ---------------------------------------
start_fake perr provider-error
proj perr 5 x:d1:1
drive perr "expect:$PROMPT" send:y end
check "provider error: exit 5" "$RC" 5
expect_grep "provider error: message shown" 'FAILED \(not posted\): Composio: Twitter API error: 403 duplicate content' "$TMPD/perr.out"
expect_grep "provider error: ledger failed" '"record":"failed".*duplicate content' "$P/.fronts/ledger.jsonl"

# --- connection refused: failed ------------------------------------------------
start_fake gone ok
proj refused 5 x:d1:1 mastodon:d3:1
stop_fake	# nothing listens on PORT now
drive refused "expect:$PROMPT" send:y "expect:$PROMPT" send:y end
check "refused: exit 5" "$RC" 5
check "refused: both failed" "$(grep -c 'FAILED (not posted): nothing was sent' "$TMPD/refused.out")" 2
check "refused: ledger failed twice" "$(grep -c '"record":"failed"' "$P/.fronts/ledger.jsonl")" 2

# --- Bluesky: any non-2xx answer to createRecord is checked with getRecord ----
# A real PDS answers a reused record key with 500; the record under the key
# decides: ours (sent), none (failed after a 4xx, unknown after a 5xx), or
# someone else's (failed).
for mode in created-500 http500 http400 other-record; do
	start_fake "bs$mode" "$mode"
	proj "bs$mode" 5 bluesky:d4:1
	drive "bs$mode" "expect:$PROMPT" send:y end
	O=$TMPD/bs$mode.out
	check "bluesky $mode: one getRecord, by the session's DID" \
	    "$(grep '"path": "/xrpc/com.atproto.repo.getRecord"' "$LOG" | grep -c '"repo": "did:plc:fakefakefake"')" 1
	case $mode in
	created-500)
		check "bluesky $mode: exit 0" "$RC" 0
		expect_grep "bluesky $mode: sent, with the record's uri and cid" 'SENT: https://bsky.app/profile/tidewater.dev/post/[a-z2-7]{13} — createRecord answered HTTP 500, but the record under this key is this post: at://did:plc:fakefakefake/app.bsky.feed.post/[a-z2-7]{13} \(cid bafyfake' "$O"
		expect_grep "bluesky $mode: ledger sent" '"record":"sent","entry":"e[0-9a-f]{16}".*"post_id":"at://did:plc:fakefakefake/app.bsky.feed.post/' "$P/.fronts/ledger.jsonl" ;;
	http500)
		check "bluesky $mode: exit 5" "$RC" 5
		expect_grep "bluesky $mode: unknown" 'UNKNOWN: HTTP 500: InternalServerError: Internal Server Error; no record under the key' "$O"
		expect_grep "bluesky $mode: ledger unknown" '"record":"unknown"' "$P/.fronts/ledger.jsonl" ;;
	http400)
		check "bluesky $mode: exit 5" "$RC" 5
		expect_grep "bluesky $mode: failed" 'FAILED \(not posted\): HTTP 400: InvalidRequest: Invalid app.bsky.feed.post record; no record under the key' "$O"
		expect_grep "bluesky $mode: ledger failed" '"record":"failed"' "$P/.fronts/ledger.jsonl" ;;
	other-record)
		check "bluesky $mode: exit 5" "$RC" 5
		expect_grep "bluesky $mode: failed, the key holds another record" 'FAILED \(not posted\): HTTP 500: .*holds a different record' "$O"
		expect_grep "bluesky $mode: ledger failed" '"record":"failed"' "$P/.fronts/ledger.jsonl" ;;
	esac
done

# A lost answer: the record under the key settles it.
start_fake bsstall stall
proj bsstall 5 bluesky:d4:1
drive bsstall "expect:$PROMPT" send:y end
check "bluesky lost answer: exit 0" "$RC" 0
expect_grep "bluesky lost answer: the record found is the post" 'SENT: https://bsky.app/profile/tidewater.dev/post/[a-z2-7]{13} — the answer was lost \(.*\), but the record under this key is this post: at://' "$TMPD/bsstall.out"
check "bluesky lost answer: one record" "$(count '"ev": "post"')" 1
start_fake bsreset reset
proj bsreset 5 bluesky:d4:1
drive bsreset "expect:$PROMPT" send:y end
check "bluesky reset: exit 0" "$RC" 0
expect_grep "bluesky reset: the ledger says sent" '"record":"sent"' "$P/.fronts/ledger.jsonl"

# --- stall and reset after the request: unknown, never retried ---------------
for mode in stall reset; do
	start_fake "$mode" "$mode"
	proj "$mode" 5 x:d1:1 mastodon:d3:2
	drive "$mode" "expect:$PROMPT" send:y end
	check "$mode: exit 5" "$RC" 5
	expect_grep "$mode: unknown" 'UNKNOWN: the request may have reached' "$TMPD/$mode.out"
	check "$mode: stops after the unknown" "$(grep -c "$PROMPT" "$TMPD/$mode.out")" 1
	check "$mode: exactly one request" "$(requests /api/v3.1/tools/execute/)" 1
	expect_grep "$mode: ledger unknown" '"record":"unknown"' "$P/.fronts/ledger.jsonl"
	drive "$mode-again" end
	check "$mode: re-run refuses (exit 3)" "$RC" 3
	expect_grep "$mode: re-run names the entry" 'has no known outcome' "$TMPD/$mode-again.out"
	check "$mode: re-run sends nothing" "$(requests /api/v3.1/tools/execute/)" 1
done

# --- a redirect or an unreadable 2xx after the post was made: unknown --------
# A publishing request never follows a redirect; a 3xx (like a 5xx, a
# broken connection or a 2xx that does not parse) may come after the post
# exists, so it is unknown, never "failed (not posted)", and the re-run
# sends nothing until it is settled.
for mode in redirect303 garbled200; do
	for front in x mastodon; do
		case $front in x) d=d1 ;; mastodon) d=d3 ;; esac
		start_fake "$mode$front" "$mode"
		proj "$mode$front" 5 "$front:$d:1"
		drive "$mode$front" "expect:$PROMPT" send:y end
		O=$TMPD/$mode$front.out
		check "$mode ($front): exit 5" "$RC" 5
		expect_grep "$mode ($front): UNKNOWN, not failed" 'UNKNOWN: ' "$O"
		check "$mode ($front): never FAILED (not posted)" "$(grep -c 'FAILED (not posted)' "$O")" 0
		expect_grep "$mode ($front): ledger unknown" '"record":"unknown"' "$P/.fronts/ledger.jsonl"
		check "$mode ($front): the redirect is not followed" "$(requests /created/)" 0
		drive "$mode$front-again" end
		check "$mode ($front): re-run refuses (exit 3)" "$RC" 3
		check "$mode ($front): one post" "$(count '"ev": "post"')" 1
	done
done
expect_grep "redirect303 (x): says why" 'HTTP 303: an answer after which the post may exist \(redirects are never followed\)' "$TMPD/redirect303x.out"
# Bluesky looks the record up under its key: there, so sent.
start_fake redirect303bs redirect303
proj redirect303bs 5 bluesky:d4:1
drive redirect303bs "expect:$PROMPT" send:y end
check "redirect303 (bluesky): exit 0" "$RC" 0
expect_grep "redirect303 (bluesky): the record under the key is the post" 'SENT: .*createRecord answered HTTP 303, but the record under this key is this post' "$TMPD/redirect303bs.out"
check "redirect303 (bluesky): the redirect is not followed" "$(requests /created/)" 0

# --- kill -9 at each step, then re-run -----------------------------------------
# after the intent: nothing sent; the re-run stops at the unknown entry.
start_fake k1 ok
proj k1 5 x:d1:1
export FRONTS_TEST_PAUSE_AT=after-intent
drive k1 "expect:$PROMPT" send:y expect:paused kill9
unset FRONTS_TEST_PAUSE_AT
check "kill after intent: killed" "$RC" 137
check "kill after intent: no request" "$(requests /api/)" 0
check "kill after intent: the intent is on disk" "$(grep -c '"record":"intent"' "$P/.fronts/ledger.jsonl")" 1
drive k1b end
check "kill after intent: re-run refuses" "$RC" 3
check "kill after intent: re-run sends nothing" "$(requests /api/)" 0
expect_exit "kill after intent: ledger shows it unknown" 0 "$FRONTS" ledger -C "$P"
expect_grep "kill after intent: listed as unknown" 'unknown .*front x' "$TMPD/out"
id=$(sed -n 's/^\(e[0-9a-f]\{16\}\) .*/\1/p' "$TMPD/out" | head -n 1)
expect_exit "resolve --failed" 0 "$FRONTS" ledger resolve "$id" --failed -C "$P"
drive k1c "expect:$PROMPT" send:y end
check "after settling: sent once" "$(requests /api/v3.1/tools/execute/)" 1
check "after settling: two intents, one outcome, one settle" \
    "$(grep -c '"record":"intent"' "$P/.fronts/ledger.jsonl")/$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")/$(grep -c '"record":"settle"' "$P/.fronts/ledger.jsonl")" 2/1/1

# during the request (the fake stalls after creating the post)
for front in x mastodon bluesky; do
	start_fake "k2$front" stall
	case $front in x) d=d1 ;; mastodon) d=d3 ;; bluesky) d=d4 ;; esac
	proj "k2$front" 5 "$front:$d:1"
	drive "k2$front" "expect:$PROMPT" send:y "waitfile:$LOG:stalled" kill9
	check "kill during request ($front): killed" "$RC" 137
	drive "k2$front-b" end
	check "kill during request ($front): re-run refuses" "$RC" 3
	check "kill during request ($front): one post" "$(count '"ev": "post"')" 1
done
check "kill during request (x): one request to Composio" \
    "$(grep '"ev": "request"' "$TMPD/k2x.log" | grep -c /api/v3.1/tools/execute/)" 1

# An operator who wrongly settles a Mastodon or Bluesky post as failed and
# publishes again still gets one post: the platform sees the same key.
for front in mastodon bluesky; do
	case $front in mastodon) d=d3 ;; bluesky) d=d4 ;; esac
	start_fake "k3$front" ok
	proj "k3$front" 5 "$front:$d:1"
	export FRONTS_TEST_PAUSE_AT=after-response
	drive "k3$front" "expect:$PROMPT" send:y expect:paused kill9
	unset FRONTS_TEST_PAUSE_AT
	check "kill after response ($front): killed" "$RC" 137
	check "kill after response ($front): no outcome record" "$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")" 0
	drive "k3$front-b" end
	check "kill after response ($front): re-run refuses" "$RC" 3
	"$FRONTS" ledger -C "$P" >"$TMPD/k3.ls" 2>&1
	id=$(sed -n 's/^\(e[0-9a-f]\{16\}\) .*/\1/p' "$TMPD/k3.ls" | head -n 1)
	"$FRONTS" ledger resolve "$id" --failed -C "$P" >/dev/null 2>&1
	drive "k3$front-c" "expect:$PROMPT" send:y end
	check "kill after response ($front): the retry is recorded sent" "$RC" 0
	check "kill after response ($front): still one post" "$(count '"dup": false')" 1
done
check "kill after response (mastodon): the retry met the same key" \
    "$(grep -c '"dup": true' "$TMPD/k3mastodon.log")" 1
check "kill after response (bluesky): the PDS answered the reused key with 500" \
    "$(grep -c '"path": "/xrpc/com.atproto.repo.createRecord", "status": 500' "$TMPD/k3bluesky.log")" 1
expect_grep "kill after response (bluesky): the retry found the record" 'SENT: .*createRecord answered HTTP 500, but the record under this key is this post' "$TMPD/k3bluesky-c.out"

# and Composio, which has no idempotency key: the re-run sends nothing.
start_fake k3x ok
proj k3x 5 x:d1:1
export FRONTS_TEST_PAUSE_AT=after-response
drive k3x "expect:$PROMPT" send:y expect:paused kill9
unset FRONTS_TEST_PAUSE_AT
drive k3x-b end
check "kill after response (x): re-run refuses" "$RC" 3
check "kill after response (x): one request to Composio" "$(requests /api/v3.1/tools/execute/)" 1

# --- sent, but the outcome cannot be written -----------------------------------
# The test swaps the ledger for a directory while fronts waits after the
# response, so the outcome record fails although the post exists.
for front in x mastodon; do
	case $front in x) d=d1 ;; mastodon) d=d3 ;; esac
	start_fake "nr$front" ok
	proj "nr$front" 5 "$front:$d:1" x:d2:2
	export FRONTS_TEST_PAUSE_AT=after-response
	export FRONTS_TEST_RESUME_FILE=$TMPD/resume
	drive "nr$front" "expect:$PROMPT" send:y expect:paused \
	    "sh:mv '$P/.fronts/ledger.jsonl' '$TMPD/ledger.keep' && mkdir '$P/.fronts/ledger.jsonl' && touch '$TMPD/resume'" end
	unset FRONTS_TEST_PAUSE_AT FRONTS_TEST_RESUME_FILE
	O=$TMPD/nr$front.out
	check "outcome not recorded ($front): exit 1" "$RC" 1
	expect_grep "outcome not recorded ($front): says it was sent" 'SENT, OUTCOME NOT RECORDED: the request was sent \(the platform answered: posted' "$O"
	expect_grep "outcome not recorded ($front): the ledger keeps it unknown" 'keeps entry e[0-9a-f]{16} as unknown' "$O"
	expect_grep "outcome not recorded ($front): names the write error" 'ledger.jsonl: cannot open' "$O"
	expect_grep "outcome not recorded ($front): tells how to settle" 'fronts ledger resolve e[0-9a-f]{16} --sent URL' "$O"
	check "outcome not recorded ($front): never says not sent" "$(grep -ci 'not sent' "$O")" 0
	expect_grep "outcome not recorded ($front): tally" '1 sent with the outcome not recorded' "$O"
	check "outcome not recorded ($front): stops, no second prompt" "$(grep -c "$PROMPT" "$O")" 1
	check "outcome not recorded ($front): one post" "$(count '"ev": "post"')" 1
	expect_grep "outcome not recorded ($front): the trajectory keeps the answer" '"event":"publish-outcome-unrecorded".*"state":"sent"' "$P/.fronts/trajectories/publish.jsonl"
	rmdir "$P/.fronts/ledger.jsonl" && mv "$TMPD/ledger.keep" "$P/.fronts/ledger.jsonl"
	drive "nr$front-b" end
	check "outcome not recorded ($front): re-run refuses" "$RC" 3
	check "outcome not recorded ($front): re-run sends nothing" "$(count '"ev": "post"')" 1
	expect_exit "outcome not recorded ($front): fronts ledger" 0 "$FRONTS" ledger -C "$P"
	expect_grep "outcome not recorded ($front): listed unknown" "unknown .*front $front" "$TMPD/out"
done

# --- one publisher per project: two processes, the same key ----------------------
# A presses y and stops with the ledger checked and the project lock held
# (FRONTS_TEST_PAUSE_AT=before-intent); B presses y on the same post then.
# B is refused at once, naming A; A goes on and sends: one post.
start_fake lock ok
proj lock 5 mastodon:d3:1
drive_bg() {
	n=$1; shift
	$PY "$DRIVE" --out "$TMPD/$n.out" "$@" -- "$FRONTS" publish \
	    "$P/plan.json" -C "$P" --live --timeout-ms 1500 $EXTRA \
	    >"$TMPD/$n.drive" 2>&1 &
}
FRONTS_TEST_PAUSE_AT=before-intent FRONTS_TEST_RESUME_FILE=$TMPD/resumeA \
    drive_bg lockA "expect:$PROMPT" send:y expect:paused \
    "sh:touch '$TMPD/lockA.paused'" "waitfile:$TMPD/lockB.done:done" end
A=$!
drive lockB "expect:$PROMPT" "waitfile:$TMPD/lockA.paused:" send:y end
echo done >"$TMPD/lockB.done"
touch "$TMPD/resumeA"
wait $A
check "lock: the second publisher exits 1" "$RC" 1
expect_grep "lock: it names the holder's pid and command" 'not sent: the project is locked: .*/\.fronts/lock is held by pid [0-9]+ \(fronts publish --live\) since 2026-' "$TMPD/lockB.out"
expect_grep "lock: it says how to wait" 'wait for it to finish \(on the command line, --wait waits for it\)' "$TMPD/lockB.out"
expect_grep "lock: the holder sends" 'SENT: ' "$TMPD/lockA.out"
check "lock: exactly one post" "$(count '"ev": "post"')" 1
check "lock: one intent in the ledger" "$(grep -c '"record":"intent"' "$P/.fronts/ledger.jsonl")" 1

# --wait: B waits for A, then finds the post sent and sends nothing.
start_fake lockw ok
proj lockw 5 mastodon:d3:1
rm -f "$TMPD/resumeA"
FRONTS_TEST_PAUSE_AT=before-intent FRONTS_TEST_RESUME_FILE=$TMPD/resumeA \
    drive_bg lockwA "expect:$PROMPT" send:y expect:paused \
    "sh:touch '$TMPD/lockwA.paused'" end
A=$!
EXTRA=--wait
drive lockwB "expect:$PROMPT" "waitfile:$TMPD/lockwA.paused:" send:y "expect:waiting for it to finish" "sh:touch '$TMPD/resumeA'" end
EXTRA=
wait $A
expect_grep "lock --wait: says who it waits for" 'the project is locked by pid [0-9]+ \(fronts publish --live\) since .*: waiting' "$TMPD/lockwB.out"
expect_grep "lock --wait: then refuses the post the holder sent" 'not sent: already sent' "$TMPD/lockwB.out"
check "lock --wait: exactly one post" "$(count '"ev": "post"')" 1

# Both at the same instant, both waiting: one post, whoever wins.
start_fake locks ok
proj locks 5 mastodon:d3:1 bluesky:d4:1
EXTRA=--wait
rm -f "$TMPD/ready1" "$TMPD/ready2"
drive_bg lockS1 "expect:$PROMPT" "sh:touch '$TMPD/ready1'; i=0; while [ ! -e '$TMPD/ready2' ] && [ \$i -lt 3000 ]; do sleep 0.01; i=\$((i + 1)); done" send:y "expect:$PROMPT" send:y end
A=$!
drive lockS2 "expect:$PROMPT" "sh:touch '$TMPD/ready2'; i=0; while [ ! -e '$TMPD/ready1' ] && [ \$i -lt 3000 ]; do sleep 0.01; i=\$((i + 1)); done" send:y "expect:$PROMPT|not sent" end
EXTRA=
wait $A
check "lock: same key at the same instant: one mastodon status" "$(count '"platform": "mastodon"')" 1
check "lock: same key at the same instant: one intent per post" "$(grep '"record":"intent"' "$P/.fronts/ledger.jsonl" | sed 's/.*"entry":"\([^"]*\)".*/\1/' | sort | uniq -d | wc -l)" 0

# ledger resolve takes the lock too.
proj lockr 5 x:d1:1
FRONTS_TEST_PAUSE_AT=before-intent FRONTS_TEST_RESUME_FILE=$TMPD/resumeR \
    drive_bg lockr "expect:$PROMPT" send:y expect:paused \
    "sh:touch '$TMPD/lockr.paused'" "waitfile:$TMPD/lockr.done:done" kill9
A=$!
i=0
while [ ! -e "$TMPD/lockr.paused" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
expect_exit "lock: ledger resolve refuses while a publisher holds it" 1 "$FRONTS" ledger resolve e0000000000000000 --failed -C "$P"
expect_grep "lock: ledger resolve names the holder" 'held by pid [0-9]+ \(fronts publish --live\)' "$TMPD/err"
expect_exit "lock: history pull refuses while a publisher holds it" 1 "$FRONTS" history pull -C "$P"
expect_grep "lock: history pull names the holder" 'held by pid [0-9]+ \(fronts publish --live\)' "$TMPD/err"
echo done >"$TMPD/lockr.done"
wait $A
expect_exit "lock: a killed holder leaves the lock free" 2 "$FRONTS" ledger resolve e0000000000000000 --failed -C "$P"
expect_grep "lock: (the resolve got as far as the entry)" 'no entry e0000000000000000' "$TMPD/err"

# --- a damaged ledger is reported, not skipped ---------------------------------
start_fake corrupt ok
proj corrupt 5 x:d1:1
mkdir -p "$P/.fronts"
printf '{"record":"intent","entry":"e01' >"$P/.fronts/ledger.jsonl"
expect_exit "truncated ledger: fronts ledger exits 1" 1 "$FRONTS" ledger -C "$P"
expect_grep "truncated ledger: file and line" 'ledger.jsonl:1: last record is truncated' "$TMPD/err"
expect_exit "truncated ledger: publish refuses" 1 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "truncated ledger: publish names file and line" 'ledger.jsonl:1:' "$TMPD/err"
printf '\nnot json\n' >>"$P/.fronts/ledger.jsonl"
expect_exit "corrupt ledger line: exit 1" 1 "$FRONTS" ledger -C "$P"
expect_grep "corrupt ledger line: file and line" 'ledger.jsonl:2: not a JSON object' "$TMPD/err"
check "damaged ledger: zero connections" "$(count '"ev": "connect"')" 0
# A hand repair that lost a newline: two records on one line.
start_fake sealed ok
proj twoline 5 x:d1:1 mastodon:d3:1
drive twoline0 "expect:$PROMPT" send:y "expect:$PROMPT" send:n end
expect_grep "ledger lines carry a checksum" '"record":"sent",.*,"sum":"[0-9a-f]{16}"\}$' "$P/.fronts/ledger.jsonl"
tr -d '\n' <"$P/.fronts/ledger.jsonl" >"$TMPD/one" && printf '\n' >>"$TMPD/one"
cp "$TMPD/one" "$P/.fronts/ledger.jsonl"
expect_exit "two records on one line: fronts ledger exits 1" 1 "$FRONTS" ledger -C "$P"
expect_grep "two records on one line: file and line" 'ledger.jsonl:1: .*(text after the record|checksum)' "$TMPD/err"
expect_exit "two records on one line: publish refuses" 1 "$FRONTS" publish "$P/plan.json" -C "$P"
# A hand edit of a sealed line.
proj edited 5 x:d1:1
drive edited0 "expect:$PROMPT" send:y end
sed -i '1s/"draft":"d1"/"draft":"d2"/' "$P/.fronts/ledger.jsonl"
expect_exit "edited ledger line: fronts ledger exits 1" 1 "$FRONTS" ledger -C "$P"
expect_grep "edited ledger line: checksum mismatch by file and line" 'ledger.jsonl:1: checksum mismatch' "$TMPD/err"
# Lines from before checksums are read as they are, and said to be.
sed -i '1s/,"sum":"[0-9a-f]*"}$/}/' "$P/.fronts/ledger.jsonl"
sed -i '1s/"draft":"d2"/"draft":"d1"/' "$P/.fronts/ledger.jsonl"
sed -i '2,$d' "$P/.fronts/ledger.jsonl"
expect_exit "a ledger from before checksums: read" 0 "$FRONTS" ledger -C "$P"
expect_grep "a ledger from before checksums: said to be unverified" '^1 line written before ledger lines carried a checksum: read as they are, unverified' "$TMPD/out"

# --- files under .fronts are the project's own ------------------------------
# A symlinked predictions or trajectory file, or a dangling ledger symlink,
# is refused naming the path, before anything is sent; nothing outside the
# project is written.
start_fake links ok
OUT=$TMPD/outside
for f in predictions.jsonl trajectories/publish.jsonl; do
	ln=ln$(echo "$f" | tr '/.' '__')
	proj "$ln" 5 mastodon:d3:1
	mkdir -p "$P/.fronts/trajectories"
	rm -f "$OUT"
	ln -s "$OUT" "$P/.fronts/$f"
	drive "$ln" "expect:$PROMPT" send:y end
	check "symlinked $f: exit 1" "$RC" 1
	expect_grep "symlinked $f: refused, naming the path" "not sent: .*/\\.fronts/$f is a symlink" "$TMPD/$ln.out"
	[ -e "$OUT" ] && fail "symlinked $f: nothing written outside" || pass "symlinked $f: nothing written outside"
done
check "symlinked files: zero posts" "$(count '"ev": "post"')" 0
proj lndangle 5 mastodon:d3:1
mkdir -p "$P/.fronts"
ln -s "$OUT.ledger" "$P/.fronts/ledger.jsonl"
expect_exit "dangling ledger symlink: publish exits 1" 1 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "dangling ledger symlink: names the path" '\.fronts/ledger\.jsonl is a symlink' "$TMPD/err"
expect_exit "dangling ledger symlink: ledger resolve exits 1" 1 "$FRONTS" ledger resolve e0000000000000000 --failed -C "$P"
[ -e "$OUT.ledger" ] && fail "dangling ledger symlink: no ledger elsewhere" || pass "dangling ledger symlink: no ledger elsewhere"
# A .fronts another user could write (as ssh refuses such a ~/.ssh).
proj perm 5 mastodon:d3:1
mkdir -p "$P/.fronts"
chmod 777 "$P/.fronts"
expect_exit "world-writable .fronts: publish exits 1" 1 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "world-writable .fronts: names the path and the fix" "$P/\\.fronts can be written by others \\(mode 0777\\).*chmod go-w $P/\\.fronts" "$TMPD/err"
chmod 755 "$P/.fronts"
if [ "$(id -u)" = 0 ]; then
	chown nobody "$P/.fronts"
	expect_exit "another user's .fronts: ledger exits 1" 1 "$FRONTS" ledger -C "$P"
	expect_grep "another user's .fronts: names the owner and the fix" "$P/\\.fronts is owned by uid [0-9]+, not by you \\(uid 0\\).*chown 0 $P/\\.fronts" "$TMPD/err"
	chown 0 "$P/.fronts"
fi
expect_exit "a private .fronts is used" 0 "$FRONTS" ledger -C "$P"

# --- plans: an edited text, an unknown prediction, another project's plan ----
start_fake plans ok
proj edit 5 mastodon:d3:1
$PY - "$P/plan.json" <<'PYEOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["plan"][0]["text"] = "Field teams: what breaks first? (my words)"
p["plan"][0].pop("expected_reward", None)
p["plan"][0].pop("ci95", None)
json.dump(p, open(sys.argv[1], "w"))
PYEOF
drive edit "expect:Send this post now \\(edited from draft d3\\)\\?" send:y end
check "edited text: exit 0" "$RC" 0
expect_grep "edited text: shown with the post" '^-- edited from draft d3: this text is not the draft' "$TMPD/edit.out"
expect_grep "edited text: the ledger intent records the edit" '"record":"intent".*"edited":true' "$P/.fronts/ledger.jsonl"
expect_exit "edited text: fronts ledger" 0 "$FRONTS" ledger -C "$P"
expect_grep "edited text: fronts ledger says so" 'text edited from the draft' "$TMPD/out"
expect_grep "no expected_reward: the prediction is unknown, not 0" '"reward":null' "$P/.fronts/predictions.jsonl"
check "no expected_reward: no [0, 0] interval" "$(grep -c ci95 "$P/.fronts/predictions.jsonl")" 0
proj other 5 mastodon:d3:1
$PY - "$P/plan.json" <<'PYEOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["project"] = {"name": "someone-else", "fronts_sha256": "0" * 16,
                "drafts_sha256": "0" * 16}
json.dump(p, open(sys.argv[1], "w"))
PYEOF
expect_exit "another project's plan: publish exits 1" 1 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "another project's plan: says whose it is" 'plan.json: project: the plan was made for project "someone-else"' "$TMPD/err"
$PY - "$P/plan.json" "$P/fronts.json" <<'PYEOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["project"]["name"] = json.load(open(sys.argv[2]))["name"]
json.dump(p, open(sys.argv[1], "w"))
PYEOF
expect_exit "a plan older than the drafts: publish runs" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "a plan older than the drafts: warned" 'warning: .*plan.json: the plan was made before the drafts changed' "$TMPD/err"
$PY - "$P/plan.json" "$P/fronts.json" <<'PYEOF'
import json, sys
p = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
post = p["plan"][0]
p["plan"] = [dict(post, slot=0)] * (f["horizon_slots"] * len(f["fronts"]) + 1)
json.dump(p, open(sys.argv[1], "w"))
PYEOF
expect_exit "a plan larger than the project: refused" 1 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "a plan larger than the project: named, with the bound" 'plan.json: plan: [0-9]+ posts, more than this project can produce' "$TMPD/err"
check "plans: zero posts but the edited one" "$(count '"ev": "post"')" 1

# --- no credential anywhere ----------------------------------------------------
stop_fake
expect_no_grep "no sentinel key in any file or output" "$SENTINEL" "$TMPD"
