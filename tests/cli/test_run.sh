#!/bin/sh
# fronts run: a whole day of a plan in seconds (the test clock runs an hour
# per second) against the fake Composio, Mastodon and Bluesky servers on
# 127.0.0.1, every key typed through a pseudo-terminal (tests/cli/run_drive.py):
# each post offered once at its time; y, n and s; a kill -9 and a restart
# hours later, whose missed posts are recorded as skipped (late); the lock
# refusing a second writer; a re-plan after the fake's counts change.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
DRIVE=$TOP/tests/cli/run_drive.py
FIX=$TOP/tests/cli/publish_fixture.py
SENTINEL=SENTINEL-5b7e0c
export COMPOSIO_API_KEY="ck-$SENTINEL-composio"
export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-mastodon"
export BLUESKY_APP_PASSWORD="bp-$SENTINEL-bluesky"
export FAKE_COMPOSIO_KEY="$COMPOSIO_API_KEY"
export FAKE_MASTODON_TOKEN="$MASTODON_ACCESS_TOKEN"
export FAKE_BLUESKY_PASSWORD="$BLUESKY_APP_PASSWORD"
unset FRONTS_TEST_PAUSE_AT

. "$TOP/tests/cli/fake_social.sh"
trap 'stop_fake; [ -n "$KEEP" ] || rm -rf "$TMPD"' EXIT


DAY=2026-12-01T07:55:00Z
# Small re-plans in process keep the fast clock's hours short.
BUDGET="--iterations 300 --isolation thread --late 120"

# proj NAME — the day's project: the five publishing fronts pointed at the
# fake, two posts a day per front three hours apart, 08:00-24:00 UTC, the
# demo's world model (approved), and plan.json made at 07:55.
proj() {
	P=$TMPD/$1
	rm -rf "$P"
	FRONTS_TEST_NOW=$DAY $PY "$FIX" project "$P" "$PORT" 2
	$PY - "$P" "$PORT" <<'PYEOF'
import json, sys
d, port = sys.argv[1], sys.argv[2]
f = json.load(open(d + "/fronts.json"))
f["start"] = "2026-12-01T08:00:00Z"
f["horizon_slots"] = 16
for x in f["fronts"]:
    x["limits"]["min_gap_minutes"] = 180
    if x["id"] == "bluesky":
        x["appview"] = "http://127.0.0.1:" + port
json.dump(f, open(d + "/fronts.json", "w"), indent=1)
PYEOF
	cp "$TOP/fixtures/demo/model.py" "$P/"
	FRONTS_TEST_NOW=$DAY "$FRONTS" approve -C "$P" --yes >/dev/null
	FRONTS_TEST_NOW=$DAY "$FRONTS" plan -C "$P" --iterations 2000 \
	    -o "$P/plan.json" >/dev/null
}

# due_lines FILE — "draft front at now window-end" for every offer.
due_lines() {
	sed -n 's/^== due: \([^ ]*\) on front \([^ ]*\) .* at \([^,]*\), window until \([^;]*\); now \(.*\)$/\1 \2 \3 \5 \4/p' "$1" | tr -d '\r'
}

# --- dry run, no terminal: every post shown when due, nothing written ------
start_fake dry ok
proj dry
FRONTS_TEST_NOW="${DAY}x3600" "$FRONTS" run "$P/plan.json" -C "$P" $BUDGET \
    </dev/null >"$TMPD/dry.out" 2>&1
check "dry run: exit 0" "$?" 0
expect_grep "dry run: says so" 'DRY RUN' "$TMPD/dry.out"
check "dry run: every post of the plan shown once" \
    "$(due_lines "$TMPD/dry.out" | wc -l)" \
    "$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["plan"]))' "$P/plan.json")"
check "dry run: nothing posted" "$(count '"ev": "post"')" 0
[ -e "$P/.fronts/ledger.jsonl" ] && fail "dry run: no ledger" || pass "dry run: no ledger"
[ -e "$P/.fronts/plans" ] && fail "dry run: no plan generations" || pass "dry run: no plan generations"

# --- a model that fails its checks is never re-planned with ---------------
F=$TMPD/dryfail
cp -r "$P" "$F"
cp "$TOP/tests/data/models/mutating.py" "$F/model.py"
FRONTS_TEST_NOW=$DAY "$FRONTS" approve -C "$F" --yes >/dev/null
FRONTS_TEST_NOW="${DAY}x36000" "$FRONTS" run "$F/plan.json" -C "$F" $BUDGET \
    </dev/null >"$TMPD/dryfail.out" 2>&1
check "failed model: the run still carries out its plan (exit 0)" "$?" 0
expect_grep "failed model: no re-plans, the failed check named" \
    'no re-plans: the approved model fails the conformance checks apply-does-not-mutate' \
    "$TMPD/dryfail.out"

# --- --live needs a terminal ---------------------------------------------------
expect_exit "--live without a terminal: exit 2" 2 "$FRONTS" run "$P/plan.json" -C "$P" --live
expect_grep "--live without a terminal: says why" 'terminal' "$TMPD/err"

