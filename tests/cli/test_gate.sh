#!/bin/sh
# Integration tests for `fronts gate` and `fronts approve`: exit codes,
# human and JSON output, approval storage, the terminal prompt, and that
# the embedded interpreter needs nothing from the environment.
. "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3

cat >"$TMPD/good.py" <<'PY'
def initial_state(ctx):
    return 0

def legal_actions(state):
    return [("wait",)]

def apply(state, action, rng):
    return state + 1, sqrt(rng.random())

def is_terminal(state):
    return state >= 3
PY
cat >"$TMPD/bad.py" <<'PY'
import os
x = ().__class__.__bases__[0]
PY

expect_exit "gate accepts a plain model" 0 "$FRONTS" gate "$TMPD/good.py"
expect_grep "gate says accepted with the sha" \
    "good.py: accepted \(sha256 [0-9a-f]{64}, 0 verdicts\)" "$TMPD/out"
expect_exit "gate refuses with exit 3" 3 "$FRONTS" gate "$TMPD/bad.py"
expect_grep "verdict line names file, line, col, rule" \
    "^$TMPD/bad.py:1:0: import: " "$TMPD/out"
expect_grep "attribute verdict points at the attribute" \
    "^$TMPD/bad.py:2:7: private-attribute: " "$TMPD/out"
expect_exit "gate on a missing file exits 1" 1 "$FRONTS" gate "$TMPD/none.py"
expect_grep "missing file is named" "none.py" "$TMPD/err"
expect_exit "gate without a file is a usage error" 2 "$FRONTS" gate

expect_exit "gate --json refused" 3 "$FRONTS" gate --json "$TMPD/bad.py"
sha=$(sha256sum "$TMPD/bad.py" | cut -d' ' -f1)
if $PY - "$TMPD/out" "$sha" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert list(o) == ["accepted", "sha256", "verdicts"], list(o)
assert o["accepted"] is False and o["sha256"] == sys.argv[2]
v = o["verdicts"]
assert [x["rule"] for x in v] == ["import", "private-attribute",
                                  "private-attribute"], v
assert all(list(x) == ["line", "col", "rule", "message"] for x in v)
assert (v[0]["line"], v[0]["col"]) == (1, 0)
PY
then pass "gate --json is docs/DESIGN.md's object"; else fail "gate --json is docs/DESIGN.md's object"; fi
expect_exit "gate --json accepted" 0 "$FRONTS" gate "$TMPD/good.py" --json
expect_grep "accepted json" '^\{"accepted":true,"sha256":"[0-9a-f]{64}","verdicts":\[\]\}$' "$TMPD/out"

# The embedded interpreter ignores PYTHON* and needs no PATH.
PYTHONPATH=/nonexistent PYTHONHOME=/nonexistent PYTHONSTARTUP=/nonexistent \
    expect_exit "gate ignores PYTHON* variables" 3 "$FRONTS" gate "$TMPD/bad.py"
# (Sanitizer options pass through for `make asan`.)
expect_exit "gate runs from an empty environment" 0 env -i \
    ${LSAN_OPTIONS:+LSAN_OPTIONS=$LSAN_OPTIONS} "$FRONTS" gate "$TMPD/good.py"
# Nothing Python runs on the host side comes from the current directory.
mkdir -p "$TMPD/cwd"
printf 'raise SystemExit(42)\n' >"$TMPD/cwd/ast.py"
cp "$TMPD/cwd/ast.py" "$TMPD/cwd/gate.py"
(cd "$TMPD/cwd" && expect_exit "gate ignores ast.py/gate.py in the cwd" 0 \
    "$FRONTS" gate "$TMPD/good.py")

# Approval.
P="$TMPD/proj"
mkdir -p "$P"
cp "$TMPD/good.py" "$P/model.py"
expect_exit "approve off a terminal needs --yes" 2 "$FRONTS" approve -C "$P"
expect_grep "approve says to pass --yes" "--yes" "$TMPD/err"
[ ! -e "$P/.fronts/approved" ] && pass "nothing approved without --yes" || fail "nothing approved without --yes"
expect_exit "approve --yes" 0 "$FRONTS" approve -C "$P" --yes
expect_grep "approve shows the sha" "sha256: +$(sha256sum "$P/model.py" | cut -d' ' -f1)" "$TMPD/out"
expect_grep "approve lists the functions" "functions: initial_state, legal_actions, apply, is_terminal" "$TMPD/out"
expect_grep "approve counts lines" "lines: +11" "$TMPD/out"
expect_grep "approvals file holds the sha" "^$(sha256sum "$P/model.py" | cut -d' ' -f1)$" "$P/.fronts/approved"
expect_exit "approve again is idempotent" 0 "$FRONTS" approve -C "$P" --yes
expect_grep "already approved" "already approved" "$TMPD/out"
[ "$(wc -l <"$P/.fronts/approved")" -eq 1 ] && pass "one line per sha" || fail "one line per sha"
expect_exit "global -C works too" 0 "$FRONTS" -C "$P" approve --yes
expect_exit "approve refuses a gated-out model" 3 "$FRONTS" approve -C "$P" --model "$TMPD/bad.py" --yes
expect_grep "refusal verdicts shown" "bad.py:1:0: import" "$TMPD/out"
[ "$(wc -l <"$P/.fronts/approved")" -eq 1 ] && pass "refused model not recorded" || fail "refused model not recorded"
expect_exit "approve a missing model exits 1" 1 "$FRONTS" approve -C "$P" --model "$TMPD/none.py"

