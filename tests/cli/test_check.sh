#!/bin/sh
# fronts check against the fake Composio, Mastodon, Bluesky and model-list
# endpoints (tests/servers/fake_social.py): every credential variable named
# and never shown, the read-only calls that prove each credential, the
# Mastodon limits cache, and nothing posted.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
FIX=$TOP/tests/cli/publish_fixture.py

SENTINEL=SENTINEL-c4e8a1
export COMPOSIO_API_KEY="ck-$SENTINEL-composio"
export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-mastodon"
export BLUESKY_APP_PASSWORD="bp-$SENTINEL-bluesky"
export ANTHROPIC_API_KEY="ak-$SENTINEL-anthropic"
export FAKE_COMPOSIO_KEY="$COMPOSIO_API_KEY"
export FAKE_MASTODON_TOKEN="$MASTODON_ACCESS_TOKEN"
export FAKE_BLUESKY_PASSWORD="$BLUESKY_APP_PASSWORD"
export FAKE_LLM_KEY="$ANTHROPIC_API_KEY"
unset OPENAI_API_KEY

. "$TOP/tests/cli/fake_social.sh"
trap 'stop_fake; rm -rf "$TMPD"' EXIT

# proj NAME [PYTHON] — a fresh project on the fake; PYTHON edits the
# fronts.json object `f` (a front by id: fr("x")).
proj() {
	P=$TMPD/$1
	rm -rf "$P"
	$PY "$FIX" project "$P" "$PORT" 5
	$PY - "$P/fronts.json" "${2:-pass}" <<'PYEOF'
import json, sys
path, code = sys.argv[1], sys.argv[2]
f = json.load(open(path))
f["provider"]["model"] = "claude-sonnet-4-6"
fr = lambda i: [x for x in f["fronts"] if x["id"] == i][0]
exec(code)
json.dump(f, open(path, "w"), indent=2)
PYEOF
}

run_check() { expect_exit "$1" "$2" "$FRONTS" check -C "$P" $3; cp "$TMPD/out" "$TMPD/$4.out"; }
posts() { grep '"ev": "request"' "$LOG" | grep -c -E '"path": "/(api/v1/statuses|xrpc/com.atproto.repo.createRecord|api/v3(\.1)?/tools/execute/[A-Z_]+)"'; }

# --- everything set up: every check passes, limits cached --------------------
start_fake ok ok --mastodon-max-characters 5000 --mastodon-url-characters 30
proj ok
run_check "all set: exit 0" 0 "" ok
O=$TMPD/ok.out
expect_grep "all set: says so" 'all checks pass: the provider and 5 fronts are ready' "$O"
check "all set: no FAIL line" "$(grep -c FAIL "$O")" 0
expect_grep "provider: names its variable" 'PASS  ANTHROPIC_API_KEY is set' "$O"
expect_grep "provider: lists the models" 'PASS  3 models listed, claude-sonnet-4-6 among them' "$O"
check "provider: the list call sends anthropic-version" "$(grep '"path": "/v1/models"' "$LOG" | grep -c '"anthropic_version": "2023-06-01"')" 1
expect_grep "composio: names its variable" 'PASS  COMPOSIO_API_KEY is set' "$O"
expect_grep "composio: the tool at the latest version" 'PASS  tool TWITTER_CREATION_OF_A_POST exists at version 20260403_00 \(the latest' "$O"
expect_grep "composio: the pinned version" 'PASS  tool REDDIT_CREATE_REDDIT_POST exists at version 20260410_00$' "$O"
expect_grep "composio: the connected account by id" 'PASS  connected account ca_test_x \(twitter\) is ACTIVE' "$O"
expect_grep "composio: the connected account by user_id" 'PASS  connected account ca_test_li \(linkedin\) is ACTIVE' "$O"
check "composio: the account lookup filters by user and toolkit" "$(grep '"path": "/api/v3.1/connected_accounts"' "$LOG" | grep -c '"toolkit_slugs": "linkedin", "user_ids": "tidewater"')" 1
expect_grep "mastodon: verify_credentials" 'PASS  the token is @tidewater' "$O"
expect_grep "mastodon: the app may post" 'PASS  the token.s app may post \(write:statuses\)' "$O"
expect_grep "mastodon: the instance's own limits" 'PASS  5000 characters, URLs count 30 \(not Mastodon.s defaults, 500 and 23\); images: 4 per post, 16777216 bytes, 33177600 pixels, alt text 1500 characters \(0: Mastodon.s default\); cached in .fronts/instance-limits.json \(read 20[0-9-]+T[0-9:]+Z\)' "$O"
expect_grep "bluesky: a session" 'PASS  session for tidewater.dev \(did:plc:fakefakefake\)' "$O"
expect_grep "bluesky: the profile" 'PASS  profile @tidewater.dev read' "$O"
check "nothing is posted" "$(posts)" 0
check "only createSession is a POST" "$(grep '"ev": "request"' "$LOG" | grep '"method": "POST"' | grep -vc createSession)" 0
expect_grep "the cache holds the instance's limits" '"max_characters":[[:space:]]*5000' "$P/.fronts/instance-limits.json"
expect_grep "the cache holds the URL weight" '"characters_reserved_per_url":[[:space:]]*30' "$P/.fronts/instance-limits.json"
expect_grep "the cache holds the image size limit" '"image_size_limit":[[:space:]]*16777216' "$P/.fronts/instance-limits.json"
expect_grep "the cache holds the image types fronts knows" '"image_types":[[:space:]]*\[' "$P/.fronts/instance-limits.json"
check "nothing else is written" "$(ls "$P/.fronts")" "instance-limits.json"

