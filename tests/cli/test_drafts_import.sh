#!/bin/sh
# fronts drafts import: drafts from a spreadsheet into drafts.jsonl,
# quoted newlines and all; ids already there reported and left out; a bad
# row refuses the whole file by its line and column, writing nothing;
# --dry-run writes nothing; and the project loads with what was added.
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3
P=$TMPD/p
new_demo "$P"
cp "$P/drafts.jsonl" "$TMPD/drafts.before"

printf '%s\r\n' 'ID,Post,Tags,Where,Not before,Not after' \
    'n1,"Launch day, part two:' 'the ""sync"" demo, live",launch; events,x;bluesky,2026-12-01T10:00:00+01:00,2026-12-03T18:00:00+01:00' \
    'd3,"an id the demo has",,,,' \
    ',"no id: one is made from the text",,mastodon,,' \
    ',,,,,' >"$TMPD/sheet.csv"
MAP='text=Post,id=ID,topics=Tags,fronts=Where,not_before=Not before,not_after=Not after'

expect_exit "dry run exits 0" 0 "$FRONTS" -C "$P" drafts import "$TMPD/sheet.csv" --map "$MAP" --dry-run
expect_grep "dry run says what it would add" '^dry run, nothing written: 2 drafts from .*sheet.csv added to drafts.jsonl; 1 already there, 1 rows without text' "$TMPD/out"
if cmp -s "$TMPD/drafts.before" "$P/drafts.jsonl"
then pass "dry run writes nothing"; else fail "dry run writes nothing"; fi

expect_exit "import exits 0" 0 "$FRONTS" -C "$P" drafts import "$TMPD/sheet.csv" --map "$MAP"
expect_grep "import reports what it added" '^2 drafts from .*sheet.csv added to drafts.jsonl; 1 already there, 1 rows without text' "$TMPD/out"
expect_grep "an id already there is named with its line" '^  kept out: line 4: id "d3" already in drafts.jsonl' "$TMPD/out"
expect_grep "a row without text is named with its line" '^  skipped: line 6: no text' "$TMPD/out"
if $PY - "$P/drafts.jsonl" "$TMPD/drafts.before" <<'PYEOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
before = open(sys.argv[2]).read().splitlines()
assert lines[:len(before)] == before, "the old lines are kept as they were"
new = [json.loads(l) for l in lines[len(before):]]
assert len(new) == 2, new
assert new[0] == {"id": "n1", "text": "Launch day, part two:\nthe \"sync\" demo, live",
                  "topics": ["launch", "events"], "fronts": ["x", "bluesky"],
                  "not_before": "2026-12-01T10:00:00+01:00",
                  "not_after": "2026-12-03T18:00:00+01:00"}, new[0]
assert new[1]["id"].startswith("csv-") and new[1]["fronts"] == ["mastodon"], new[1]
PYEOF
then pass "the new lines carry every mapped column, the quoted newline included"
else fail "the new lines carry every mapped column, the quoted newline included"; fi

expect_exit "the project loads with them" 0 "$FRONTS" -C "$P" drafts --json
expect_grep "drafts shows the imported draft's window" '"id":"n1".*"window":\{"not_before":"2026-12-01T10:00:00\+01:00","not_after":"2026-12-03T18:00:00\+01:00"\}' "$TMPD/out"

cp "$P/drafts.jsonl" "$TMPD/drafts.after"
expect_exit "importing the same sheet again exits 0" 0 "$FRONTS" -C "$P" drafts import "$TMPD/sheet.csv" --map "$MAP"
expect_grep "and adds nothing: every id is there" '^0 drafts .* added to drafts.jsonl; 3 already there' "$TMPD/out"
if cmp -s "$TMPD/drafts.after" "$P/drafts.jsonl"; then pass "a second import leaves drafts.jsonl as it was"
else fail "a second import leaves drafts.jsonl as it was"; fi

# Refusals: by line and column, and nothing written.
printf 'Post,Where\nfine,x\n"spans\ntwo lines",myspace\n' >"$TMPD/bad.csv"
expect_exit "an unknown front exits 1" 1 "$FRONTS" -C "$P" drafts import "$TMPD/bad.csv" --map text=Post,fronts=Where
expect_grep "it names the line the record began on and the column" 'bad.csv: line 3: column "Where" \(fronts\): "myspace" is not a front in fronts.json' "$TMPD/err"
printf 'Post\n"never closed\n' >"$TMPD/open.csv"
expect_exit "a truncated file exits 1" 1 "$FRONTS" -C "$P" drafts import "$TMPD/open.csv" --map text=Post
expect_grep "it says the quote is open" 'the file ends inside a quoted field opened in the record of line 2' "$TMPD/err"
expect_exit "a missing column exits 1" 1 "$FRONTS" -C "$P" drafts import "$TMPD/open.csv" --map text=Body
expect_grep "it names the column" 'line 1: no column "Body"' "$TMPD/err"
if cmp -s "$TMPD/drafts.after" "$P/drafts.jsonl"; then pass "a refused file writes nothing"
else fail "a refused file writes nothing"; fi

expect_exit "--map without text is a usage error" 2 "$FRONTS" -C "$P" drafts import "$TMPD/sheet.csv" --map id=ID
expect_exit "no --map is a usage error" 2 "$FRONTS" -C "$P" drafts import "$TMPD/sheet.csv"
expect_exit "an unknown --map key is a usage error" 2 "$FRONTS" -C "$P" drafts import "$TMPD/sheet.csv" --map text=Post,time=When
expect_exit "drafts --help shows import" 0 "$FRONTS" drafts --help
expect_grep "the usage names import and its map" 'fronts drafts import FILE.csv --map text=COL\[,id=COL\]' "$TMPD/out"
expect_grep "--help documents the draft format" '^  thread +the posts after the first' "$TMPD/out"
expect_grep "--help documents variants" '^  variants +\{"FRONT-ID or PLATFORM"' "$TMPD/out"
