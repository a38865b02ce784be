#!/bin/sh
# Threads and images published against the fake Mastodon and Bluesky
# (tests/servers/fake_social.py), keypresses typed through a pty
# (tests/pty_drive.py): the dry run lists every request of every part,
# uploads first; a live run uploads the images without their GPS and
# camera metadata and sends each part as a reply to the one before, one
# ledger entry per part; killed (kill -9) between parts, the next run
# continues at the first part not sent, replying to the last one sent,
# and never sends part 1 again; `fronts ledger` shows the thread as one
# entry with its parts.
. "$(dirname "$0")/../lib.sh"

SENTINEL=SENTINEL-7d21aa
export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-mastodon"
export BLUESKY_APP_PASSWORD="bp-$SENTINEL-bluesky"
export FAKE_MASTODON_TOKEN="$MASTODON_ACCESS_TOKEN"
export FAKE_BLUESKY_PASSWORD="$BLUESKY_APP_PASSWORD"
export FRONTS_TEST_WAIT_SCALE=0.001
export FIXTURE_THREAD=1
unset FRONTS_TEST_PAUSE_AT FRONTS_TEST_RESUME_FILE

. "$TOP/tests/cli/fake_social.sh"
. "$TOP/tests/cli/publish_drive.sh"
trap 'stop_fake; [ -n "$KEEP" ] || rm -rf "$TMPD"' EXIT

# --- dry run: every request of every part, in order -----------------------
start_fake dry ok
proj dry mastodon:d8:1 bluesky:d8:1
expect_exit "dry run exits 0" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
D=$TMPD/out
m1=$(line "$D" "-- part 1 of 3"); u1=$(line "$D" "/api/v2/media")
s1=$(line "$D" "/api/v1/statuses"); m2=$(line "$D" "-- part 2 of 3")
m3=$(line "$D" "-- part 3 of 3")
check "dry run: part 1, its upload, its status, then parts 2 and 3" \
    "$([ "$m1" -lt "$u1" ] && [ "$u1" -lt "$s1" ] && [ "$s1" -lt "$m2" ] && [ "$m2" -lt "$m3" ] && echo ordered)" ordered
expect_grep "dry run: part 2 replies to part 1" '"in_reply_to_id":"<id of part 1>"' "$D"
expect_grep "dry run: part 3 replies to part 2 with its image" '"media_ids":\["<id of upload 1>"\],"in_reply_to_id":"<id of part 2>"' "$D"
expect_grep "dry run: an image is shown as its size and hash" 'bytes of image/jpeg, 32x24, sha256 ' "$D"
expect_grep "dry run: bluesky uploadBlob" "POST http://127.0.0.1:$PORT/xrpc/com.atproto.repo.uploadBlob" "$D"
expect_grep "dry run: bluesky embed with alt and aspect ratio" '"alt":"Harbour at low tide","image":"<blob of upload 1>","aspectRatio":\{"width":32,"height":24\}' "$D"
expect_grep "dry run: bluesky reply names root and parent" '"reply":\{"root":\{"uri":"<id of part 1>","cid":"<cid of part 1>"\},"parent":\{"uri":"<id of part 2>","cid":"<cid of part 2>"\}\}' "$D"
expect_no_grep "dry run: no secret" "$SENTINEL" "$D" "$TMPD/err"
check "dry run: nothing sent" "$(requests /api/v)$(requests /xrpc/com.atproto.repo)" 00

# --- Mastodon: a live thread, uploads answered 202 ------------------------
start_fake mast ok --media-async
proj mast mastodon:d8:1
drive mast "expect:$PROMPT" send:y end
check "mastodon: exit 0" "$RC" 0
check "mastodon: three statuses" "$(posts | wc -l)" 3
check "mastodon: two uploads, both without the camera make" \
    "$(grep '"ev": "upload"' "$LOG" | grep -c '"has_camera": false')" 2
check "mastodon: uploads waited for (202, then 206 once, then 200)" \
    "$(grep -c '"status": 202' "$LOG")/$(grep -c '"status": 206' "$LOG")" 2/2
id1=$(posts | sed -n '1s/.*"id": "\([0-9]*\)".*/\1/p')
id2=$(posts | sed -n '2s/.*"id": "\([0-9]*\)".*/\1/p')
check "mastodon: part 2 replies to part 1" "$(posts | sed -n 2p | grep -c "\"in_reply_to_id\": \"$id1\"")" 1
check "mastodon: part 3 replies to part 2" "$(posts | sed -n 3p | grep -c "\"in_reply_to_id\": \"$id2\"")" 1
check "mastodon: one intent and one sent per part" \
    "$(grep -c '"record":"intent"' "$P/.fronts/ledger.jsonl")/$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")/$(grep -c '"parts":3' "$P/.fronts/ledger.jsonl")" 3/3/3
expect_grep "mastodon: the outcome names the thread" 'all 3 parts sent' "$TMPD/mast.out"
expect_grep "mastodon: uploads in the trajectory" '"event":"publish-upload"' "$P/.fronts/trajectories/publish.jsonl"
drive mast2 end
check "mastodon: a second run sends nothing" "$(posts | wc -l)" 3
expect_exit "ledger: exits 0" 0 "$FRONTS" ledger -C "$P"
check "ledger: the thread is one entry" "$(grep -c '^e[0-9a-f]\{16\} ' "$TMPD/out")" 1
expect_grep "ledger: its parts" '^    part 3/3  e[0-9a-f]{16}  sent ' "$TMPD/out"
expect_grep "ledger: all sent" 'thread: 3 of 3 parts sent' "$TMPD/out"