# The cached limits are the ones drafts, the legality engine and publish use.
expect_exit "drafts after check" 0 "$FRONTS" drafts -C "$P"
expect_grep "drafts count against the instance's limit" 'mastodon +57 / 5000 graphemes' "$TMPD/out"
printf '%s\n' '{"id": "d9", "text": "Read https://example.com/a", "topics": ["launch"]}' >>"$P/drafts.jsonl"
expect_exit "drafts --json after check" 0 "$FRONTS" drafts -C "$P" --json
$PY - "$TMPD/out" >"$TMPD/d9" <<'PYEOF'
import json, sys
for d in json.load(open(sys.argv[1]))["drafts"]:
    for f in d["fronts"]:
        if d["id"] == "d9" and f["front"] == "mastodon":
            print(f["length"], f["limit"])
PYEOF
check "a URL counts as the instance says (5 + 30), limit 5000" "$(head -n 1 "$TMPD/d9")" "35 5000"
$PY "$FIX" plan "$P" "$P/plan.json" mastodon:d3:1
expect_exit "publish dry run after check" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "publish counts against the cached limit" 'length 54/5000 graphemes' "$TMPD/out"
check "publish: no notice once the limits are cached" "$(grep -c 'limits have not been read' "$TMPD/err")" 0
rm "$P/.fronts/instance-limits.json"
expect_exit "publish dry run without the cache" 0 "$FRONTS" publish "$P/plan.json" -C "$P"
expect_grep "publish: the defaults without the cache" 'length 54/500 graphemes' "$TMPD/out"
expect_grep "publish: says the limits were never read" 'front mastodon: the instance.s own limits have not been read; .*`fronts check`' "$TMPD/err"

printf '{"instances": [' >"$P/.fronts/instance-limits.json"
expect_exit "a broken cache: drafts still run" 0 "$FRONTS" drafts -C "$P"
expect_grep "a broken cache: named in a warning" 'instance-limits.json: not a JSON object .*Mastodon.s defaults \(500, URLs 23\) are used' "$TMPD/err"
expect_grep "a broken cache: the defaults" 'mastodon +57 / 500 graphemes' "$TMPD/out"
expect_exit "--json: exit 0" 0 "$FRONTS" check -C "$P" --json
$PY - "$TMPD/out" >"$TMPD/json.sum" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["ok"], d["provider"]["credential"]["variable"], d["provider"]["ok"],
      ",".join("%s:%s:%s:%s" % (f["id"], f["credential"]["variable"],
                                f["credential"]["set"], f["ok"]) for f in d["fronts"]))
