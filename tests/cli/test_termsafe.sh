#!/bin/sh
# Untrusted text never reaches the terminal raw: a model whose source hides
# escape sequences in comments ("Trojan Source") is refused by the gate,
# rule control-char, one verdict per line; `fronts approve` shows the exact
# bytes with the controls visible (and through $PAGER on a terminal); and
# exception messages a model builds at run time out of chr(27) come out of
# `fronts plan` and `fronts validate` escaped, in both isolation modes.
. "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
ESC=$(printf '\033')

# no_raw NAME FILE... — none of the files holds an ESC, BEL or C1 byte.
no_raw() {
	name=$1; shift
	if LC_ALL=C grep -q "$(printf '[\033\007\233]')" "$@"; then
		fail "$name" "a raw control byte in $*: $(od -c "$@" | grep -m 3 '033\|007')"
	else pass "$name"; fi
}

# --- the Trojan Source model ----------------------------------------------
P=$TMPD/proj
new_demo "$P"
{
	printf 'def initial_state(ctx):\n'
	printf '    return 0  # %s[2K%s[1G    return 1\n' "$ESC" "$ESC"
	printf 'x = 1\n'
	printf 'y = 2  # %s[2K%s[1Gy = 3\n' "$ESC" "$ESC"
	printf 's = "\342\200\256abc"\n'
} >"$TMPD/trojan.py"
expect_exit "trojan: the gate refuses it" 3 "$FRONTS" gate "$TMPD/trojan.py"
expect_grep "trojan: line 2 at its first ESC" "trojan.py:2:16: control-char: U\+001B ESCAPE \(and 1 more on this line\)" "$TMPD/out"
expect_grep "trojan: line 4 too" "trojan.py:4:9: control-char: " "$TMPD/out"
expect_grep "trojan: the bidi override on line 5" "trojan.py:5:5: control-char: U\+202E RIGHT-TO-LEFT OVERRIDE" "$TMPD/out"
[ "$(grep -c control-char "$TMPD/out")" -eq 3 ] && pass "trojan: one verdict per line" \
    || fail "trojan: one verdict per line" "$(cat "$TMPD/out")"
no_raw "trojan: gate output holds no raw ESC" "$TMPD/out" "$TMPD/err"
expect_exit "trojan: gate --json refuses" 3 "$FRONTS" gate --json "$TMPD/trojan.py"
if $PY -c 'import json,sys; o=json.load(open(sys.argv[1])); assert [v["rule"] for v in o["verdicts"]] == ["control-char"]*3' "$TMPD/out"
then pass "trojan: gate --json is JSON with the verdicts"; else fail "trojan: gate --json is JSON with the verdicts" "$(cat "$TMPD/out")"; fi
no_raw "trojan: gate --json holds no raw ESC" "$TMPD/out"

expect_exit "trojan: approve --yes refuses it" 3 "$FRONTS" approve -C "$P" --model "$TMPD/trojan.py" --yes
expect_grep "trojan: approve shows the line with ESC visible" '^    2      return 0  # \\x1b\[2K\\x1b\[1G    return 1$' "$TMPD/out"
expect_grep "trojan: approve puts the verdict under the line" '^       \^-- gate: line 2 col 16: control-char: ' "$TMPD/out"
expect_grep "trojan: approve shows the bidi override" '^    5  s = "<U\+202E>abc"$' "$TMPD/out"
no_raw "trojan: approve emits no raw ESC" "$TMPD/out" "$TMPD/err"
"$FRONTS" approve -C "$P" --model "$TMPD/trojan.py" 2>&1 | cat >"$TMPD/piped"
no_raw "trojan: approve piped emits no raw ESC" "$TMPD/piped"
expect_grep "trojan: approve piped shows the source" '\\x1b\[2K' "$TMPD/piped"
[ ! -e "$P/.fronts/approved" ] && pass "trojan: nothing approved" || fail "trojan: nothing approved"

