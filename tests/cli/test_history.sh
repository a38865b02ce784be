#!/bin/sh
# fronts history import, pull and topics: every export format into a
# scratch demo project (tests/data/history, built from the platforms'
# documented formats); re-imports add nothing; changed counts update;
# damaged files change nothing; pull against loopback fakes of the
# Mastodon and Bluesky read APIs (tests/servers/fake_pull.py) with
# paging, rate limits, deleted posts and edited counts.
. "$(dirname "$0")/../lib.sh"

D=$TOP/tests/data/history
X=$TOP/fixtures/demo/exports
P=$TMPD/p
PY=/usr/bin/python3
SENTINEL=SENTINEL-77c1d2
export MASTODON_ACCESS_TOKEN="mt-$SENTINEL"
export FRONTS_TEST_WAIT_SCALE=0.01
FAKE_PID=
stop_pull_fake() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null && wait "$FAKE_PID" 2>/dev/null
	FAKE_PID=
}
trap 'stop_pull_fake; [ -n "$KEEP" ] || rm -rf "$TMPD"' EXIT

# start_pull_fake MODE — a fresh fake; sets PORT and LOG, points the
# project's Mastodon instance and Bluesky AppView at it.
start_pull_fake() {
	stop_pull_fake
	LOG=$TMPD/pull-$1.log
	rm -f "$TMPD/port"
	$PY "$TOP/tests/servers/fake_pull.py" --port-file "$TMPD/port" \
	    --log "$LOG" --mode "$1" &
	FAKE_PID=$!
	i=0
	while [ ! -s "$TMPD/port" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	PORT=$(cat "$TMPD/port")
	$PY - "$P/fronts.json" "$PORT" <<'PYEOF'
import json, sys
p, port = sys.argv[1], sys.argv[2]
j = json.load(open(p))
for f in j["fronts"]:
    if f["platform"] == "mastodon":
        f["instance"] = "http://127.0.0.1:%s" % port
    if f["platform"] == "bluesky":
        f["appview"] = "http://127.0.0.1:%s" % port
j["topics"] = {"hiring": ["#hiring", "hiring"], "pricing": ["pricing", "price"]}
json.dump(j, open(p, "w"), indent=1)
PYEOF
}

h() { "$FRONTS" -C "$P" history "$@"; }

new_demo "$P"
start_pull_fake ok
cp "$P/history.jsonl" "$TMPD/orig.jsonl"

# --- import, every format
expect_exit "x archive imports" 0 h import "$X/tweets.js" --front x
expect_grep "x: two added, retweet and reply to others skipped" \
    "2 added, 0 updated, 0 unchanged, 2 skipped" "$TMPD/out"
expect_grep "x: the retweet's reason" "skipped .*a retweet" "$TMPD/out"
expect_grep "x: t.co expanded, entities decoded" \
    '"text":"Sync & merge, finally boring > #launch https://tidewater.dev/pricing"' "$P/history.jsonl"
expect_grep "x: counts from strings, no invented metric" \
    '"metrics":\{"likes":61,"reposts":9\}' "$P/history.jsonl"
expect_grep "x: tagged by the topic rules" '"topics":\["pricing"\]' "$P/history.jsonl"
expect_grep "backup of the previous file" . "$P/.fronts/history.jsonl.bak"
if cmp -s "$TMPD/orig.jsonl" "$P/.fronts/history.jsonl.bak"; then pass "backup is the file before"
else fail "backup is the file before"; fi

expect_exit "x archive again" 0 h import "$X/tweets.js" --front x
expect_grep "re-import adds nothing" "0 added, 0 updated, 2 unchanged" "$TMPD/out"

sed 's/"favorite_count" : "61"/"favorite_count" : "75"/' "$X/tweets.js" >"$TMPD/t2.js"
cp "$P/history.jsonl" "$TMPD/before"
expect_exit "dry run" 0 h import "$TMPD/t2.js" --front x --dry-run
expect_grep "dry run says what would change" "updated .*likes 61 → 75" "$TMPD/out"
if cmp -s "$TMPD/before" "$P/history.jsonl"; then pass "dry run writes nothing"
else fail "dry run writes nothing"; fi
expect_exit "changed count" 0 h import "$TMPD/t2.js" --front x
expect_grep "changed count updates the line" '"likes":75' "$P/history.jsonl"
expect_grep "one line per post still" "0 added, 1 updated" "$TMPD/out"

expect_exit "mastodon outbox" 0 h import "$X/outbox.json" --front mastodon
expect_grep "outbox: boost, reply, direct skipped" "2 added, 0 updated, 0 unchanged, 3 skipped" "$TMPD/out"
expect_grep "outbox: HTML to text" 'thread & what broke.\\nDetails: https://tidewater.dev/blog/wal\\n\\nFeedback welcome! #rustlang cc @bob' "$P/history.jsonl"
expect_grep "outbox: metrics unknown, not 0" '"metrics":\{\},"platform_id":"113500000000000001"' "$P/history.jsonl"
expect_no_grep "outbox: no zero counts" '"front":"mastodon".*113500000000000001.*"likes":0' "$P/history.jsonl"
expect_exit "bluesky repository" 0 h import "$D/repo.car" --front bluesky
expect_grep "car: two posts" "2 added, 0 updated, 0 unchanged, 1 skipped" "$TMPD/out"
expect_exit "bluesky author feed" 0 h import "$D/author_feed.json" --front bluesky
expect_grep "feed: repost and reply skipped" "2 added, 0 updated, 0 unchanged, 2 skipped" "$TMPD/out"
expect_exit "linkedin shares" 0 h import "$D/Shares.csv" --front linkedin
expect_grep "linkedin: three shares" "3 added, 0 updated, 0 unchanged, 1 skipped" "$TMPD/out"
expect_exit "mapped csv" 0 h import "$D/posts.csv" --front x \
    --map "time=when,text=body,id=post id,impressions=views,likes=likes"
expect_grep "csv: empty cell stays unknown" '"text":"Pricing page is live","topics":\["pricing"\],"metrics":\{"likes":12\}' "$P/history.jsonl"
expect_exit "the project still loads" 0 "$FRONTS" -C "$P" drafts --json

# --- refusals change nothing
cp "$P/history.jsonl" "$TMPD/before"
head -c 3000 "$X/tweets.js" >"$TMPD/cut.js"
expect_exit "truncated archive refused" 1 h import "$TMPD/cut.js" --front x
expect_grep "truncated: file and position" "cut.js: line 89, column [0-9]+: the file ends" "$TMPD/err"
head -c 900 "$D/repo.car" >"$TMPD/cut.car"
expect_exit "truncated repository refused" 1 h import "$TMPD/cut.car" --front bluesky
expect_grep "car: byte offset" "cut.car: byte [0-9]+" "$TMPD/err"
expect_exit "wrong platform refused" 2 h import "$X/outbox.json" --front x
expect_exit "csv without mapping refused" 2 h import "$D/posts.csv" --front x
if cmp -s "$TMPD/before" "$P/history.jsonl"; then pass "refusals write nothing"
else fail "refusals write nothing"; fi

# --- imports never change data silently (in a copy of the project)
Q=$TMPD/q
cp -r "$P" "$Q"
hq() { "$FRONTS" -C "$Q" history "$@"; }
$PY - "$X/tweets.js" "$TMPD/dup.js" <<'PYEOF'
import sys
s = open(sys.argv[1]).read()
i = s.index("[") + 1
j = s.index('"tweet"', s.index('"tweet"') + 1)
first = s[i:s.rindex("{", 0, j)].rstrip().rstrip(",")
again = first.replace('"favorite_count" : "61"', '"favorite_count" : "99"')
assert again != first
open(sys.argv[2], "w").write(s[:i] + again + "," + s[i:])
PYEOF
expect_exit "an id given twice imports" 0 hq import "$TMPD/dup.js" --front x
expect_grep "twice: the first occurrence counts" "updated .*likes 75 → 99" "$TMPD/out"
expect_grep "twice: reported" "skipped .*given again in the same input.*first occurrence is kept" "$TMPD/out"
expect_grep "twice: counted in the summary" "\(1 given twice\)" "$TMPD/out"
cp "$Q/history.jsonl" "$TMPD/before"
expect_exit "an id given twice, again" 0 hq import "$TMPD/dup.js" --front x
expect_no_grep "twice: re-import changes no count" "^  updated" "$TMPD/out"
if cmp -s "$TMPD/before" "$Q/history.jsonl"; then pass "twice: the file is as it was"
else fail "twice: the file is as it was"; fi
sed 's/"favorite_count" : "61"/"favorite_count" : "-5"/; s/"retweet_count" : "9"/"retweet_count" : "1e3"/' \
    "$X/tweets.js" >"$TMPD/bad.js"
expect_exit "bad counts import" 0 hq import "$TMPD/bad.js" --front x
expect_grep "bad counts: per reason in the summary" \
    "2 counts left unknown: 1 negative, 1 not written in digits" "$TMPD/out"
printf 'window.YTD.tweets.part0 = [{"tweet": {"id_str": "77", "full_text": "cut\\u0000here",\n "created_at": "Mon Feb 30 08:05:00 +0000 2026"}}]\n' >"$TMPD/nul.js"
expect_exit "a \\u0000 refused" 1 hq import "$TMPD/nul.js" --front x
expect_grep "nul: named with its position" "nul.js: line 1, column [0-9]+: .*NUL" "$TMPD/err"
sed 's/cut\\u0000here/fine/' "$TMPD/nul.js" >"$TMPD/feb30.js"
expect_exit "Feb 30 refused" 1 hq import "$TMPD/feb30.js" --front x
expect_grep "Feb 30: named with its position" "feb30.js: line 2, column [0-9]+: tweet 77: created_at \"Mon Feb 30" "$TMPD/err"
sed 's/Mon Feb 30 08:05:00 +0000 2026/Fri Jan 01 00:00:00 +0000 2100/' "$TMPD/feb30.js" >"$TMPD/future.js"
expect_exit "a post dated 2100" 0 hq import "$TMPD/future.js" --front x
expect_grep "2100: skipped with the reason" "skipped  77: dated 2100-01-01T00:00:00Z, after now" "$TMPD/out"
sed 's#/users/tidewater#/users/ledgerline#g' "$X/outbox.json" >"$TMPD/other.json"
expect_exit "another account's outbox refused" 1 hq import "$TMPD/other.json" --front mastodon
expect_grep "outbox: names the actor and --force" "users/ledgerline's, not the front's account.*--force" "$TMPD/err"
expect_exit "another account's outbox with --force" 0 hq import "$TMPD/other.json" --front mastodon --force --dry-run
# A write that fails (the file size limit: no room) reports the failure,
# not what it did not do.
sed 's/"favorite_count" : "61"/"favorite_count" : "62"/' "$X/tweets.js" >"$TMPD/t3.js"
cp "$Q/history.jsonl" "$TMPD/before"
expect_exit "a failed write fails" 1 sh -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' sh \
    "$FRONTS" -C "$Q" history import "$TMPD/t3.js" --front x
expect_no_grep "failed write: no summary" "added|updated|unchanged" "$TMPD/out"
expect_grep "failed write: the failure" "history" "$TMPD/err"
if cmp -s "$TMPD/before" "$Q/history.jsonl"; then pass "failed write: the file is as it was"
else fail "failed write: the file is as it was"; fi

# --- topics
expect_exit "topics lists untagged" 0 h topics
expect_grep "topics: an untagged import" "mastodon-[0-9a-f]{8}  mastodon  .*Why we moved" "$TMPD/out"
expect_no_grep "topics: tagged posts not listed" "Pricing page is live" "$TMPD/out"

# --- pull: paging, ledger, predictions, settled
E=e00000000000000a1
SHA=$(printf 'x' | sha256sum | cut -d' ' -f1)
mkdir -p "$P/.fronts"
printf '{"record":"intent","entry":"%s","time":"%s","plan":"p1","slot":3,"front":"mastodon","draft":"d1","at":"%s","text_sha256":"%s","channel":"mastodon","key":"%s"}\n{"record":"sent","entry":"%s","time":"%s","post_id":"4","url":"http://127.0.0.1/@tidewater/4"}\n' \
    "$E" "$(test_date '-31 hours')" "$(test_date '-30 hours')" "$SHA" "$E" "$E" "$(test_date '-30 hours')" \
    >"$P/.fronts/ledger.jsonl"
printf '{"entry":"%s","reward":41.5,"ci95":[30,52]}\n' "$E" >"$P/.fronts/predictions.jsonl"
expect_exit "pull mastodon" 0 h pull --front mastodon
expect_grep "pull: pages until past the window" "4 added" "$TMPD/out"
expect_grep "pull: three pages of two" "3 pages" "$TMPD/out"
expect_grep "pull: sent post under its ledger id" "\"id\":\"$E\".*\"likes\":20.*\"predicted\":\{\"reward\":41.5,\"ci95\":\[30,52\]\}" "$P/history.jsonl"
expect_grep "pull: young post unsettled" '"text":"Fresh: the sync engine is out".*"settled":false' "$P/history.jsonl"
expect_no_grep "pull: settled post has no flag" '"text":"Hiring: SRE.*"settled"' "$P/history.jsonl"
expect_grep "pull: the fake saw paging by max_id" '"max_id": "4"' "$LOG"
expect_grep "pull: token sent" '"auth": "sent"' "$LOG"
expect_no_grep "pull: no secret anywhere" "$SENTINEL" "$P" "$TMPD/out" "$TMPD/err"
expect_exit "pull again" 0 h pull --front mastodon
expect_grep "pull again: nothing new" "0 added, 0 updated" "$TMPD/out"

start_pull_fake edited
expect_exit "pull edited counts" 0 h pull --front mastodon
expect_grep "edited counts update" "updated .*likes 31 → 36" "$TMPD/out"
expect_grep "a young post stays unsettled" "0 added, 4 updated" "$TMPD/out"

start_pull_fake deleted
expect_exit "pull with a deleted post" 0 h pull --front mastodon
expect_grep "deleted post named, kept" "gone .* 3: not returned by the platform" "$TMPD/out"
expect_grep "deleted post still in history" '"platform_id":"3"' "$P/history.jsonl"

start_pull_fake limited-once
expect_exit "short rate limit waited out" 0 h pull --front bluesky --dry-run
expect_grep "bluesky: retried after 429" "4 requests, 3 pages" "$TMPD/out"
expect_grep "dry run pull" "dry run, nothing written: 4 added" "$TMPD/out"

start_pull_fake limited-long
cp "$P/history.jsonl" "$TMPD/before"
expect_exit "long rate limit stops" 5 h pull --front bluesky
expect_grep "stop names what is left" "rate limited by 127.0.0.1:[0-9]+ until .*; not fetched: posts older than 4 back to" "$TMPD/err"
expect_grep "what came before the stop is kept" "2 added" "$TMPD/out"
start_pull_fake limited-huge
expect_exit "a Retry-After of 10^9 s stops" 5 h pull --front mastodon
until_year=$(sed -n 's/.* until \([0-9]*\)-.*/\1/p' "$TMPD/err")
if [ -n "$until_year" ] && [ "$until_year" -gt $(( $(date -u +%Y) + 30 )) ]; then
	pass "Retry-After 10^9 s: says until when, decades ahead"
else fail "Retry-After 10^9 s: says until when, decades ahead" "$(cat "$TMPD/err")"; fi
check_requests=$(grep -c '"path": "/api/v1/accounts/109/statuses"' "$LOG")
if [ "$check_requests" -eq 2 ]; then pass "Retry-After 10^9 s: not retried"
else fail "Retry-After 10^9 s: not retried" "$check_requests statuses requests"; fi

# --- X through Composio's tweet lookup: known posts only
export COMPOSIO_API_KEY="ck-$SENTINEL"
export FAKE_COMPOSIO_KEY="$COMPOSIO_API_KEY"
start_pull_fake edited
export COMPOSIO_BASE_URL="http://127.0.0.1:$PORT"
expect_exit "x pull" 0 h pull --front x --since 2026-11-01
expect_grep "x pull: impressions and replies now known" "updated .*\(impressions 5400, likes 75 → 66, replies 4\)" "$TMPD/out"
expect_grep "x pull: one lookup per known post" '"id": "1859000000000000004"' "$LOG"
expect_grep "x pull: Composio's parameter name, tweet__fields" '"tweet__fields": \["created_at", "public_metrics", "text"\]' "$LOG"
expect_no_grep "x pull: no tweet_fields" '"tweet_fields"' "$LOG"
expect_grep "x pull: the version sent, latest when unpinned" '"version": "latest"' "$LOG"
expect_grep "x pull: the key checked" '"auth": "ok"' "$LOG"
expect_no_grep "x pull: no secret anywhere" "$SENTINEL" "$P" "$TMPD/out" "$TMPD/err"
start_pull_fake deleted
export COMPOSIO_BASE_URL="http://127.0.0.1:$PORT"
expect_exit "x pull, a deleted tweet" 0 h pull --front x --since 2026-11-01
expect_grep "x pull: deleted tweet named" "gone .* 1859000000000000004: not returned" "$TMPD/out"
expect_exit "linkedin is not pulled" 2 h pull --front linkedin
expect_grep "linkedin: import instead" "not pulled" "$TMPD/out"
expect_exit "bad --since" 2 h pull --since yesterday

# --- the loader knows the new fields and the topic rules
expect_exit "project loads after imports and pulls" 0 "$FRONTS" -C "$P" drafts
expect_no_grep "no unknown-field warnings" "unknown|platform_id|settled|predicted|topics" "$TMPD/err"
