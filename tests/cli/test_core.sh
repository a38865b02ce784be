#!/bin/sh
# CLI tests of the foundation: help, version, usage errors, `fronts init`
# and `fronts drafts` against the real binary, and loader messages that
# name file, line and field.
. "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# The executable the workers run model code in is position-independent
# (SECURITY.md, "The interpreter's own bugs"), as is every build of it.
for b in "$FRONTS" "$TOP/build/fronts"; do
	[ -x "$b" ] || continue
	check "$(basename "$b") is position-independent" \
	    "$(readelf -h "$b" | awk '$1 == "Type:" { print $2 }')" DYN
done

# help, version, usage
expect_exit "--help exits 0" 0 "$FRONTS" --help
expect_grep "--help lists init" '^  init ' "$TMPD/out"
expect_grep "--help lists drafts" '^  drafts ' "$TMPD/out"
expect_grep "--help lists exit codes" 'exit codes' "$TMPD/out"
expect_exit "--version exits 0" 0 "$FRONTS" --version
expect_grep "--version prints the version" '^fronts [0-9]+\.[0-9]+\.[0-9]+$' "$TMPD/out"
expect_exit "init --help exits 0" 0 "$FRONTS" init --help
expect_grep "init --help shows usage" '^usage: fronts init \[--empty\] DIR' "$TMPD/out"
expect_exit "drafts --help exits 0" 0 "$FRONTS" drafts --help
expect_grep "drafts --help shows usage" '^usage: fronts drafts \[-C DIR\] \[--json\]' "$TMPD/out"
expect_exit "unknown command exits 2" 2 "$FRONTS" frobnicate
expect_grep "unknown command is named" "unknown command 'frobnicate'" "$TMPD/err"
expect_exit "unknown global option exits 2" 2 "$FRONTS" --frob
expect_exit "init without DIR exits 2" 2 "$FRONTS" init
expect_grep "init without DIR says so" 'missing DIR' "$TMPD/err"
expect_exit "init with two DIRs exits 2" 2 "$FRONTS" init "$TMPD/a" "$TMPD/b"
expect_exit "init with unknown option exits 2" 2 "$FRONTS" init --force "$TMPD/a"
expect_exit "drafts with unknown option exits 2" 2 "$FRONTS" drafts --yaml
expect_exit "drafts with extra argument exits 2" 2 "$FRONTS" drafts extra
[ -e "$TMPD/a" ] && fail "usage errors create nothing" || pass "usage errors create nothing"

# Numbers: one parser, one wording, whichever command reads them; a
# negative seed is refused everywhere (strtoull would wrap it).
number_error() {
	ne_name=$1; ne_cmd=$2; ne_opt=$3; ne_arg=$4; ne_want=$5; shift 5
	expect_exit "$ne_name: exit 2" 2 "$FRONTS" "$ne_cmd" "--$ne_opt" \
	    "$ne_arg" "$@"
	ne_line="fronts $ne_cmd: --$ne_opt: expected a $ne_want, got '$ne_arg'"
	if grep -qxF -- "$ne_line" "$TMPD/err"; then
		pass "$ne_name: one wording"
	else fail "$ne_name: one wording" "no line '$ne_line' in: $(head -c 300 "$TMPD/err")"; fi
}
number_error "plan --seed -1" plan seed -1 "whole number from 0 to 18446744073709551615"
number_error "synth --seed -1" synth seed -1 "whole number from 0 to 18446744073709551615"
number_error "run --seed -5" run seed -5 "whole number from 0 to 18446744073709551615"
number_error "plan --workers 0" plan workers 0 "whole number from 1 to 256"
number_error "run --workers 0" run workers 0 "whole number from 1 to 256"
number_error "plan --iterations +5" plan iterations +5 "whole number from 1 to 1099511627776"
number_error "synth --rounds 51" synth rounds 51 "whole number from 1 to 50"
number_error "publish --timeout-ms 0" publish timeout-ms 0 "whole number of milliseconds from 1 to 3600000" x.json
number_error "validate --window 1" validate window 1 "number above 0 and below 1"
number_error "plan --seconds abc" plan seconds abc "number of seconds above 0 and below 1000000"
number_error "synth --time-limit 0" synth time-limit 0 "number of seconds above 0 and at most 1000000"
number_error "validate --memory-mb 12" validate memory-mb 12 "whole number from 64 to 1048576"

# init
expect_exit "init creates a project" 0 "$FRONTS" init "$TMPD/p"
same=yes
for f in fronts.json rules.md history.jsonl drafts.jsonl model.py media/harbour.png; do
	cmp -s "$TOP/fixtures/demo/$f" "$TMPD/p/$f" || same="no ($f)"
done
[ "$same" = yes ] && pass "init writes the bundled demo byte for byte, its image too" ||
	fail "init writes the bundled demo byte for byte, its image too" "$same"
ls -A "$TMPD/p" "$TMPD/p/media" | grep -q '^\.' && fail "init leaves no temporary files" ||
	pass "init leaves no temporary files"