PYEOF
expect_grep "a broken cache: check writes it anew" '"max_characters":[[:space:]]*5000' "$P/.fronts/instance-limits.json"
check "--json: one object, the provider and one entry per front" "$(cat "$TMPD/json.sum")" \
    "True ANTHROPIC_API_KEY True x:COMPOSIO_API_KEY:True:True,linkedin:COMPOSIO_API_KEY:True:True,reddit:COMPOSIO_API_KEY:True:True,mastodon:MASTODON_ACCESS_TOKEN:True:True,bluesky:BLUESKY_APP_PASSWORD:True:True"

# --- a missing variable ----------------------------------------------------------
start_fake missing ok
proj missing
( unset MASTODON_ACCESS_TOKEN BLUESKY_APP_PASSWORD; "$FRONTS" check -C "$P" >"$TMPD/missing.out" 2>&1; echo $? >"$TMPD/missing.rc" )
O=$TMPD/missing.out
check "missing variable: exit 1" "$(cat "$TMPD/missing.rc")" 1
expect_grep "missing variable: names it" 'FAIL  MASTODON_ACCESS_TOKEN is not set' "$O"
expect_grep "missing variable: says what to do" 'to do: export the credential in that variable' "$O"
expect_grep "missing variable: bluesky too" 'FAIL  BLUESKY_APP_PASSWORD is not set' "$O"
check "missing variable: no session without the password" "$(grep -c createSession "$LOG")" 0
expect_grep "missing variable: the public instance limits are still read" 'PASS  500 characters, URLs count 23; images: 4 per post, [0-9]+ bytes, [0-9]+ pixels, alt text 1500 characters \(0: Mastodon.s default\); cached' "$O"
expect_grep "missing variable: the summary" '2 of 6 failing' "$O"

# --- expired or revoked credentials -------------------------------------------
start_fake revoked ok --account-status EXPIRED
proj revoked
( export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-revoked" BLUESKY_APP_PASSWORD="bp-$SENTINEL-revoked" ANTHROPIC_API_KEY="ak-$SENTINEL-revoked"
  "$FRONTS" check -C "$P" >"$TMPD/revoked.out" 2>&1; echo $? >"$TMPD/revoked.rc" )
O=$TMPD/revoked.out
check "revoked: exit 1" "$(cat "$TMPD/revoked.rc")" 1
expect_grep "revoked: the model list fails" 'FAIL  listing the models failed: HTTP 401' "$O"
expect_grep "revoked: mastodon token" 'FAIL  verify_credentials: HTTP 401: The access token is invalid' "$O"
expect_grep "revoked: mastodon says what to do" 'to do: the token is wrong, expired or revoked' "$O"
expect_grep "revoked: bluesky app password" 'FAIL  createSession for tidewater.dev: HTTP 401' "$O"
expect_grep "expired: the Composio account" 'FAIL  connected account ca_test_x is EXPIRED: token expired' "$O"
expect_grep "expired: says reconnect" 'to do: reconnect the account in Composio' "$O"
( export COMPOSIO_API_KEY="ck-$SENTINEL-revoked"; "$FRONTS" check -C "$P" >"$TMPD/ckey.out" 2>&1 )
expect_grep "revoked: the Composio key" 'FAIL  tool TWITTER_CREATION_OF_A_POST at version latest: HTTP 401: Invalid API key' "$TMPD/ckey.out"

# A server's words are shown escaped, never as raw controls.
start_fake hostile ok --hostile
proj hostile
( export MASTODON_ACCESS_TOKEN="mt-$SENTINEL-revoked"
  "$FRONTS" check -C "$P" >"$TMPD/hostile.out" 2>&1
  "$FRONTS" check -C "$P" --json >"$TMPD/hostile.json" 2>&1 )
expect_grep "hostile reason: shown escaped" 'The access token is invalid \\x1b\]0;pwned\\x07' "$TMPD/hostile.out"
expect_grep "hostile reason: --json keeps the JSON escape" 'invalid \\u001b\]0;pwned\\u0007' "$TMPD/hostile.json"
if LC_ALL=C grep -q "$(printf '\033')" "$TMPD/hostile.out" "$TMPD/hostile.json"; then
	fail "hostile reason: no raw escape"; else pass "hostile reason: no raw escape"; fi

