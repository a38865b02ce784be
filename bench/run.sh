#!/bin/sh
# Runs every benchmark binary given as arguments (from the repository root,
# so they find fixtures/), printing each one's figures under its name.
status=0
for b in "$@"; do
	echo "== $(basename "$b")"
	"$b" || status=1
done
exit $status
