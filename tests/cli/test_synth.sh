#!/bin/sh
# fronts synth against a loopback fake Anthropic/OpenAI server: success,
# retries, give-ups, bad answers, refinement rounds that carry the gate's
# verdicts, record/replay, the bundled demo recording, and a sentinel key
# that must appear nowhere.
. "$(dirname "$0")/../lib.sh"

KEY=sk-ant-SENTINEL-1234
MODEL=$TOP/fixtures/demo/model.py
FAKE=$TOP/tests/servers/fake_llm.py
export FRONTS_RETRY_SCALE=0.001	# test knob: real backoff schedule, in ms
unset ANTHROPIC_API_KEY OPENAI_API_KEY ANTHROPIC_BASE_URL OPENAI_BASE_URL

# One fake server for the whole file; each check gives it a new script
# (it rereads the file when it changes) and a fresh request log.
FAKE_DIR=$TMPD/fake
mkdir -p "$FAKE_DIR"
echo '[]' >"$FAKE_DIR/script.json"
/usr/bin/python3 "$FAKE" --script "$FAKE_DIR/script.json" --log "$FAKE_DIR" \
    --port-file "$FAKE_DIR/port" --expect-key "$KEY" &
FAKE_PID=$!
trap 'kill $FAKE_PID 2>/dev/null; rm -rf "$TMPD"' EXIT
i=0
while [ ! -s "$FAKE_DIR/port" ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
FAKE_URL=http://127.0.0.1:$(cat "$FAKE_DIR/port")

# script NAME JSON — the server's next script, and an empty request log.
script() {
	printf '%s\n' "$2" >"$FAKE_DIR/script.$1"
	mv "$FAKE_DIR/script.$1" "$FAKE_DIR/script.json"
	rm -f "$FAKE_DIR/requests.jsonl"
}
requests() { [ -f "$FAKE_DIR/requests.jsonl" ] && wc -l <"$FAKE_DIR/requests.jsonl" || echo 0; }
# check NAME GOT WANT

# synth NAME WANT_EXIT SCRIPT [ARGS...] — fresh demo copy (no model.py),
# fake server following SCRIPT, `fronts synth` with the sentinel key.
synth() {
	sname=$1; want=$2; script=$3; shift 3
	P=$TMPD/p-$sname
	new_demo "$P"
	rm -f "$P/model.py"
	script "$sname" "$script"
	ANTHROPIC_API_KEY=$KEY ANTHROPIC_BASE_URL=$FAKE_URL \
	OPENAI_API_KEY=$KEY OPENAI_BASE_URL=$FAKE_URL/v1 \
	    expect_exit "$sname: exit $want" "$want" "$FRONTS" synth -C "$P" \
	    --provider anthropic --timeout 5 "$@"
	cp "$TMPD/out" "$TMPD/out-$sname"
	cp "$TMPD/err" "$TMPD/err-$sname"
}

good="{\"code_file\":\"$MODEL\",\"preamble\":\"Here is the model.\"}"
bad="{\"code_file\":\"$MODEL\",\"preamble\":\"Here is the model.\",\"code_prefix\":\"import random\\n\"}"
err() { printf '{"status":%s,"times":%s,"error":{"type":"%s","message":"%s"}%s}' "$@"; }

synth success 0 "[$good]"
if cmp -s "$P/model.py" "$MODEL"; then pass "success: model.py is the answer's code"
else fail "success: model.py is the answer's code"; fi
expect_grep "success: says it is not approved" "NOT approved" "$TMPD/out-success"
expect_grep "success: names fronts approve" "fronts approve" "$TMPD/out-success"
rep=$(ls "$P"/.fronts/synth-*.json 2>/dev/null | head -n 1)
if [ -n "$rep" ] && grep -q '"approved":	false' "$rep" && grep -q '"input":	1200' "$rep"
then pass "success: report with tokens, unapproved"
else fail "success: report with tokens, unapproved" "$rep"; fi
[ -f "$P/.fronts/approved" ] && fail "success: nothing approved" || pass "success: nothing approved"

synth openai 0 "[$good]" --provider openai --llm-model gpt-test
grep -q '"/v1/chat/completions"' "$FAKE_DIR/requests.jsonl" && grep -q '"model": "gpt-test"' "$FAKE_DIR/requests.jsonl" \
    && pass "openai: chat completions with --llm-model" || fail "openai: chat completions with --llm-model"

# The model: the provider's current default when fronts.json names none
# (the demo names none), provider.model when it does, --llm-model over both.
model_sent() { /usr/bin/python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["body"]["model"])' "$FAKE_DIR/requests.jsonl"; }
synth defmodel 0 "[$good]"
check "default model: claude-opus-5-5" "$(model_sent)" claude-opus-5-5
synth defmodel-openai 0 "[$good]" --provider openai
check "default model (openai): gpt-6-astra" "$(model_sent)" gpt-6-astra
P=$TMPD/p-pinned; new_demo "$P"; rm -f "$P/model.py"
sed -i 's/"provider": {"name": "anthropic"}/"provider": {"name": "anthropic", "model": "claude-pinned-1"}/' "$P/fronts.json"
script pinned "[$good]"
ANTHROPIC_API_KEY=$KEY ANTHROPIC_BASE_URL=$FAKE_URL \
    expect_exit "provider.model: exit 0" 0 "$FRONTS" synth -C "$P"
check "provider.model wins over the default" "$(model_sent)" claude-pinned-1
rm -f "$P/model.py"; script pinned2 "[$good]"
ANTHROPIC_API_KEY=$KEY ANTHROPIC_BASE_URL=$FAKE_URL \
    expect_exit "--llm-model: exit 0" 0 "$FRONTS" synth -C "$P" --llm-model claude-flag-2
check "--llm-model wins over provider.model" "$(model_sent)" claude-flag-2

# A retired or unknown model: the API's 404, said plainly, not retried.
synth nomodel 5 '[{"no_model":true,"times":9}]'
expect_grep "unknown model: says so" "the Anthropic API has no model 'claude-opus-5-5' \(404\).*set provider.model in fronts.json" "$TMPD/err-nomodel"
check "unknown model: not retried" "$(requests)" 1

# Stop reasons other than a natural end, each in its own words.
synth refusal 5 '[{"text":"I cannot help with that.","stop":"refusal"}]'
expect_grep "refusal: says so" "the model refused to answer \(stop reason refusal\)" "$TMPD/err-refusal"
synth ctxfull 5 "[{\"code_file\":\"$MODEL\",\"stop\":\"model_context_window_exceeded\"}]"
expect_grep "context window: says so" "filled the model's context window" "$TMPD/err-ctxfull"
synth paused 5 '[{"text":"working on it","stop":"pause_turn"}]'
expect_grep "pause_turn: says so" "paused the turn before the answer was complete" "$TMPD/err-paused"
synth filtered 5 "[{\"code_file\":\"$MODEL\",\"stop\":\"content_filter\"}]" --provider openai
expect_grep "content_filter: says so" "content filter withheld the answer" "$TMPD/err-filtered"
synth oairefusal 5 '[{"text":"No.","stop":"refusal"}]' --provider openai
expect_grep "openai refusal: says so" "the model refused to answer \(refusal\): No\." "$TMPD/err-oairefusal"

# x-should-retry: false stops retries of an overloaded API; true makes
# even a 400 worth another try.
synth noretry 5 "[$(err 529 9 overloaded_error Overloaded ',"should_retry":"false"')]"
check "x-should-retry false: one request" "$(requests)" 1
expect_grep "x-should-retry false: says so" "x-should-retry: false" "$TMPD/err-noretry"
synth forceretry 0 "[$(err 400 1 invalid_request_error 'try again' ',"should_retry":"true"'), $good]"
check "x-should-retry true: retried" "$(requests)" 2

# A dropped connection is asked again: a model call has no side effect.
synth dropped 0 "[{\"drop\":true}, $good]"
check "dropped connection: retried" "$(requests)" 2

# A long answer streamed slowly: 200 events 20 ms apart outlast a 1 s
# limit that applies to silence, not to the length of the answer.
synth slow 0 "[{\"code_file\":\"$MODEL\",\"preamble\":\"Here.\",\"chunk_chars\":$(( $(wc -c <"$MODEL") / 200 + 1 )),\"chunk_delay\":0.02}]" --timeout 1
cmp -s "$P/model.py" "$MODEL" && pass "slow stream: model.py is the answer's code" \
    || fail "slow stream: model.py is the answer's code"
grep -q '"stream": true' "$FAKE_DIR/requests.jsonl" && pass "slow stream: asked to stream" \
    || fail "slow stream: asked to stream"

synth retry429 0 "[$(err 429 1 rate_limit_error 'slow down' ',"headers":{"retry-after":"3"}'), $good]"
[ "$(requests)" -eq 2 ] && pass "retry429: retried once" || fail "retry429: retried once" "$(requests) requests"

synth overloaded 5 "[$(err 529 9 overloaded_error Overloaded '')]"
expect_grep "overloaded: gave up after 4 tries" "overloaded \(529\); gave up after 4 tries" "$TMPD/err-overloaded"
expect_grep "overloaded: request id" "request id req_fake_4" "$TMPD/err-overloaded"

synth server500 5 "[$(err 500 9 api_error boom '')]"
expect_grep "server500: gave up" "server error \(500\); gave up after 4 tries" "$TMPD/err-server500"

P=$TMPD/p-unauth; new_demo "$P"; script unauth "[$good]"
ANTHROPIC_API_KEY=sk-ant-wrong ANTHROPIC_BASE_URL=$FAKE_URL \
    expect_exit "401: exit 5" 5 "$FRONTS" synth -C "$P" --provider anthropic
expect_grep "401: operator's words" "the Anthropic API rejected the key \(401\)" "$TMPD/err"
[ "$(requests)" -eq 1 ] && pass "401: not retried" || fail "401: not retried" "$(requests) requests"

synth quota 5 "[$(err 429 5 rate_limit_error 'Your workspace spend limit has been reached' '')]"
[ "$(requests)" -eq 1 ] && pass "quota: not retried" || fail "quota: not retried"
expect_grep "quota: says so" "quota or spend limit is exhausted" "$TMPD/err-quota"

synth malformed 5 '[{"raw":"{\"content\": [{\"type\": \"text\""}]'
expect_grep "malformed: says so" "not valid JSON" "$TMPD/err-malformed"

# A stream cut short is asked for again (three times), then reported.
synth truncbody 5 "[{\"code_file\":\"$MODEL\",\"truncate\":true,\"times\":9}]"
expect_grep "truncated body: says so" "cut short\) \(asked 3 times\)" "$TMPD/err-truncbody"
check "truncated body: asked 3 times" "$(requests)" 3
synth trunconce 0 "[{\"code_file\":\"$MODEL\",\"truncate\":true}, $good]"
cmp -s "$P/model.py" "$MODEL" && pass "truncated once: the second answer is used" \
    || fail "truncated once: the second answer is used"

# --timeout bounds silence; a stalled answer is asked again (it has no
# side effect) and then given up on.
synth stall 5 '[{"text":"late","stall":5,"times":9}]' --timeout 0.3
expect_grep "stall: timed out" "sent nothing for 0.3 s \(timed out\); gave up after 4 tries" "$TMPD/err-stall"

synth maxtokens 5 "[{\"code_file\":\"$MODEL\",\"stop\":\"max_tokens\"}]"
expect_grep "max_tokens: truncated answer" "cut off at the 32768-token limit" "$TMPD/err-maxtokens"

synth nocode 3 '[{"text":"I would rather not write code.","times":2}]' --rounds 2
expect_grep "no code: says so" "no .*python code block" "$TMPD/err-nocode"
grep -q 'no ```python code block' "$FAKE_DIR/requests.jsonl" && pass "no code: the next round says why" \
    || fail "no code: the next round says why"
[ -f "$P/model.py" ] && fail "no code: nothing written" || pass "no code: nothing written"

synth refine 0 "[$bad, $good]"
expect_grep "refine: round 1 refused" "candidate 1: the gate refused it" "$TMPD/err-refine"
/usr/bin/python3 - "$FAKE_DIR/requests.jsonl" >"$TMPD/second" <<'EOF'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
print(len(reqs))
print(reqs[1]["body"]["messages"][2]["content"] if len(reqs) > 1 else "")
EOF
expect_grep "refine: second request carries the verdict" "line 1, col 0 \[import\]" "$TMPD/second"
if cmp -s "$P/model.py" "$MODEL"; then pass "refine: the fixed candidate is written"
else fail "refine: the fixed candidate is written"; fi

# A candidate of 80,000 refused lines (`a._`): the gate's text stays
# linear (the old one re-copied itself per verdict and hung synth), and
# the next round carries the first 20 verdicts and a count, not all
# 80,000 (about 10 MB), within 16 KiB of problems.
/usr/bin/python3 -c 'import sys; sys.stdout.write("a._\n" * 80000)' >"$TMPD/many.py"
many="{\"code_file\":\"$TMPD/many.py\",\"preamble\":\"Here is the model.\"}"
synth many 0 "[$many, $good]"
expect_grep "many verdicts: round 1 refused" "candidate 1: the gate refused it" "$TMPD/err-many"
/usr/bin/python3 - "$FAKE_DIR/requests.jsonl" >"$TMPD/second" <<'EOF'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
c = reqs[1]["body"]["messages"][2]["content"] if len(reqs) > 1 else ""
print(len(c.encode()) < 20000, c.count("[private-attribute]"))
print(c)
EOF
expect_grep "many verdicts: the prompt carries 20 of them" "^True 20$" "$TMPD/second"
expect_grep "many verdicts: and counts the rest" "\(and 79980 more verdicts; fix these first\)" "$TMPD/second"

# A candidate that passes the gate but fails validation (run in the
# sandbox worker): the next round carries the validation report.
cat >"$TMPD/broken.py" <<'EOF'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, 1.0 / 0


def is_terminal(state):
    return state >= 3
EOF
broken="{\"code_file\":\"$TMPD/broken.py\"}"
synth validfail 0 "[$broken, $good]"
expect_grep "validation: round 1 failed checks" "candidate 1: gate ok; validation [0-9]+ passed, [1-9][0-9]* failed" "$TMPD/err-validfail"
expect_grep "validation: the failed checks are named" "candidate 1: gate ok; validation [0-9]+ passed, [1-9][0-9]* failed: [a-z-]*(random-rollouts|initial-state)" "$TMPD/err-validfail"
grep -q 'failed validation' "$FAKE_DIR/requests.jsonl" && grep -q 'ZeroDivisionError' "$FAKE_DIR/requests.jsonl" \
    && pass "validation: the next round carries the report" || fail "validation: the next round carries the report"
cmp -s "$P/model.py" "$MODEL" && pass "validation: the passing candidate is written" \
    || fail "validation: the passing candidate is written"

# The provider fails after a candidate that only the gate accepted: that
# candidate is still written for review, and the exit says what failed.
synth midfail 5 "[$broken, $(err 529 9 overloaded_error Overloaded '')]" --rounds 2
cmp -s "$P/model.py" "$TMPD/broken.py" && pass "midfail: best candidate kept" || fail "midfail: best candidate kept"
expect_grep "midfail: says why" "gave up after 4 tries" "$TMPD/err-midfail"
expect_grep "midfail: names the failed checks" "conformance: FAILED: [a-z-]+" "$TMPD/out-midfail"

# Record against the fake server, then replay offline: same bytes.
REC=$TMPD/rec
synth record 0 "[$bad, $good]" --record --fixtures "$REC"
cp "$P/model.py" "$TMPD/recorded.py"
[ "$(ls "$REC" | wc -l)" -eq 2 ] && pass "record: two exchanges stored" || fail "record: two exchanges stored"
P=$TMPD/p-replay; new_demo "$P"; rm -f "$P/model.py"
expect_exit "replay: exit 0 offline" 0 "$FRONTS" synth -C "$P" --provider replay --fixtures "$REC"
cmp -s "$P/model.py" "$TMPD/recorded.py" && pass "replay: same model bytes" || fail "replay: same model bytes"
echo "# changed" >>"$P/rules.md"
expect_exit "replay miss: exit 5" 5 "$FRONTS" synth -C "$P" --provider replay --fixtures "$REC"
expect_grep "replay miss: names what differs" "closest, .*differs in messages\[0\]\.content" "$TMPD/err"

# The bundled demo recording: no key, so replay is the default, and it
# must yield the demo's model byte for byte after one refinement round.
# A failure here means the demo project, the prompt templates or the gate
# changed: re-record (fixtures/replay/README.md).
P=$TMPD/p-demo; new_demo "$P"; rm -f "$P/model.py"
expect_exit "demo: replay by default without a key" 0 "$FRONTS" synth -C "$P"
expect_grep "demo: says it replays" "ANTHROPIC_API_KEY is not set; answering from recordings" "$TMPD/err"
expect_grep "demo: refined once" "round 2: asking replay to refine candidate 1" "$TMPD/err"
if cmp -s "$P/model.py" "$MODEL"; then pass "demo: yields fixtures/demo/model.py"
else fail "demo: yields fixtures/demo/model.py" "$(head -c 800 "$TMPD/err")"; fi
expect_grep "demo: the chosen model's backtest" "backtest: mae_log [0-9.]+ \(front_median [0-9.]+, hour_weekday [0-9.]+, builtin [0-9.]+\).*beats both baselines" "$TMPD/out"
if /usr/bin/python3 -c '
import glob, json, sys
r = json.load(open(sorted(glob.glob(sys.argv[1] + "/.fronts/synth-*.json"))[-1]))
b = r["chosen_backtest"]
assert b["beats_baselines"] is True and b["mae_log"] < b["baselines_mae_log"]["front_median"]
assert r["candidates"][0]["backtest"] is None
' "$P"; then pass "demo: the report states the chosen figures"
else fail "demo: the report states the chosen figures"; fi

# The sentinel key is nowhere: outputs, projects, reports, recordings.
expect_no_grep "sentinel key in no file or output" "SENTINEL" "$TMPD" "$TOP/fixtures/replay"
