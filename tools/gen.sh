#!/bin/sh
# gen — the generated tables of src/core/gen/, each from its generator:
#
#   text_tlds.c       tools/gen_tlds.py from tests/data/twitter-text/tlds.json
#   text_tlds_bsky.c  tools/reference/gen_bsky_tlds.js (npm package tlds)
#   text_emoji.c      tools/reference/gen_emoji.js (twemoji-parser's regex)
#   text_incb.c       tools/reference/gen_incb.js (node's Intl.Segmenter)
#
# usage: sh tools/gen.sh write        regenerate them in place
#        sh tools/gen.sh check DIR    regenerate into DIR and compare
#
# The node generators read the packages pinned in tools/reference's
# package-lock.json (installed with `npm ci` when missing). text_incb.c is
# read off the ICU that node carries: it is compared only when that ICU is
# the one the checked-in table names, and the check says so otherwise.
set -eu
cd "$(dirname "$0")/.."
mode=${1:?usage: sh tools/gen.sh write|check DIR}
gen=src/core/gen
out=$gen
[ "$mode" = check ] && out=${2:?usage: sh tools/gen.sh check DIR}
mkdir -p "$out"

python3 tools/gen_tlds.py tests/data/twitter-text/tlds.json >"$out/text_tlds.c.tmp"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "gen: node and npm are needed for the tables from tools/reference" >&2
	exit 2
fi
if [ ! -d tools/reference/node_modules ]; then
	(cd tools/reference && npm ci --no-audit --no-fund --loglevel=error)
fi
node tools/reference/gen_bsky_tlds.js >"$out/text_tlds_bsky.c.tmp"
# (the node generators print their table sizes on stderr)
node tools/reference/gen_emoji.js >"$out/text_emoji.c.tmp" 2>/dev/null
node tools/reference/gen_incb.js >"$out/text_incb.c.tmp" 2>/dev/null
for t in text_tlds text_tlds_bsky text_emoji text_incb; do
	mv "$out/$t.c.tmp" "$out/$t.c"
done
[ "$mode" = write ] && exit 0

bad=0
icu=$(node -p 'process.versions.icu')
for t in text_tlds text_tlds_bsky text_emoji text_incb; do
	if [ "$t" = text_incb ] && ! grep -q "(ICU $icu," "$gen/$t.c"; then
		echo "gen: $t.c not compared: this node has ICU $icu," \
		    "the table names $(sed -n 's/.*(\(ICU [^,]*\),.*/\1/p' "$gen/$t.c")"
		continue
	fi
	if cmp -s "$out/$t.c" "$gen/$t.c"; then
		echo "gen: $t.c matches its generator"
	else
		echo "gen: $gen/$t.c differs from what its generator writes" \
		    "(make gen, then review the diff)" >&2
		bad=1
	fi
done
exit $bad