echo '{"marker": true}' >"$TMPD/p/fronts.json"
expect_exit "init refuses an existing project" 1 "$FRONTS" init "$TMPD/p"
expect_grep "init says it refuses to overwrite" 'fronts.json already exists; refusing to overwrite' "$TMPD/err"
expect_grep "init left the existing file alone" 'marker' "$TMPD/p/fronts.json"

mkdir -p "$TMPD/q"
echo "# our rules" >"$TMPD/q/rules.md"
expect_exit "init refuses a directory with one project file" 1 "$FRONTS" init "$TMPD/q"
[ -e "$TMPD/q/fronts.json" ] && fail "a refused init writes nothing" ||
	pass "a refused init writes nothing"

mkdir -p "$TMPD/empty"
expect_exit "init into an existing empty directory" 0 "$FRONTS" init "$TMPD/empty"

# The demo is embedded: an installed binary far from the source tree works.
mkdir -p "$TMPD/inst/bin" "$TMPD/elsewhere"
cp "$FRONTS" "$TMPD/inst/bin/fronts"
(cd "$TMPD/elsewhere" && "$TMPD/inst/bin/fronts" init proj >/dev/null 2>&1)
cmp -s "$TOP/fixtures/demo/history.jsonl" "$TMPD/elsewhere/proj/history.jsonl" &&
	pass "init works from a copied binary" || fail "init works from a copied binary"

# drafts, human
expect_exit "drafts on the demo exits 0" 0 "$FRONTS" -C "$TMPD/p/../empty" drafts
expect_grep "drafts shows weighted length on x" '^    x +149 / 280 weighted +ok' "$TMPD/out"
expect_grep "drafts flags an over-limit draft" '^    x +314 / 280 weighted +OVER by 34' "$TMPD/out"
expect_grep "drafts counts graphemes on mastodon" '^    mastodon +408 / 500 graphemes +ok' "$TMPD/out"
expect_grep "drafts counts graphemes on bluesky" '^    bluesky +335 / 300 graphemes +OVER by 35' "$TMPD/out"
expect_grep "drafts shows the variant a front gets" '^      \(variant "bluesky"\)' "$TMPD/out"
expect_grep "drafts counts every part of a thread" '^      part 3 +206 / 300 graphemes +ok' "$TMPD/out"
expect_grep "drafts shows an image with its verdict" '^        image media/harbour.png \(PNG 96×64, 839 bytes\), alt "A small boat.*": ok' "$TMPD/out"
expect_grep "drafts shows a window" '^    window +not_after 2026-12-03T19:00:00\+01:00' "$TMPD/out"
expect_grep "drafts honours a max_length override" '^    linkedin +1275 / 1300 chars +ok' "$TMPD/out"
expect_grep "drafts notes hashtag caps" '4 hashtags > 2' "$TMPD/out"
expect_grep "drafts sums up" '^24 drafts; 6 illegal on some front, 0 on every' "$TMPD/out"
expect_exit "drafts takes -C after the command" 0 "$FRONTS" drafts -C "$TMPD/empty"

# drafts, JSON
expect_exit "drafts --json exits 0" 0 "$FRONTS" -C "$TMPD/empty" drafts --json
if $PY - "$TMPD/out" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert list(doc) == ["drafts"]
d = {x["id"]: x for x in doc["drafts"]}
assert len(d) == 24
f = {e["front"]: e for e in d["d1"]["fronts"]}
assert {k: f["x"][k] for k in ("front", "length", "limit", "unit", "ok", "links",
        "hashtags", "caps_ok", "verdict", "variant")} == {
        "front": "x", "length": 149, "limit": 280, "unit": "weighted", "ok": True,
        "links": 1, "hashtags": 1, "caps_ok": True, "verdict": "ok", "variant": "x"}, f["x"]
# X gets d1's variant without the image (fronts sends none through Composio)
assert f["x"]["parts"][0]["images"] == [], f["x"]
assert [e["front"] for e in d["d2"]["fronts"]] == ["linkedin", "mastodon"]
m = {e["front"]: e for e in d["d2"]["fronts"]}
assert m["mastodon"]["ok"] is False and m["linkedin"]["ok"] is True
assert m["mastodon"]["unit"] == "graphemes" and m["linkedin"]["unit"] == "chars"
assert [e["front"] for e in d["d24"]["fronts"]] == ["linkedin"]
for x in doc["drafts"]:
    for e in x["fronts"]:
        assert set(e) == {"front", "length", "limit", "unit", "ok", "links",
                          "hashtags", "caps_ok", "verdict", "why", "variant",
                          "parts"}, set(e)
        assert e["ok"] == (e["length"] <= e["limit"]), e
        assert e["ok"] == e["parts"][0]["ok"], e
        assert e["verdict"] == "ok" or not all(
            p["ok"] and p["caps_ok"] for p in e["parts"]) or e["why"], e
b = {e["front"]: e for e in d["d18"]["fronts"]}["bluesky"]
assert b["variant"] == "bluesky" and len(b["parts"]) == 3, b
assert b["verdict"] == "ok" and d["d18"]["parts"] == 1, b
i = {e["front"]: e for e in d["d1"]["fronts"]}["mastodon"]["parts"][0]["images"]
assert i == [{"path": "media/harbour.png", "alt": i[0]["alt"], "bytes": 839,
              "width": 96, "height": 64, "verdict": "ok"}], i