# --- approve on a terminal: the pager, then the question -------------------
cp "$TOP/fixtures/demo/model.py" "$P/model.py"
printf '# a comment with \303\251 and \360\237\221\213 kept as they are\n' >>"$P/model.py"
SHA=$(sha256sum "$P/model.py" | cut -d' ' -f1)
printf 'n\n' | PAGER="cat >$TMPD/paged" script -qec "'$FRONTS' approve -C '$P'" /dev/null >"$TMPD/tty" 2>&1
expect_grep "pager: gets the numbered source" '^    1  # World model' "$TMPD/paged"
expect_grep "pager: multibyte text is kept" "$(printf '\303\251 and \360\237\221\213 kept')" "$TMPD/paged"
expect_grep "pager: gets the summary" "^sha256: +$SHA" "$TMPD/paged"
expect_grep "pager: the question comes after it" "Approve this model" "$TMPD/tty"
expect_no_grep "pager: the source is not printed again" '^ +1  # World model' "$TMPD/tty"
expect_no_grep "pager: n approves nothing" "$SHA" "$P/.fronts/approved"
printf 'y\n' | PAGER=/nonexistent/pager script -qec "'$FRONTS' approve -C '$P'" /dev/null >"$TMPD/tty" 2>&1
expect_grep "no pager: the source is printed instead" '^ +1  # World model' "$TMPD/tty"
expect_grep "no pager: y still approves" "^$SHA$" "$P/.fronts/approved"

# --- exception messages built at run time -----------------------------------
# The gate cannot see these: the escape is chr(27), made when apply runs.
M=$TMPD/raising
new_demo "$M"
sed 's/^def apply(state, action, rng):$/def apply(state, action, rng):\n    raise ValueError(chr(27) + "]52;c;cHduZWQ=" + chr(7) + chr(27) + "[2J" + chr(0x9b) + "31m")/' \
    "$TOP/fixtures/demo/model.py" >"$M/model.py"
grep -q 'raise ValueError(chr(27)' "$M/model.py" && pass "raising model prepared" || fail "raising model prepared"
expect_exit "raising: the gate accepts it" 0 "$FRONTS" gate "$M/model.py"
"$FRONTS" approve -C "$M" --yes >/dev/null 2>&1
for iso in process thread; do
	expect_exit "raising $iso: plan refuses it (failed checks)" 3 "$FRONTS" plan -C "$M" --iterations 20 --isolation "$iso"
	expect_grep "raising $iso: the refusal shows the message escaped" '\\x1b\]52;c;cHduZWQ=\\x07\\x1b\[2J<U\+009B>31m' "$TMPD/err"
	no_raw "raising $iso: the refusal emits no raw control" "$TMPD/out" "$TMPD/err"
	expect_exit "raising $iso: plan fails" 4 "$FRONTS" plan --force -C "$M" --iterations 20 --isolation "$iso"
	expect_grep "raising $iso: plan shows the message escaped" '\\x1b\]52;c;cHduZWQ=\\x07\\x1b\[2J<U\+009B>31m' "$TMPD/err"
	no_raw "raising $iso: plan emits no raw control" "$TMPD/out" "$TMPD/err"
	"$FRONTS" plan --force -C "$M" --iterations 20 --isolation "$iso" --json >"$TMPD/out" 2>"$TMPD/err"
	no_raw "raising $iso: plan --json emits no raw control" "$TMPD/out" "$TMPD/err"
done
for iso in process thread; do
	"$FRONTS" validate -C "$M" --isolation "$iso" >"$TMPD/out" 2>"$TMPD/err"
	if grep -q 'x1b\]52;c;cHduZWQ=' "$TMPD/out" "$TMPD/err"; then
		pass "raising validate $iso: the message is shown escaped"
	else fail "raising validate $iso: the message is shown escaped" "$(head -c 600 "$TMPD/out" "$TMPD/err")"; fi
	no_raw "raising validate $iso: no raw control" "$TMPD/out" "$TMPD/err"
	"$FRONTS" validate -C "$M" --isolation "$iso" --json >"$TMPD/out" 2>"$TMPD/err"
	no_raw "raising validate $iso --json: no raw control" "$TMPD/out" "$TMPD/err"
	if $PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMPD/out" 2>/dev/null; then
		pass "raising validate $iso --json: still JSON"
	else fail "raising validate $iso --json: still JSON" "$(head -c 300 "$TMPD/out")"; fi
