#!/bin/sh
# bench_isolation — the same timed plan on the demo in process isolation
# (the sandboxed workers) and in thread isolation (in this process, under
# the guard): iterations and model calls per second, and their ratio.
# One worker each, so both search on one core. BENCH_PLAN_SECONDS (10).
TOP=$(cd "$(dirname "$0")/.." && pwd)
FRONTS=${FRONTS_BIN:-$TOP/build/fronts}
S=${BENCH_PLAN_SECONDS:-10}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$TOP/fixtures/demo" "$T/demo"
rm -rf "$T/demo/.fronts"
"$FRONTS" -C "$T/demo" approve --yes >/dev/null || exit 1
for iso in process thread; do
	"$FRONTS" -C "$T/demo" plan --seconds "$S" --workers 1 --isolation "$iso" \
	    --json >"$T/$iso.json" || exit 1
done
/usr/bin/python3 - "$T/process.json" "$T/thread.json" "$S" <<'PY'
import json, sys
p, t = (json.load(open(f))["stats"] for f in sys.argv[1:3])
def rate(s, k):
    return s[k] / s["seconds"]
for name, s in (("process", p), ("thread", t)):
    print("plan %ss %-7s %8d iterations %10d model calls  %7.0f it/s  %9.0f calls/s"
          % (sys.argv[3], name, s["iterations"], s["model_calls"],
             rate(s, "iterations"), rate(s, "model_calls")))
print("plan process/thread: iterations per second %.3f, calls per second %.3f"
      % (rate(p, "iterations") / rate(t, "iterations"),
         rate(p, "model_calls") / rate(t, "model_calls")))
PY