assert i[0]["alt"].startswith("A small boat"), i
assert d["d10"]["window"] == {"not_after": "2026-12-03T19:00:00+01:00"}, d["d10"]
EOF
then pass "drafts --json matches the contract"; else fail "drafts --json matches the contract"; fi

# exit 3 when a draft fits none of its fronts
new_demo "$TMPD/over"
long=$($PY -c 'print("a" * 400)')
echo "{\"id\":\"dx\",\"text\":\"$long\",\"fronts\":[\"x\",\"bluesky\"]}" >>"$TMPD/over/drafts.jsonl"
expect_exit "a draft over every front exits 3" 3 "$FRONTS" -C "$TMPD/over" drafts
expect_grep "the refusal names the draft" 'dx' "$TMPD/err"
expect_exit "the same with --json exits 3" 3 "$FRONTS" -C "$TMPD/over" drafts --json
$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMPD/out" &&
	pass "--json still prints the report" || fail "--json still prints the report"

# loader messages name file, line and field
expect_exit "drafts on a missing project exits 1" 1 "$FRONTS" -C "$TMPD/nowhere" drafts
expect_grep "missing project names fronts.json" 'nowhere/fronts.json' "$TMPD/err"

new_demo "$TMPD/bad"
$PY - "$TMPD/bad/history.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
r = json.loads(lines[4]); r["metrics"]["likes"] = -3; lines[4] = json.dumps(r)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF
expect_exit "negative metric exits 1" 1 "$FRONTS" -C "$TMPD/bad" drafts
expect_grep "negative metric names file:line:field" 'history\.jsonl:5: field "metrics\.likes": expected a non-negative number, got -3' "$TMPD/err"

new_demo "$TMPD/bad2"
echo '{"id":"d99","text":"hello","fronts":["x","tiktok"]}' >>"$TMPD/bad2/drafts.jsonl"
expect_exit "unknown front in a draft exits 1" 1 "$FRONTS" -C "$TMPD/bad2" drafts
expect_grep "unknown front names file:line:field" 'drafts\.jsonl:25: field "fronts\[1\]": expected the id of a front' "$TMPD/err"

new_demo "$TMPD/bad3"
sed 's/"quiet_hours": \[23, 7\]/"quiet_hours": [23, 24]/' "$TMPD/bad3/fronts.json" >"$TMPD/f" &&
	mv "$TMPD/f" "$TMPD/bad3/fronts.json"
expect_exit "quiet hours out of range exits 1" 1 "$FRONTS" -C "$TMPD/bad3" drafts
expect_grep "quiet hours names file and field" 'fronts\.json: field "fronts\[0\]\.limits\.quiet_hours": expected \[start, end\]' "$TMPD/err"

new_demo "$TMPD/bad4"
echo '{"id":"d1","text":"again"}' >>"$TMPD/bad4/drafts.jsonl"
expect_exit "duplicate draft id exits 1" 1 "$FRONTS" -C "$TMPD/bad4" drafts
expect_grep "duplicate id names both lines" 'drafts\.jsonl:25: field "id": duplicate id "d1" \(first on line 1\)' "$TMPD/err"

new_demo "$TMPD/warn"
echo '{"id":"d99","text":"hello","poll":["a", "b"]}' >>"$TMPD/warn/drafts.jsonl"
expect_exit "an unknown field still loads" 0 "$FRONTS" -C "$TMPD/warn" drafts
expect_grep "an unknown field is a warning" 'warning: .*drafts\.jsonl:25: field "poll": unknown field' "$TMPD/err"

# The bundled model proposes nothing the rules refuse (over-long drafts,
# link or hashtag caps): a short plan on the demo counts no illegal proposal.
new_demo "$TMPD/plan"
"$FRONTS" -C "$TMPD/plan" approve --yes >/dev/null 2>&1
expect_exit "a short plan on the demo exits 0" 0 "$FRONTS" -C "$TMPD/plan" plan --iterations 300 --seed 1 --json
if $PY - "$TMPD/out" <<'EOF2'
import json, sys
st = json.load(open(sys.argv[1]))["stats"]
assert st["illegal_proposals"] == 0, st
assert st["model_calls"] > 0, st
EOF2
then pass "the demo model proposes nothing illegal"; else fail "the demo model proposes nothing illegal" "$(head -c 400 "$TMPD/out")"; fi

# Bluesky's second limit: 150 family emoji are 150 graphemes but 3750 bytes.
new_demo "$TMPD/bytes"
$PY -c 'import json; print(json.dumps({"id": "dfam", "text": "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466" * 150, "fronts": ["bluesky"]}))' >>"$TMPD/bytes/drafts.jsonl"
expect_exit "a draft over Bluesky's byte limit exits 3" 3 "$FRONTS" -C "$TMPD/bytes" drafts
expect_grep "the byte limit is named" '^    bluesky +150 / 300 graphemes +OVER: 3750 / 3000 bytes' "$TMPD/out"