# X through Composio needs the operator's own X developer app.
start_fake managed ok --x-managed
proj managed
run_check "X on Composio-managed credentials: exit 1" 1 "" managed
expect_grep "X on Composio-managed credentials: named" 'FAIL  connected account ca_test_x uses Composio-managed X credentials' "$TMPD/managed.out"
expect_grep "X on Composio-managed credentials: says what to do" 'to do: create an app in the X developer portal' "$TMPD/managed.out"

# --- missing scopes ----------------------------------------------------------------
start_fake noscope ok --mastodon-scopes "read"
proj noscope
run_check "no write scope: exit 1" 1 "" noscope
expect_grep "no write scope: the app cannot post" 'FAIL  the token.s app lacks write:statuses: it cannot post' "$TMPD/noscope.out"
start_fake noread ok --mastodon-scopes "write"
proj noread
run_check "no read scope: exit 1" 1 "" noread
expect_grep "no read scope: verify_credentials refused" 'FAIL  verify_credentials: HTTP 403: This action is outside the authorized scopes' "$TMPD/noread.out"
expect_grep "no read scope: says which scopes" 'to do: the token lacks the profile or read:accounts scope' "$TMPD/noread.out"

# --- an unknown tool version, a retired model ---------------------------------------
start_fake version ok
proj version 'fr("reddit")["composio"]["version"] = "19990101_00"; fr("x")["composio"]["version"] = "20260301_00"; f["provider"]["model"] = "claude-sonnet-4-5"'
run_check "unknown version: exit 1" 1 "" version
expect_grep "an older pinned version: passes, naming the latest" 'PASS  tool TWITTER_CREATION_OF_A_POST exists at version 20260301_00; the latest is 20260403_00' "$TMPD/version.out"
expect_grep "unknown version: named" 'FAIL  tool REDDIT_CREATE_REDDIT_POST at version 19990101_00: HTTP 404' "$TMPD/version.out"
expect_grep "unknown version: says what to do" 'to do: fix composio.tool, or set composio.version' "$TMPD/version.out"
expect_grep "retired model: not in the list" 'FAIL  3 models listed, but not claude-sonnet-4-5' "$TMPD/version.out"
expect_grep "retired model: says set provider.model" 'to do: set provider.model' "$TMPD/version.out"
check "unknown version: nothing is posted" "$(posts)" 0

# --- the account and the numbers ----------------------------------------------------
expect_grep "unpinned: the version fronts sends, and what it resolves to" \
    'PASS  tool TWITTER_CREATION_OF_A_POST exists at version 20260403_00 \(the latest: fronts sends "latest"\)' "$TMPD/ok.out"
expect_grep "unpinned: the tool read at version latest" '"path": "/api/v3.1/tools/TWITTER_CREATION_OF_A_POST", "query": \{"version": "latest"\}' "$TMPD/ok.log"
expect_grep "parameters: the post tool takes what fronts sends" 'PASS  tool REDDIT_CREATE_REDDIT_POST takes every argument fronts sends' "$TMPD/ok.out"
expect_grep "parameters: the X read tool is checked too" 'PASS  tool TWITTER_POST_LOOKUP_BY_POST_ID takes every argument fronts sends' "$TMPD/ok.out"
start_fake params ok --drop-param tweet__fields
proj params 'fr("reddit")["composio"]["arguments"]["sendreplies"] = True'
run_check "an argument the tool does not take: exit 1" 1 "" params
expect_grep "parameters: the read tool's missing parameter named" \
    'FAIL  tool TWITTER_POST_LOOKUP_BY_POST_ID has no input parameter "tweet__fields", which fronts sends \(it takes: expansions, id, media__fields' "$TMPD/params.out"
expect_grep "parameters: a fixed argument the post tool lacks" \
    'FAIL  tool REDDIT_CREATE_REDDIT_POST has no input parameter "sendreplies"' "$TMPD/params.out"
