#!/bin/sh
# Assume-breach: each layer of the worker tested as if the layers inside it
# had already failed. fronts-breach (built only for `make test`) hands the
# model what an escape from the namespace would give it: the real builtins
# (open, getattr, __import__), os, socket and ctypes. FRONTS_BREACH_SKIP
# takes layers away (only that build reads it) so that each of the others
# is seen holding on its own.
#
# Every attack runs at the module's top level and inside apply(), through
# `fronts plan` (process isolation, the default) and `fronts validate`.
# The same attacks under --isolation thread DO get through: that proves the
# attack models work, so that a refusal in the worker is the worker's doing.
. "$(dirname "$0")/../lib.sh"

B=${FRONTS_BREACH_BIN:-$TOP/build/fronts-breach}
if [ ! -x "$B" ]; then
	fail "the assume-breach build exists" "no $B (make test builds it)"
	exit 1
fi
P=$TMPD/proj
new_demo "$P"
MARK=$TMPD/breach-mark
SENTINEL=sk-breach-SENTINEL-7f3a
export ANTHROPIC_API_KEY=$SENTINEL OPENAI_API_KEY=$SENTINEL
export COMPOSIO_API_KEY=$SENTINEL MASTODON_ACCESS_TOKEN=$SENTINEL

# attack WHERE CODE — model.py runs CODE at top level or in apply().
attack() {
	if [ "$1" = top ]; then top=$2; body=; else top=pass; body="    $2"; fi
	cat >"$P/model.py" <<EOF
ga = breach_builtins["getattr"]
$top


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
$body
    return state + 1, 1.0


def is_terminal(state):
    return state >= 3
EOF
	"$B" approve -C "$P" --yes >/dev/null 2>&1
}

# blocked NAME WHERE CODE PATTERN — plan fails with exit 4 and validate
# fails (exit 4, or 1 with the failed check in its report when the attack
# sits in apply), each saying PATTERN; no marker file, no key anywhere.
blocked() {
	what="$1 ($2)"; pat=$4
	rm -f "$MARK"
	attack "$2" "$3"
	expect_exit "$what: plan exit 4" 4 "$B" plan --force -C "$P" --iterations 3 \
	    --workers 1
	expect_grep "$what: plan says why" "$pat" "$TMPD/err"
	cat "$TMPD/out" "$TMPD/err" >"$TMPD/all"
	"$B" validate -C "$P" >"$TMPD/out" 2>"$TMPD/err"
	vrc=$?
	cat "$TMPD/out" "$TMPD/err" >"$TMPD/vall"
	cat "$TMPD/vall" >>"$TMPD/all"
	if [ "$vrc" -eq 4 ] || [ "$vrc" -eq 1 ]; then pass "$what: validate fails"
	else fail "$what: validate fails" "exit $vrc: $(head -c 300 "$TMPD/vall")"; fi
	expect_grep "$what: validate says why" "$pat" "$TMPD/vall"
	if [ -e "$MARK" ]; then fail "$what: nothing created"
	else pass "$what: nothing created"; fi
	expect_no_grep "$what: no key in any output" "$SENTINEL" \
	    "$TMPD/all" "$P/.fronts"
}

OPEN_W="breach_open(\"$MARK\", \"w\")"
OPEN_R='breach_open("/etc/passwd").read()'
SOCK='breach_socket.socket().connect(("127.0.0.1", 9))'
FORK='ga(breach_os, "fork")()'
EXEC="ga(breach_os, \"execv\")(\"/bin/sh\", [\"sh\", \"-c\", \"touch $MARK\"])"
TERM_W='ga(breach_os, "write")(1, b"\x1b[2J")'
TTY='breach_open("/dev/tty", "w")'
RAW='breach_ctypes.CDLL(None).syscall(41, 2, 1, 0)'
PPID_ENV="breach_open(\"/proc/$$/environ\").read()"
ENV='raise ValueError(ga(breach_os, "environ").get("ANTHROPIC_API_KEY", "no key"))'

# ---- the working attacks: in thread mode nothing stops them ----------
rm -f "$MARK"
attack top "$OPEN_W"
expect_exit "thread: the file attack works there" 0 "$B" plan --force -C "$P" \
    --iterations 3 --isolation thread
if [ -e "$MARK" ]; then pass "thread: the marker was created"
else fail "thread: the marker was created"; fi
attack top "$ENV"
expect_exit "thread: the environment attack works there" 4 "$B" plan --force -C "$P" \
    --iterations 3 --isolation thread
expect_grep "thread: it reads the key" "$SENTINEL" "$TMPD/err"

# ---- 1. the whole lockdown: seccomp stops each, naming the call -------
for where in top apply; do
	blocked "seccomp: create a file" $where "$OPEN_W" "seccomp filter: it called openat"
	blocked "seccomp: read a file" $where "$OPEN_R" "seccomp filter: it called openat"
	blocked "seccomp: a socket" $where "$SOCK" "seccomp filter: it called socket"
	blocked "seccomp: fork" $where "$FORK" "seccomp filter: it called clone"
	blocked "seccomp: exec" $where "$EXEC" "seccomp filter: it called execve"
	blocked "seccomp: write to the terminal" $where "$TERM_W" "seccomp filter: it called write"
	blocked "seccomp: open the terminal" $where "$TTY" "seccomp filter: it called openat"
	blocked "seccomp: a raw system call" $where "$RAW" "seccomp filter: it called socket"
	blocked "seccomp: stat a path" $where 'ga(breach_os, "stat")("/etc/passwd")' "seccomp filter: it called newfstatat"
	blocked "seccomp: the parent's environment" $where "$PPID_ENV" "seccomp filter: it called openat"
	# The worker's own environment was made explicitly: no key in it.
	blocked "environment: no key" $where "$ENV" "ValueError: no key"