# On a terminal: only `y` approves.
cp "$TMPD/good.py" "$P/model.py"
printf '\n# v2\n' >>"$P/model.py"
printf 'n\n' | PAGER=cat script -qec "'$FRONTS' approve -C '$P'" /dev/null >"$TMPD/tty" 2>&1
expect_grep "terminal shows the numbered source" "^ +1  def initial_state" "$TMPD/tty"
expect_grep "terminal asks" "Approve this model" "$TMPD/tty"
expect_no_grep "n does not approve" "^$(sha256sum "$P/model.py" | cut -d' ' -f1)$" "$P/.fronts/approved"
printf 'y\n' | PAGER=cat script -qec "'$FRONTS' approve -C '$P'" /dev/null >"$TMPD/tty" 2>&1
expect_grep "y approves" "^$(sha256sum "$P/model.py" | cut -d' ' -f1)$" "$P/.fronts/approved"
[ "$(wc -l <"$P/.fronts/approved")" -eq 2 ] && pass "second sha appended" || fail "second sha appended"

# Python's own warnings never reach the terminal (the TUI owns it).
printf 'x = 1if 1 else 2\ny = "\\d"\nz = 1 is 1\n' >"$TMPD/warn.py"
"$FRONTS" gate "$TMPD/warn.py" >"$TMPD/out" 2>"$TMPD/err"
[ ! -s "$TMPD/err" ] && pass "no Python warnings on stderr" || fail "no Python warnings on stderr" "$(head -c 300 "$TMPD/err")"

# Sources that draw a verdict every few bytes: one line at the 1 MiB
# limit and the 80,000 lines of `a._` of issue 20. The gate's columns and
# its text stay linear (the old code re-encoded the line for each verdict
# and re-copied the text for each: over five minutes on either file), and
# what is reported is the first GATE_VERDICTS_MAX verdicts, then how many
# more.
$PY -c 'import sys; sys.stdout.write("a._;" * (262144 - 1) + "\n")' >"$TMPD/line.py"
$PY -c 'import sys; sys.stdout.write("a._\n" * 80000)' >"$TMPD/lines.py"
expect_exit "gate refuses a 1 MiB line of verdicts" 3 "$FRONTS" gate "$TMPD/line.py"
[ "$(grep -c ': private-attribute: ' "$TMPD/out")" -eq 100 ] &&
    pass "the first 100 verdicts of the line are printed" ||
    fail "the first 100 verdicts of the line are printed" "$(grep -c : "$TMPD/out") lines"
expect_grep "the last column is the 100th attribute's" "^$TMPD/line.py:1:398: private-attribute: " "$TMPD/out"
expect_grep "then how many more" "^$TMPD/line.py: and 262043 more verdicts$" "$TMPD/out"
expect_grep "the summary counts them all" "line.py: refused \(sha256 [0-9a-f]{64}, 262143 verdicts\)" "$TMPD/out"
expect_exit "gate --json refuses 80,000 verdict lines" 3 "$FRONTS" gate --json "$TMPD/lines.py"
if $PY - "$TMPD/out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["accepted"] is False and len(o["sha256"]) == 64
assert len(o["verdicts"]) == 100 and o["more"] == 79900
assert o["verdicts"][-1] == {"line": 100, "col": 2, "rule": "private-attribute",
                             "message": o["verdicts"][0]["message"]}
PY
then pass "--json: the first 100 verdicts and \"more\""; else fail "--json: the first 100 verdicts and \"more\""; fi
expect_exit "approve shows 80,000 verdict lines and refuses" 3 "$FRONTS" approve -C "$P" --model "$TMPD/lines.py" --yes
[ "$(grep -c '^       ^-- gate: ' "$TMPD/out")" -eq 100 ] &&
    pass "approve marks the first 100 verdicts" || fail "approve marks the first 100 verdicts"
expect_no_grep "approve marks nothing past line 100" "gate: line 101 " "$TMPD/out"
expect_grep "approve counts every verdict" "^gate: +refused \(80000 verdicts\)" "$TMPD/out"
expect_grep "approve says how many more" "lines.py: and 79900 more verdicts$" "$TMPD/out"