# --- a live day: n, y, s, then y; the counts change; killed after 3 sends ---
echo '{"likes": 0}' >"$TMPD/counts.json"
start_fake day ok --counts "$TMPD/counts.json"
proj day
FRONTS_TEST_NOW="${DAY}x3600" $PY "$DRIVE" --out "$TMPD/day1.out" \
    --keys n,y,s --kill-after-sent 3 \
    --after-sent "1:echo '{\"likes\": 500}' >$TMPD/counts.json; \
FRONTS_TEST_NOW=$DAY $FRONTS history pull -C $P >$TMPD/lock.out 2>&1; echo \$? >$TMPD/lock.rc" \
    -- "$FRONTS" run "$P/plan.json" -C "$P" --live $BUDGET \
    --notify "env >$P/notify.part.\$\$ && mv $P/notify.part.\$\$ $P/notify.\$\$.env" \
    >"$TMPD/day1.drive" 2>&1
check "killed mid-day: SIGKILL" "$?" 137
expect_grep "n: not now, offered again later" 'not now: offered again until' "$TMPD/day1.out"
expect_grep "y: sent" '^SENT: ' "$TMPD/day1.out"
expect_grep "s: skipped for good, in the ledger" '"record":"skipped".*"reason":"operator"' "$P/.fronts/ledger.jsonl"
check "lock: a second writer is refused while run holds it" "$(cat "$TMPD/lock.rc")" 1
expect_grep "lock: the refusal names the holder" 'held by pid [0-9]+ \(fronts run --live\)' "$TMPD/lock.out"
expect_grep "re-plan: says what moved" '^  (d[0-9]+ (moved|dropped|added)|the rest of the plan is unchanged)' "$TMPD/day1.out"
expect_grep "re-plan: the first from scratch" 'a search from scratch: no earlier tree in this run' "$TMPD/day1.out"
expect_grep "re-plan: each generation kept with its reason" '"reason":[[:space:]]*"re-planned after d[0-9] on [a-z]+ (sent|skipped)' "$P/.fronts/plans/0002.json"
# Each notification's environment is written aside and renamed, so the
# files read here are whole even where the run was killed mid-notify; the
# secret is looked for in every file, whole or not.
cat "$P"/notify.*.env >"$TMPD/notify.whole" 2>/dev/null
cat "$P"/notify.* >"$TMPD/notify.every" 2>/dev/null
expect_grep "notify: the post's front, draft and time" '^FRONTS_AT=2026-12-01T' "$TMPD/notify.whole"
expect_grep "notify: FRONTS_DRAFT" '^FRONTS_DRAFT=d[0-9]$' "$TMPD/notify.whole"
expect_no_grep "notify: no secret in its environment" "$SENTINEL" "$TMPD/notify.every"

# --- restarted four hours after the last send: missed posts skipped (late) ---
last=$($PY - "$P/.fronts/ledger.jsonl" <<'PYEOF'
import json, sys
print(max(json.loads(l)["time"] for l in open(sys.argv[1])))
PYEOF
)
RESTART=$(date -u -d "$last 4 hours" +%FT%TZ)
FRONTS_TEST_NOW="${RESTART}x3600" $PY "$DRIVE" --out "$TMPD/day2.out" \
    -- "$FRONTS" run "$P/plan.json" -C "$P" --live $BUDGET \
    >"$TMPD/day2.drive" 2>&1
check "restart: runs to the end of the day, exit 0" "$?" 0
expect_grep "restart: continues the plan's generations" 'continuing from generation [0-9]+ of this plan' "$TMPD/day2.out"
expect_grep "restart: missed posts told as skipped (late)" 'window closed before it was sent: skipped \(late\), recorded in the ledger' "$TMPD/day2.out"
expect_grep "restart: skipped (late) in the ledger" '"record":"skipped".*"reason":"late"' "$P/.fronts/ledger.jsonl"
expect_grep "restart: the day goes on" '^SENT: ' "$TMPD/day2.out"
cat "$TMPD/day1.out" "$TMPD/day2.out" >"$TMPD/all.out"
expect_grep "re-plan: where the plan held, from the last tree" 'going on from the last search.s tree: the plan held' "$TMPD/all.out"

# Every offer inside its window; no post sent twice, none offered twice
# unless answered "not now" (or shown when the kill came).
bad=$(due_lines "$TMPD/all.out" | while read -r d f at now until; do
	[ "$(date -u -d "$at" +%s)" -le "$(date -u -d "$now" +%s)" ] &&
	    [ "$(date -u -d "$now" +%s)" -lt "$(date -u -d "$until" +%s)" ] ||
	    echo "$d $f $at $now"
done)
check "every post offered at its time, inside its window" "$bad" ""
dups=$(due_lines "$TMPD/all.out" | awk '{print $1, $2}' | sort | uniq -c |
    awk '$1 > 2')
check "no post offered more than twice" "$dups" ""
check "no post sent twice (the fake's posts)" \
    "$(grep '"ev": "post"' "$LOG" | grep -c '"dup": true')" 0
sentdup=$($PY - "$P/.fronts/ledger.jsonl" <<'PYEOF'
import json, sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["record"] == "intent":
        c[(r["front"], r["draft"])] += 1
print(" ".join("%s/%s" % k for k, n in c.items() if n > 1))
PYEOF
)
check "no draft attempted twice on a front (ledger)" "$sentdup" ""
check "ledger sends = fake posts" \
    "$(grep -c '"record":"sent"' "$P/.fronts/ledger.jsonl")" \
    "$(grep -c '"ev": "post"' "$LOG")"

# --- the re-plan saw the counts the fake changed ------------------------------
expect_grep "re-plan: the pulled counts are in the history" '"front":"mastodon".*"likes":500' "$P/history.jsonl"
expect_no_grep "no secret in any file" "$SENTINEL" "$P"