start_fake replyparam ok --drop-param reply__in_reply_to_tweet_id
proj replyparam
run_check "X without the reply parameter a thread needs: exit 1" 1 "" replyparam
expect_grep "parameters: the reply argument of a thread's later parts is checked" \
    'FAIL  tool TWITTER_CREATION_OF_A_POST has no input parameter "reply__in_reply_to_tweet_id"' "$TMPD/replyparam.out"
start_fake accounts ok --mastodon-max-characters 5000
proj accounts 'fr("mastodon")["account"] = "@ledgerline@mastodon.example"; fr("bluesky")["account"] = "ledgerline.dev"; fr("x")["composio"]["user_id"] = "ledgerline"'
run_check "another account's credentials: exit 1" 1 "" accounts
expect_grep "mastodon: another account's token fails" \
    "FAIL  the token is @tidewater@mastodon.example's, but the front is configured as @ledgerline@mastodon.example" "$TMPD/accounts.out"
expect_grep "bluesky: another account's session fails" \
    "FAIL  the session is tidewater.dev's \(did:plc:fakefakefake\), but the front is configured as ledgerline.dev" "$TMPD/accounts.out"
expect_grep "composio: another user's connected account fails" \
    "FAIL  connected account ca_test_x is user tidewater's, not the front's composio.user_id ledgerline" "$TMPD/accounts.out"
expect_grep "mastodon: the front's own token passes" \
    "PASS  the token is @tidewater@mastodon.example's, the front's account" "$TMPD/ok.out"
start_fake wait ok --instance-retry-after 1000000000
proj wait
run_check "a Retry-After of 10^9 s: exit 1" 1 "" wait
until_year=$(sed -n 's/.*rate limited until \([0-9]*\)-.*/\1/p' "$TMPD/wait.out")
if [ -n "$until_year" ] && [ "$until_year" -gt $(( $(date -u +%Y) + 30 )) ]; then
	pass "a Retry-After of 10^9 s: the line says until when"
else fail "a Retry-After of 10^9 s: the line says until when" "$(grep instance "$TMPD/wait.out")"; fi
for v in 1e12 1.5 -1 '"500"'; do
	start_fake limit ok --mastodon-max-characters "$v"
	proj limit
	run_check "max_characters $v: exit 1" 1 "" limit
	shown=$(printf '%s' "$v" | sed 's/1e12/1000000000000/')
	expect_grep "max_characters $v: FAILs naming the value" \
	    "FAIL  /api/v2/instance: configuration.statuses.max_characters is $shown, not a whole number from 1 to 1000000" "$TMPD/limit.out"
done

# --- no provider.model: the provider's default is the one looked for ------------
start_fake default ok
proj default 'del f["provider"]["model"]'
run_check "no provider.model: exit 0" 0 "" default
expect_grep "no provider.model: the default model is in the list" 'PASS  3 models listed, claude-opus-5-5 \(the default\) among them' "$TMPD/default.out"

# --- OpenAI: its own variable and bearer token -------------------------------------
start_fake openai ok
proj openai 'f["provider"] = {"name": "openai", "model": "gpt-5.1"}'
( export OPENAI_API_KEY="$FAKE_LLM_KEY" OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1"
  unset ANTHROPIC_API_KEY
  "$FRONTS" check -C "$P" >"$TMPD/openai.out" 2>&1 )
expect_grep "openai: names its variable" 'PASS  OPENAI_API_KEY is set' "$TMPD/openai.out"
expect_grep "openai: lists the models" 'PASS  3 models listed, gpt-5.1 among them' "$TMPD/openai.out"
check "openai: the bearer token was accepted" "$(grep '"path": "/v1/models"' "$LOG" | grep -c '"auth": "ok"')" 1
proj openai41 'f["provider"] = {"name": "openai", "model": "gpt-4.1"}'
( export OPENAI_API_KEY="$FAKE_LLM_KEY" OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1"
  "$FRONTS" check -C "$P" >"$TMPD/openai41.out" 2>&1 )
expect_grep "openai: a model with a shutdown date says so" 'PASS  3 models listed, gpt-4.1 among them \(it shuts down on 2027-02-17: move provider.model' "$TMPD/openai41.out"

# --- no credential anywhere ----------------------------------------------------------
stop_fake
expect_no_grep "no sentinel key in any file or output" "$SENTINEL" "$TMPD"