done

# A model raising at top level: the load error is escaped too.
T=$TMPD/toplevel
new_demo "$T"
{ cat "$TOP/fixtures/demo/model.py"; printf 'raise RuntimeError("boom " + chr(27) + "]0;title" + chr(7))\n'; } >"$T/model.py"
"$FRONTS" approve -C "$T" --yes >/dev/null 2>&1
for iso in process thread; do
	"$FRONTS" plan -C "$T" --iterations 20 --isolation "$iso" >"$TMPD/out" 2>"$TMPD/err"
	expect_grep "top level $iso: the message is shown escaped" 'boom \\x1b\]0;title\\x07' "$TMPD/err"
	no_raw "top level $iso: no raw control" "$TMPD/out" "$TMPD/err"
done

# --- the project's own files and a server's words ----------------------------
# A draft holding an OSC sequence and a bidi override; a ledger whose failure
# reason (a server's message) and front hold escape sequences.
Q=$TMPD/pub
$PY "$TOP/tests/cli/publish_fixture.py" both "$Q" 9 5 x:d1:1
$PY - "$Q" <<'PYEOF'
import json, sys
d = sys.argv[1]
t = "Launch \x1b]0;pwned\x07 \u202eday\u202c!"
drafts = [json.loads(l) for l in open(d + "/drafts.jsonl")]
drafts[0]["text"] = t
open(d + "/drafts.jsonl", "w").write("".join(json.dumps(x) + "\n" for x in drafts))
plan = json.load(open(d + "/plan.json"))
plan["plan"][0]["text"] = t
json.dump(plan, open(d + "/plan.json", "w"))
PYEOF
expect_exit "publish dry run of a hostile draft" 0 "$FRONTS" publish -C "$Q" "$Q/plan.json"
expect_grep "publish: the text is shown escaped" '^Launch \\x1b\]0;pwned\\x07 <U\+202E>day<U\+202C>!$' "$TMPD/out"
expect_grep "publish: the request body keeps JSON escapes" '"text":"Launch \\u001b\]0;pwned\\u0007 \\u202eday\\u202c!"' "$TMPD/out"
no_raw "publish: no raw control" "$TMPD/out" "$TMPD/err"
if LC_ALL=C grep -q "$(printf '\342\200\256')" "$TMPD/out"; then
	fail "publish: no raw bidi override"; else pass "publish: no raw bidi override"; fi
expect_exit "drafts lists the hostile draft" 0 "$FRONTS" drafts -C "$Q"
no_raw "drafts: no raw control" "$TMPD/out" "$TMPD/err"

mkdir -p "$Q/.fronts"
SHA0=$(printf x | sha256sum | cut -c1-64)
cat >"$Q/.fronts/ledger.jsonl" <<EOF2
{"record": "intent", "entry": "e0123456789abcdef", "time": "2026-12-01T07:00:00Z", "plan": "p1", "slot": 1, "front": "x\u001b[2J", "draft": "d1", "at": "2026-12-01T07:00:00Z", "text_sha256": "$SHA0", "channel": "composio", "key": "e0123456789abcdef"}
{"record": "failed", "entry": "e0123456789abcdef", "time": "2026-12-01T07:00:01Z", "reason": "HTTP 500: \u001b]0;pwned\u0007 \u202egnp"}
EOF2
expect_exit "ledger lists the entry" 0 "$FRONTS" ledger -C "$Q"
expect_grep "ledger: the front is shown escaped" 'front x\\x1b\[2J  draft d1' "$TMPD/out"
expect_grep "ledger: the server's reason is shown escaped" 'HTTP 500: \\x1b\]0;pwned\\x07 <U\+202E>gnp' "$TMPD/out"
no_raw "ledger: no raw control" "$TMPD/out" "$TMPD/err"
