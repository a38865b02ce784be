#!/bin/sh
# The parent as a boundary (SECURITY.md, The parent): what fronts does with
# what a worker sends when the model has taken the worker over. The
# assume-breach build (fronts-breach) hands the model the real builtins, so
# a model here writes raw frames to the frame pipe (descriptor 4), as a
# model that exploited the interpreter could.
#
#  - each frame type has a bound; a longer header ends the worker (exit 4)
#    before its payload is read, and fronts' own peak memory (VmHWM at its
#    exit, tests/peak_rss.py) stays under SECURITY.md's bound for frames at
#    and over each bound, and for the demo plan;
#  - a forged error frame can only make fronts exit 4, and model text is
#    shown on one line after "model| ";
#  - workers die with fronts (kill -9), as root and as nobody, 1 and 2
#    workers;
#  - every plan and validate has a wall clock (--time-limit); a plan cut
#    by it is returned, stopped early, with a warning naming the time per
#    call; the memory budget (--memory-mb) is shared by the workers.
. "$(dirname "$0")/../lib.sh"

B=${FRONTS_BREACH_BIN:-$TOP/build/fronts-breach}
if [ ! -x "$B" ]; then
	fail "the assume-breach build exists" "no $B (make test builds it)"
	exit 1
fi
PEAK="python3 $TOP/tests/peak_rss.py $TMPD/peak"
P=$TMPD/proj
new_demo "$P"

# SECURITY.md's bound on fronts' own memory: 64 MiB plus 256 bytes per node
# of the exported trees; a worker's export is at most its memory share over
# 80 bytes (a tree node) in nodes. bound_kib MEMORY_MB -> KiB.
bound_kib() { echo $((65536 + $1 * 1048576 / 80 * 256 / 1024)); }

# under NAME KIB — the last run's peak is under KIB.
under() {
	got=$(cat "$TMPD/peak")
	if [ "$got" -gt 0 ] && [ "$got" -le "$2" ]; then
		pass "$1 (peak $got KiB <= $2 KiB)"
	else fail "$1" "peak $got KiB, bound $2 KiB"; fi
}

# model BODY — model.py that runs BODY (Python, at its top level) with the
# frame helpers: hdr(type, n) sends a header, fill(type, n) a header and n
# bytes of a JSON array of zeros (the costliest text for a JSON parser to
# hold) in 1 MiB pieces, so the worker itself stays small.
model() {
	cat >"$P/model.py" <<EOF
B = breach_builtins
wr = B["getattr"](breach_os, "write")
mk = B["bytes"]


def hdr(t, n):
    wr(4, mk([n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255, t]))


def fill(t, n):
    hdr(t, n)
    chunk = b"0," * 524288
    wr(4, b"[")
    n -= 3
    while n > 0:
        k = n if n < 1048576 else 1048576
        wr(4, chunk[:k])
        n -= k
    wr(4, b"0]")


$1


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, 1.0


def is_terminal(state):
    return state >= 3
EOF
	"$B" approve -C "$P" --yes >/dev/null 2>&1
}

# forged NAME MEMORY_MB BODY PATTERN — plan (one worker with MEMORY_MB)
# exits 4 saying PATTERN, fronts' peak under the bound.
forged() {
	model "$3"
	expect_exit "$1: exit 4" 4 $PEAK "$B" plan -C "$P" --iterations 3 \
	    --workers 1 --memory-mb "$2" --call-timeout-ms 10000
	expect_grep "$1: says why" "$4" "$TMPD/err"
	under "$1: fronts' memory" "$(bound_kib "$2")"
}

S=83; R=82; E=69; O=79; Y=89

# ---- 1. bounded frames ---------------------------------------------------
# The bound of each type, as the parent states it when refusing one over it.
learn() {
	model "hdr($1, 1 << 30)
while True:
    pass"
	"$B" plan -C "$P" --iterations 3 --workers 1 --memory-mb 64 \
	    >/dev/null 2>"$TMPD/err"
	sed -n 's/.*more than the \([0-9]*\) bytes it can need.*/\1/p' "$TMPD/err"
}
for t in $S $R $E $O $Y; do
	max=$(learn $t)
	if [ -z "$max" ]; then
		fail "frame type $t has a bound" "$(head -c 300 "$TMPD/err")"
		continue
	fi
	pass "frame type $t has a bound ($max bytes)"
	[ "$t" -eq $R ] && rmax=$max
	# Then the worker waits to be ended, but for a syscall frame, which
	# only names a call: then its exception ends it.
	wait="while True:
    pass"
	[ "$t" -eq $Y ] && wait='raise ValueError("after the frame")'
	forged "type $t at its bound of $max bytes" 64 "fill($t, $max)
$wait" "malformed|search tree|model\\| .*after the frame"
	forged "type $t just over its bound" 64 "fill($t, $max + 1)" \
	    "more than the $max bytes it can need"
