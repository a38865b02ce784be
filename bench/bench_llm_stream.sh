#!/bin/sh
# bench_llm_stream — a 16k-token answer, streamed or not, against the
# loopback fake LLM server (tests/servers/fake_llm.py): why fronts streams.
#
# The answer is the demo's model.py padded with comment lines to
# BENCH_LLM_TOKENS (16384) tokens of 4 characters. Streamed, it arrives
# one token per event, BENCH_LLM_DELAY (0.001) s apart; unstreamed, the
# server is silent for as long as the streamed run took (the time a real
# API spends writing the answer) and then sends it whole. Both runs use
# --timeout BENCH_LLM_TIMEOUT (2) s, the longest silence allowed.
# Printed: wall and CPU seconds of fronts synth, the exit code, the
# stream's size. Not a test: the figures depend on the machine.
TOP=$(cd "$(dirname "$0")/.." && pwd)
FRONTS=${FRONTS_BIN:-$TOP/build/fronts}
TOKENS=${BENCH_LLM_TOKENS:-16384}
DELAY=${BENCH_LLM_DELAY:-0.001}
TIMEOUT=${BENCH_LLM_TIMEOUT:-2}
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM PIPE HUP

/usr/bin/python3 - "$TOP/fixtures/demo/model.py" "$T/answer.py" "$TOKENS" <<'EOF'
import sys
src = open(sys.argv[1]).read()
want = int(sys.argv[3]) * 4
line = "# " + "pad " * 18 + "\n"
with open(sys.argv[2], "w") as f:
    f.write(src)
    n = len(src)
    while n + len(line) <= want - 40:
        f.write(line)
        n += len(line)
EOF
echo '[]' >"$T/script.json"
/usr/bin/python3 "$TOP/tests/servers/fake_llm.py" --script "$T/script.json" \
    --log "$T" --port-file "$T/port" &
pid=$!
while [ ! -s "$T/port" ]; do sleep 0.05; done
URL=http://127.0.0.1:$(cat "$T/port")

# run NAME STEP — one synth round against STEP; prints the figures and
# leaves the wall time in $wall.
run() {
	printf '[%s]\n' "$2" >"$T/script.tmp" && mv "$T/script.tmp" "$T/script.json"
	rm -rf "$T/p" && cp -r "$TOP/fixtures/demo" "$T/p" && rm -rf "$T/p/.fronts" "$T/p/model.py"
	t0=$(date +%s.%N)
	ANTHROPIC_API_KEY=bench-key ANTHROPIC_BASE_URL=$URL \
	    /usr/bin/time -f "%U %S" -o "$T/cpu" "$FRONTS" synth -C "$T/p" \
	    --provider anthropic --rounds 1 --timeout "$TIMEOUT" >"$T/out" 2>"$T/err"
	rc=$?
	t1=$(date +%s.%N)
	wall=$(echo "$t1 - $t0" | bc)
	set -- $(tail -n 1 "$T/cpu")
	printf '%-10s exit %d  wall %6.2f s  cpu %5.2f s  %s\n' "$NAME" "$rc" \
	    "$wall" "$(echo "$1 + $2" | bc)" "$(tail -n 1 "$T/err" | cut -c1-90)"
}

step="{\"code_file\":\"$T/answer.py\",\"preamble\":\"Here.\",\"chunk_chars\":4,\"chunk_delay\":$DELAY}"
NAME=streamed run streamed "$step"
echo "           $TOKENS events of 4 characters, $(wc -c <"$T/answer.py") bytes of code"
stall=$wall
NAME=unstreamed run unstreamed "{\"code_file\":\"$T/answer.py\",\"preamble\":\"Here.\",\"no_stream\":true,\"stall\":$stall,\"times\":9}"
