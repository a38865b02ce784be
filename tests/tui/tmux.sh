# Helpers for driving the real fronts binary inside tmux: a private tmux
# server per test file, keys in, screen text out, and bounded polling
# instead of fixed sleeps. Source after tests/lib.sh.
TMUX_SOCK="fronts-test-$$"
TUI_TIMEOUT=${TUI_TIMEOUT:-300}	# polls of 0.1 s before a wait gives up

tmx() { tmux -L "$TMUX_SOCK" -f /dev/null "$@"; }

# tui_start W H CMD — a detached session running CMD (through sh) in a
# UTF-8 locale; the session's pane stays after CMD ends so its last
# screen can still be read.
tui_start() {
	tui_stop
	tmx -u new-session -d -s t -x "$1" -y "$2" \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color $3"
	tmx set-option -g remain-on-exit on >/dev/null
}

# tui_stop — kills the server and waits (bounded) until it is gone: a
# session started at once could otherwise land in the server that is
# still shutting down.
tui_stop() {
	tmx kill-server 2>/dev/null
	_i=0
	while tmx ls >/dev/null 2>&1 && [ $_i -lt 100 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}

tui_keys() { tmx send-keys -t t "$@"; }

tui_screen() { tmx capture-pane -p -t t; }

# tui_wait TEXT [GREP-FLAGS] — polls the screen until it shows TEXT (a
# fixed string unless flags say otherwise); returns 1 after TUI_TIMEOUT
# polls, leaving the last screen in $TMPD/screen.
tui_wait() {
	i=0
	while [ "$i" -lt "$TUI_TIMEOUT" ]; do
		tui_screen >"$TMPD/screen" 2>/dev/null
		grep -q${2:-F} -- "$1" "$TMPD/screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# tui_gone TEXT — polls until the screen no longer shows TEXT.
tui_gone() {
	i=0
	while [ "$i" -lt "$TUI_TIMEOUT" ]; do
		tui_screen >"$TMPD/screen" 2>/dev/null
		grep -qF -- "$1" "$TMPD/screen" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# check_screen NAME TEXT — PASS when the screen comes to show TEXT.
check_screen() {
	if tui_wait "$2"; then pass "$1"
	else fail "$1" "screen never showed '$2'; last screen:
$(cat "$TMPD/screen")"; fi
}

check_no_screen() {
	if tui_gone "$2"; then pass "$1"
	else fail "$1" "screen still shows '$2'"; fi
}

# tui_cmd ':command' — types a command line and runs it. The mode badge
# is on screen while the prompt is, so the wait is for the typed line to
# be gone: the command has run by then.
tui_cmd() {
	tui_keys ':'
	tui_wait '^:$' E
	tui_keys -l "$1"
	tui_wait ":$1" || fail "tui: the prompt shows :$1" "$(cat "$TMPD/screen")"
	tui_keys Enter
	tui_gone ":$1"
	tui_wait 'DRY-RUN|LIVE' E	# back in curses, status line redrawn
}

# check_file NAME TEXT FILE — PASS when FILE comes to contain TEXT (for
# what a command prints after the TUI has exited and the pane may be gone).
check_file() {
	i=0
	while [ "$i" -lt "$TUI_TIMEOUT" ]; do
		grep -qF -- "$2" "$3" 2>/dev/null && { pass "$1"; return; }
		sleep 0.1
		i=$((i + 1))
	done
	fail "$1" "$3 never contained '$2': $(cat "$3" 2>/dev/null)"
}