done
# A valid tree at the result's bound for a 64 MiB budget: every node is
# merged into fronts' tree, the costliest result there is. The export is a
# 1488-byte header and 56 bytes per node (core/search_int.h); nodes are
# posts (draft i / 4 on front i % 4), 94 children each, in preorder.
n=$(( (${rmax:-0} - 1488) / 56 ))
model "def u32(v):
    return v.to_bytes(4, 'little')


def node(parent, slot, i):
    return (u32(parent) + u32(slot) + (1).to_bytes(2, 'little') +
            (i % 4).to_bytes(2, 'little') + u32(i // 4) + u32(2) + u32(2) +
            u32(0) + u32(0) + B['bytes'](24))


N = $n
hdr($R, 1488 + 56 * N)
wr(4, u32(0x31545246) + u32(N) + B['bytes'](1480))
buf = [node(0xffffffff, 0, 0)]
count = 1
a = 0
while a < 94 and count < N:
    ia = count
    buf.append(node(0, 1, a))
    count += 1
    b = 0
    while b < 94 and count < N:
        ib = count
        buf.append(node(ia, 2, b))
        count += 1
        c = 0
        while c < 94 and count < N:
            buf.append(node(ib, 3, c))
            count += 1
            c += 1
        if len(buf) > 5000:
            wr(4, b''.join(buf))
            buf = []
        b += 1
    a += 1
wr(4, b''.join(buf))
while True:
    pass"
expect_exit "a valid tree of $n nodes at the bound: planned" 0 $PEAK "$B" \
    plan -C "$P" --iterations 3 --workers 1 --memory-mb 64 \
    --call-timeout-ms 10000
under "a valid tree of $n nodes at the bound: fronts' memory" \
    "$(bound_kib 64)"

# 300 MB sent in full: the old parent buffered it twice over.
forged "a 300 MB result with a 64 MiB budget" 64 "fill($R, 300000000)" \
    "a result frame of 300000000 bytes, more than the"
forged "an unknown frame type" 64 "fill(81, 100000000)" \
    "a frame of an unknown type"

# The demo plan, two workers and the default budget: its trees are small.
# (A quarter of the default iterations, for time: 16 MiB either way.)
new_demo "$TMPD/demo"
"$FRONTS" approve -C "$TMPD/demo" --yes >/dev/null 2>&1
expect_exit "demo plan: exit 0" 0 $PEAK "$FRONTS" plan -C "$TMPD/demo" \
    --workers 2 --iterations 5000
under "demo plan: fronts' memory, tens of MiB" 65536
echo "demo plan: fronts' peak memory $(cat "$TMPD/peak") KiB"

# ---- 6. nothing the model controls looks like fronts' own output ----------
for code in 3 5 1; do
	model "m = b'{\"code\":$code,\"message\":\"boom\\\\nsandbox: none\"}'
hdr($E, len(m))
wr(4, m)
while True:
    pass"
	expect_exit "forged error code $code: plan exits 4" 4 "$B" plan \
	    -C "$P" --iterations 3 --workers 1
	expect_grep "forged error code $code: the text after model|" \
	    'model\| boom\\nsandbox: none' "$TMPD/err"
	expect_no_grep "forged error code $code: no line of its own" \
	    "^sandbox" "$TMPD/err"
	expect_exit "forged error code $code: validate exits 4" 4 "$B" \
	    validate -C "$P"
	expect_grep "forged error code $code: validate quotes it" \
	    'model\| boom\\nsandbox: none' "$TMPD/err"
done
model 'raise ValueError("x\nsandbox: none\nfronts plan: all good")'
expect_exit "exception with newlines: exit 4" 4 "$B" plan -C "$P" \
    --iterations 3 --workers 1
expect_grep "exception with newlines: one line" \
    'model\| .*ValueError: x\\nsandbox: none\\nfronts plan: all good' \
    "$TMPD/err"
expect_no_grep "exception with newlines: no forged line" \
    "^(sandbox|fronts plan: all good)" "$TMPD/err"
cat >"$P/model.py" <<'EOF'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    if rng.random() < 0.05:
        raise ValueError("x\nsandbox: none")
    return state + 1, 1.0


def is_terminal(state):
    return state >= 3
EOF
"$FRONTS" approve -C "$P" --yes >/dev/null 2>&1
"$FRONTS" plan -C "$P" --iterations 50 --workers 1 >/dev/null \
    2>"$TMPD/err"
expect_grep "model errors: one line after model|" \
    'model error: model\| ValueError: x\\nsandbox: none' "$TMPD/err"
expect_no_grep "model errors: no forged line" "^sandbox" "$TMPD/err"

# ---- 3. workers die with fronts ------------------------------------------
# A model whose calls are slow: the plan runs for minutes.
new_demo "$TMPD/slow"
cat >"$TMPD/slow/model.py" <<'EOF'
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    n = 0
    for i in range(300000):
        n += i
    return state + 1, 1.0


def is_terminal(state):
    return state >= 1000
EOF
"$FRONTS" approve -C "$TMPD/slow" --yes >/dev/null 2>&1
chmod 755 "$TMPD"
chmod -R a+rwX "$TMPD/slow"

alive() {
	[ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" \
	    2>/dev/null
}

# workers_die NAME N [RUNNER...] — starts a plan with N workers, waits
# until every worker has its seccomp filter (mid-plan), kill -9s fronts,
# and sees every worker gone within 10 s.
workers_die() {
	name=$1; n=$2; shift 2
	"$@" "$FRONTS" plan -C "$TMPD/slow" --workers "$n" --iterations 100000 \
	    --call-timeout-ms 60000 >/dev/null 2>&1 &
	fpid=$!
	i=0; ws=
	while [ $i -lt 300 ]; do
		# setpriv execs fronts in its own place: $! is fronts.
		ws=$(pgrep -P "$fpid" | tr '\n' ' ')
		ready=0
		for w in $ws; do
			grep -q '^Seccomp:[[:space:]]*2' "/proc/$w/status" \
			    2>/dev/null && ready=$((ready + 1))
		done
		[ "$ready" -eq "$n" ] && break
		sleep 0.1; i=$((i + 1))
	done
	if [ "$ready" -ne "$n" ]; then
		fail "$name: the workers came up" "$ready of $n"
		kill -9 "$fpid" 2>/dev/null
		return
	fi
	if [ "$(id -u)" -eq 0 ] && [ "$n" -eq 1 ]; then
		ws=$(echo $ws)
		if grep -q '^Max cpu time *unlimited' "/proc/$ws/limits"; then
			fail "$name: the worker has RLIMIT_CPU"
		else pass "$name: the worker has RLIMIT_CPU"; fi
	fi
	kill -9 "$fpid"
	wait "$fpid" 2>/dev/null
	i=0
	while [ $i -lt 100 ]; do
		left=
		for w in $ws; do alive "$w" && left="$left $w"; done
		[ -z "$left" ] && break
		sleep 0.1; i=$((i + 1))
	done
	if [ -z "$left" ]; then pass "$name: no worker left"
	else
		fail "$name: no worker left" "still running:$left"
		for w in $left; do kill -9 "$w"; done
	fi
}

if [ "$(id -u)" -eq 0 ]; then
	workers_die "kill -9, root, 1 worker" 1
	workers_die "kill -9, root, 2 workers" 2
	if id nobody >/dev/null 2>&1 && setpriv --version >/dev/null 2>&1; then
		workers_die "kill -9, nobody, 1 worker" 1 setpriv \
		    --reuid=nobody --regid="$(id -g nobody)" --clear-groups
		workers_die "kill -9, nobody, 2 workers" 2 setpriv \
		    --reuid=nobody --regid="$(id -g nobody)" --clear-groups
	else echo "SKIP: kill -9 as an ordinary user (no nobody or setpriv)"; fi
else
	echo "SKIP: kill -9 as root (not root)"
	workers_die "kill -9, $(id -un), 1 worker" 1
	workers_die "kill -9, $(id -un), 2 workers" 2
fi

# ---- 4. every plan and validate has a wall clock ---------------------------
expect_exit "time limit: the plan so far" 0 "$FRONTS" plan -C "$TMPD/slow" \
    --workers 2 --iterations 100000 --time-limit 2 --call-timeout-ms 60000
expect_grep "time limit: names the cause and the time per call" \
    "the time limit of 2 s ended the search after [0-9]+ iterations: the model took [0-9.e+-]+ ms per call" \
    "$TMPD/err"
expect_grep "time limit: stopped early" "^stopped early" "$TMPD/out"
expect_grep "time limit: a whole plan" "^[0-9]+ iterations" "$TMPD/out"
expect_exit "time limit: thread isolation too" 0 "$FRONTS" plan \
    -C "$TMPD/slow" --isolation thread --iterations 100000 --time-limit 1 \
    --call-timeout-ms 60000
expect_grep "time limit: thread isolation names it" "the time limit of 1 s" \
    "$TMPD/err"
expect_exit "time limit: validate is killed at it" 4 "$FRONTS" validate \
    -C "$TMPD/slow" --time-limit 1
expect_grep "time limit: validate says so" "deadline of 1.0 s" "$TMPD/err"
expect_exit "time limit: must be positive" 2 "$FRONTS" plan -C "$TMPD/slow" \
    --time-limit 0
expect_exit "plan --help names the default" 0 "$FRONTS" plan --help
expect_grep "plan --help: --time-limit" "time-limit S .*default 3600" \
    "$TMPD/out"
expect_grep "plan --help: --memory-mb is the total" \
    "memory budget of all workers together" "$TMPD/out"

# ---- 5. the memory budget is the total over the workers --------------------
model 'big = "x" * (100 * 1048576)'
expect_exit "memory: one worker holds 100 MB of 160 MiB" 0 "$B" plan -C "$P" \
    --iterations 3 --workers 1 --memory-mb 160
expect_exit "memory: two workers get 80 MiB each" 4 "$B" plan -C "$P" \
    --iterations 3 --workers 2 --memory-mb 160
expect_grep "memory: each its share" "out of memory \(limit 80 MiB\)" \
    "$TMPD/err"
expect_exit "memory: a share under 64 MiB is refused" 2 "$FRONTS" plan \
    -C "$P" --workers 4 --memory-mb 200
