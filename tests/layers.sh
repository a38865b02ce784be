#!/bin/sh
# layers — fails when a source file includes a header from a layer above
# its own. The layers, lowest first (README, "Architecture"):
#
#   0 core      project files, text, time, legality, search, plan I/O
#   1 sandbox   the interpreter and the worker      } side by side: neither
#   1 net       HTTP, providers, channels           } includes the other
#   2 runs      planner, synthesis and validation runs over sandbox and net
#   3 ui        the curses TUI, a client of the layers below
#   4 cli       the command table, main, one file per command (the TUI's
#               `fronts tui` among them): the top
#
# A file may include headers of its own folder and of lower layers only.
# core is pure besides: no curses, curl or Python headers.
#
# usage: sh tests/layers.sh [ROOT]     (ROOT defaults to the checkout)
#        sh tests/layers.sh --graph [ROOT]   prints the folder include graph
graph=0
if [ "$1" = "--graph" ]; then
	graph=1
	shift
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

rank() {
	case $1 in
	core) echo 0 ;;
	sandbox|net) echo 1 ;;
	runs) echo 2 ;;
	ui) echo 3 ;;
	cli) echo 4 ;;
	*) echo 99 ;;
	esac
}

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in src/*/*.c src/*/*.h src/*/gen/*.c; do
	[ -f "$f" ] || continue
	from=${f#src/}
	from=${from%%/*}
	sed -n "s|^[[:space:]]*#[[:space:]]*include[[:space:]]*\"\([a-z_]*\)/.*|\1|p" "$f" |
	while read -r to; do
		echo "$from $to $f"
	done
done >"$edges"

if [ "$graph" -eq 1 ]; then
	awk '$1 != $2 { n[$1 " -> " $2]++ } END { for (e in n) print e " (" n[e] ")" }' \
	    "$edges" | sort
	exit 0
fi

bad=0
while read -r from to file; do
	[ "$from" = "$to" ] && continue
	rf=$(rank "$from")
	rt=$(rank "$to")
	if [ "$rf" -eq 99 ]; then
		echo "layers: $file: folder src/$from is not a known layer"
		bad=1
	elif [ "$rt" -ge "$rf" ]; then
		echo "layers: $file includes $to/, which is not below $from/"
		bad=1
	fi
done <"$edges"

for f in src/core/*.c src/core/*.h; do
	[ -f "$f" ] || continue
	if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(curses|ncurses|ncursesw/|curl/|Python|readline/)' "$f"; then
		echo "layers: $f includes a curses, curl, readline or Python header; core is pure"
		bad=1
	fi
done

[ "$bad" -eq 0 ] && echo "layers: every include goes down"
exit "$bad"