done

# The layers this kernel gives, from the worker's own report.
new_demo "$TMPD/demo"
"$FRONTS" approve -C "$TMPD/demo" --yes >/dev/null 2>&1
"$FRONTS" plan --force -C "$TMPD/demo" --iterations 20 --workers 1 --json \
    >"$TMPD/layers.json" 2>"$TMPD/err"
layers=$(sed -n 's/.*"sandbox":[[:space:]]*"\(.*\)".*/\1/p' "$TMPD/layers.json")
echo "sandbox layers here: $layers"
has() { case "$layers" in *"$1"*) return 0;; esac; return 1; }
skip() { echo "SKIP: $1 (this kernel or user does not give the layer)"; }

# ---- 2. Landlock, as if seccomp, the fd limit and the root had failed --
if has Landlock; then
	export FRONTS_BREACH_SKIP=seccomp,fds,root
	for where in top apply; do
		blocked "landlock: create a file" $where "$OPEN_W" "PermissionError"
		blocked "landlock: read a file" $where "$OPEN_R" "PermissionError"
		blocked "landlock: exec" $where "$EXEC" "PermissionError"
	done
	unset FRONTS_BREACH_SKIP
else skip "landlock"; fi

# ---- 3. the empty root and the namespaces, with seccomp, the fd limit and
# Landlock gone -----------------------------------------------------------
if has "empty root"; then
	export FRONTS_BREACH_SKIP=seccomp,fds,landlock
	for where in top apply; do
		blocked "empty root: create a file" $where "$OPEN_W" "FileNotFoundError|OSError: 30"
		blocked "empty root: read a file" $where "$OPEN_R" "FileNotFoundError"
		blocked "empty root: exec" $where "$EXEC" "FileNotFoundError"
		blocked "empty root: the terminal" $where "$TTY" "FileNotFoundError"
	done
	unset FRONTS_BREACH_SKIP
else skip "empty root"; fi
if has "network namespace"; then
	export FRONTS_BREACH_SKIP=seccomp,fds,landlock
	blocked "network namespace: connect" top "$SOCK" "OSError: 101|ConnectionRefused"
	unset FRONTS_BREACH_SKIP
else skip "network namespace"; fi

# ---- 4. no new descriptors, with seccomp, Landlock and the root gone ---
export FRONTS_BREACH_SKIP=seccomp,landlock,root
for where in top apply; do
	blocked "no new fds: create a file" $where "$OPEN_W" "OSError: 24"
	blocked "no new fds: a socket" $where "$SOCK" "OSError: 24"
	blocked "no new fds: the terminal" $where "$TTY" "OSError: 24"
	# Closed descriptors: stdout is not the terminal any more.
	blocked "closed fds: write to stdout" $where "$TERM_W" "OSError: 9"
	# Not root (or never was), and RLIMIT_NPROC 0: no new process.
	blocked "nproc: fork" $where "$FORK" "BlockingIOError: 11"
done
unset FRONTS_BREACH_SKIP

# ---- fallback: a kernel that gives no user namespace -------------------
# The optional layers fall back cleanly, say so, and the rest still holds.
export FRONTS_BREACH_SKIP=userns
expect_exit "no user namespace: sandbox lists the layers" 0 "$B" sandbox -C "$P"
expect_grep "no user namespace: reported off" "user namespace +off" "$TMPD/out"
expect_grep "no user namespace: says why" "not available here: user namespace" "$TMPD/out"
expect_grep "no user namespace: seccomp still on" "seccomp allowlist +on" "$TMPD/out"
attack top "$OPEN_W"
expect_exit "no user namespace: the file attack still fails" 4 "$B" plan --force \
    -C "$P" --iterations 3 --workers 1
expect_grep "no user namespace: stopped by seccomp" "it called openat" "$TMPD/err"
unset FRONTS_BREACH_SKIP

# ---- the report: fronts sandbox, plan's stats ---------------------------
expect_exit "sandbox: exit 0" 0 "$FRONTS" sandbox -C "$TMPD/demo"
expect_grep "sandbox: seccomp on" "seccomp allowlist +on" "$TMPD/out"
expect_grep "sandbox: names libpython" "^libpython 3\." "$TMPD/out"
expect_exit "sandbox --json: exit 0" 0 "$FRONTS" sandbox -C "$TMPD/demo" --json
if /usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["seccomp"] and j["rlimits"] and j["no_new_privs"], j' "$TMPD/out"
then pass "sandbox --json: the mandatory layers"
else fail "sandbox --json: the mandatory layers" "$(head -c 300 "$TMPD/out")"; fi
expect_grep "plan --json: stats name the layers" '"sandbox":.*seccomp allowlist' \
    "$TMPD/layers.json"
expect_exit "plan --isolation thread: no sandbox" 0 "$FRONTS" plan --force \
    -C "$TMPD/demo" --iterations 20 --isolation thread --json
expect_grep "plan --isolation thread: says so" '"sandbox":.*none' "$TMPD/out"
expect_exit "the normal build ignores FRONTS_BREACH_SKIP" 0 env \
    FRONTS_BREACH_SKIP=seccomp,landlock,root,fds,userns "$FRONTS" sandbox -C "$TMPD/demo"
expect_grep "the normal build: every layer still on" "seccomp allowlist +on" "$TMPD/out"
expect_no_grep "the normal build: nothing off" " off$" "$TMPD/out"