# --- Bluesky: kill -9 between parts, then the rest ------------------------
start_fake bsky ok
proj bsky bluesky:d8:1
export FRONTS_TEST_PAUSE_AT=between-parts
drive bsky "expect:$PROMPT" send:y expect:paused kill9
unset FRONTS_TEST_PAUSE_AT
check "bluesky kill: killed" "$RC" 137
check "bluesky kill: part 1 posted" "$(posts | wc -l)" 1
uri1=$(posts | sed -n '1s/.*"id": "\([a-z0-9]*\)".*/\1/p')
expect_exit "bluesky kill: ledger lists a partial thread" 0 "$FRONTS" ledger -C "$P"
expect_grep "bluesky kill: 1 of 3" 'thread: 1 of 3 parts sent' "$TMPD/out"
expect_grep "bluesky kill: part 2 not attempted" 'part 2/3  not attempted' "$TMPD/out"
expect_exit "bluesky kill: the dry run shows what is left" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "bluesky kill: it goes on at part 2" 'parts 1-1 of 3 were sent; it goes on at part 2' "$TMPD/out"
expect_no_grep "bluesky kill: part 1 is not shown again" '"text":"Tides, part one' "$TMPD/out"
drive bsky2 "expect:$PROMPT" send:y end
check "bluesky resume: exit 0" "$RC" 0
check "bluesky resume: three posts in all, part 1 requested once" "$(posts | wc -l)/$(grep -c '"text": "Tides, part one' "$LOG")" 3/1
check "bluesky resume: part 2 replies to part 1" \
    "$(posts | sed -n 2p | grep -c "\"parent\": {\"cid\": \"bafyfake$uri1\", \"uri\": \"at://did:plc:fakefakefake/app.bsky.feed.post/$uri1\"}")" 1
check "bluesky resume: part 3's root is part 1" \
    "$(posts | sed -n 3p | grep -c "\"root\": {\"cid\": \"bafyfake$uri1\"")" 1
check "bluesky resume: one image uploaded per image part, clean" \
    "$(grep '"ev": "upload"' "$LOG" | wc -l)/$(grep -c '"has_camera": true' "$LOG")" 2/0
expect_exit "bluesky resume: ledger" 0 "$FRONTS" ledger -C "$P"
expect_grep "bluesky resume: 3 of 3" 'thread: 3 of 3 parts sent' "$TMPD/out"
check "bluesky resume: cids kept in the ledger" "$(grep -c '"cid":"bafyfake' "$P/.fronts/ledger.jsonl")" 3

# --- X through Composio: a text thread, each part a reply -----------------
export COMPOSIO_API_KEY="ck-$SENTINEL-composio" FAKE_COMPOSIO_KEY="ck-$SENTINEL-composio"
start_fake xth ok
proj xth x:d8:1
$PY - "$P/drafts.jsonl" <<'PYEOF'
import json, sys
p = sys.argv[1]
lines = [json.loads(l) for l in open(p)]
for d in lines:
    if d["id"] == "d8":
        del d["media"]
        d["thread"][1] = d["thread"][1]["text"]
open(p, "w").write("".join(json.dumps(d) + "\n" for d in lines))
PYEOF
expect_exit "x thread: dry run" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "x thread: part 2 names part 1 in reply__in_reply_to_tweet_id" '"reply__in_reply_to_tweet_id":"<id of part 1>"' "$TMPD/out"
drive xth "expect:$PROMPT" send:y end
check "x thread: exit 0" "$RC" 0
check "x thread: three tweets" "$(posts | wc -l)" 3
t1=$(posts | sed -n '1s/.*"id": "\([0-9]*\)".*/\1/p')
t2=$(posts | sed -n '2s/.*"id": "\([0-9]*\)".*/\1/p')
check "x thread: part 2 replies to part 1" "$(posts | sed -n 2p | grep -c "\"reply__in_reply_to_tweet_id\": \"$t1\"")" 1
check "x thread: part 3 replies to part 2" "$(posts | sed -n 3p | grep -c "\"reply__in_reply_to_tweet_id\": \"$t2\"")" 1

# --- keep_metadata: the front sends the file as it is ---------------------
start_fake keep ok
proj keep mastodon:d8:1
$PY - "$P/fronts.json" <<'PYEOF'
import json, sys
p = sys.argv[1]
j = json.load(open(p))
for f in j["fronts"]:
    if f["id"] == "mastodon":
        f["keep_metadata"] = True
json.dump(j, open(p, "w"))
PYEOF
drive keep "expect:$PROMPT" send:y end
check "keep_metadata: the camera make goes out" "$(grep '"ev": "upload"' "$LOG" | grep -c '"has_camera": true')" 2

# --- a corrupt image refuses the thread before any intent -----------------
start_fake bad ok
proj bad mastodon:d8:1
head -c 300 "$TOP/tests/data/media/gps.jpg" >"$P/gps.jpg"
expect_exit "corrupt image: the dry run names it" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "corrupt image: path and reason" 'gps.jpg' "$TMPD/out"
drive bad end
check "corrupt image: nothing sent" "$(requests /api/v)" 0
check "corrupt image: no intent" "$(grep -c intent "$P/.fronts/ledger.jsonl" 2>/dev/null || echo 0)" 0
