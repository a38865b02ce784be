#!/bin/sh
# Link caps count what each platform links, in `fronts drafts` and in
# `fronts plan` (the search and the re-check of its plan): Bluesky's client
# links every http(s) URL, so two links to a reserved .example host are two
# links there, while X and Mastodon (no known TLD) link neither.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
D=$TMPD/links
new_demo "$D"
# "two" has two links on a reserved .example host: two on Bluesky, none on
# X or Mastodon; Bluesky's front allows one.
cat >"$D/drafts.jsonl" <<'EOF'
{"id": "two", "text": "Staging is up: https://a.example/app and the docs at https://a.example/docs", "topics": ["launch"], "fronts": ["bluesky", "x", "mastodon"]}
{"id": "one", "text": "Try the staging build at https://a.example/app", "topics": ["launch"], "fronts": ["bluesky"]}
EOF
# A model that proposes every post and is paid for each: only the
# legality engine keeps "two" off Bluesky.
cat >"$D/model.py" <<'EOF'
def initial_state(ctx):
    return (0, ())


def legal_actions(state):
    acts = [("wait",)]
    for d in ("two", "one"):
        if d not in state[1]:
            acts.append(("post", d, "bluesky"))
    return acts


def apply(state, action, rng):
    if action[0] == "wait":
        return (state[0] + 1, state[1]), 0.0
    return (state[0], state[1] + (action[1],)), 10.0


def is_terminal(state):
    return state[0] >= 6
EOF
"$FRONTS" approve -C "$D" --yes >/dev/null 2>&1
expect_exit "drafts --json on reserved-TLD links" 0 "$FRONTS" -C "$D" drafts --json
if $PY - "$TMPD/out" <<'EOF'
import json, sys
d = {x["id"]: {e["front"]: e for e in x["fronts"]}
     for x in json.load(open(sys.argv[1]))["drafts"]}
b = d["two"]["bluesky"]
assert b["links"] == 2 and b["caps_ok"] is False and b["ok"] is True, b
assert d["two"]["x"]["links"] == 0 and d["two"]["x"]["caps_ok"] is True, d["two"]["x"]
assert d["two"]["mastodon"]["links"] == 2, d["two"]["mastodon"]
# On X such a URL is text: its characters count, not 23.
assert d["two"]["x"]["length"] == len("Staging is up: https://a.example/app and "
                                      "the docs at https://a.example/docs")
assert d["one"]["bluesky"]["links"] == 1 and d["one"]["bluesky"]["caps_ok"] is True
EOF
then pass "drafts --json reports two Bluesky links over a cap of one"
else fail "drafts --json reports two Bluesky links over a cap of one"; fi

expect_exit "drafts names the link cap" 0 "$FRONTS" -C "$D" drafts
expect_grep "drafts notes 2 links > 1 on bluesky" '^    bluesky .*2 links > 1' "$TMPD/out"

expect_exit "plan on reserved-TLD links" 0 "$FRONTS" plan -C "$D" \
    --isolation thread --iterations 200 --seed 5 --json
if $PY - "$TMPD/out" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
posts = {(p["front"], p["draft"]) for p in doc["plan"]}
assert ("bluesky", "two") not in posts, doc["plan"]
assert ("bluesky", "one") in posts, doc["plan"]
assert doc["stats"]["illegal_proposals"] > 0, doc["stats"]
EOF
then pass "plan never posts two links on a one-link Bluesky front"
else fail "plan never posts two links on a one-link Bluesky front" "$(head -c 600 "$TMPD/out")"; fi
