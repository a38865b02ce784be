# Helpers for the tests that talk to tests/servers/fake_social.py: source
# after tests/lib.sh. start_fake NAME MODE [OPTIONS] starts a fresh fake
# logging to $TMPD/NAME.log ($LOG) and sets PORT and the base URLs that
# point fronts at it; stop_fake ends it. count PATTERN / requests PATTERN
# count the log's lines / requests matching PATTERN.
FAKE_PID=
stop_fake() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null && wait "$FAKE_PID" 2>/dev/null
	FAKE_PID=
}

start_fake() {
	stop_fake
	n=$1; m=$2; shift 2
	LOG=$TMPD/$n.log
	rm -f "$LOG" "$TMPD/$n.port"
	: >"$LOG"
	/usr/bin/python3 "$TOP/tests/servers/fake_social.py" --port-file "$TMPD/$n.port" \
	    --log "$LOG" --mode "$m" "$@" &
	FAKE_PID=$!
	i=0
	while [ ! -s "$TMPD/$n.port" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	PORT=$(cat "$TMPD/$n.port")
	export COMPOSIO_BASE_URL="http://127.0.0.1:$PORT"
	export ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT"
}

count() { grep -c -- "$1" "$LOG"; }
requests() { grep '"ev": "request"' "$LOG" | grep -c -- "$1"; }
