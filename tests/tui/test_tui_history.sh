#!/bin/sh
# The :history view, driven in tmux: on the demo project after importing
# its X archive and Mastodon outbox, each front's posts with their counts
# (an unknown count as ?), where each came from, a published post's
# prediction beside its outcome, and Esc closing the view.
. "$(dirname "$0")/../lib.sh"
command -v tmux >/dev/null 2>&1 || { fail "tmux available" "needed here"; exit 1; }
. "$(dirname "$0")/tmux.sh"
trap 'tui_stop; rm -rf "$TMPD"' EXIT
D="$TMPD/demo"
new_demo "$D"
export FRONTS_THEMES="$TOP/themes"
"$FRONTS" -C "$D" history import "$TOP/fixtures/demo/exports/tweets.js" \
    --front x >/dev/null
"$FRONTS" -C "$D" history import "$TOP/fixtures/demo/exports/outbox.json" \
    --front mastodon >/dev/null
# A post fronts published, pulled back with its prediction.
printf '%s\n' '{"id":"e00000000000000a1","front":"bluesky","posted_at":"2026-11-30T10:00:00+01:00","text":"Published by fronts","topics":[],"metrics":{"likes":7,"reposts":2,"replies":1},"platform_id":"at://did:plc:x/app.bsky.feed.post/3l","settled":false,"predicted":{"reward":12.5,"ci95":[4,21]}}' >>"$D/history.jsonl"

# check_scrolled NAME TEXT — PgDn from the top until TEXT shows.
check_scrolled() {
	tui_keys Home
	n=0
	while [ $n -lt 30 ]; do
		TUI_TIMEOUT=5 tui_wait "$2" && { pass "$1"; return; }
		tui_keys NPage
		n=$((n + 1))
	done
	fail "$1" "never showed '$2'; last screen:
$(cat "$TMPD/screen")"
}

tui_start 160 50 "$FRONTS tui -C $D"
tui_wait "─ Candidates " >/dev/null
tui_keys : history Enter
check_screen "tui history: the view opens" "─ History "
check_screen "tui history: a front's heading" "x (x): "
check_screen "tui history: known counts" "likes 61  reposts 9"
check_scrolled "tui history: unknown counts as ?" "impr ?  likes ?  reposts ?"
check_scrolled "tui history: where a post came from" "from the platform: https://mastodon.example/@tidewater/113500000000000001"
check_scrolled "tui history: prediction beside the outcome" "published by fronts: predicted 12.5 [4.0, 21.0], actual 10 (still settling)"
tui_keys Escape
check_no_screen "tui history: Esc closes the view" "─ History "
check_screen "tui history: the panes are back" "─ Candidates "
