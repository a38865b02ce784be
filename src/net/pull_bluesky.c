/*
 * pull_bluesky — a Bluesky front's posts with their counts from
 * app.bsky.feed.getAuthorFeed (filter posts_and_author_threads: own posts
 * and own threads, no replies to others), paged with its cursor, newest
 * first. The AppView answers without a session; the front's "appview"
 * overrides https://public.api.bsky.app.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "core/timeutil.h"
#include "net/channel.h"
#include "net/pull_int.h"

#define BSKY_APPVIEW	"https://public.api.bsky.app"

int
pull_bluesky(struct pull_session *s, struct error *err)
{
	const struct front *f = s->o->front;
	const char *handle = channel_bluesky_handle(f);
	const char *av = channel_front_str(f, NULL, "appview");
	struct hist_opts ho = { NULL, f->account, NULL, s->o->now, true };
	struct hist_batch page;
	struct http_response r;
	char *base, *actor, *url, *cursor = NULL, *cur, left[160], since[32];
	enum pull_get g;
	int n, rc = 0, maxp = s->o->max_pages > 0 ? s->o->max_pages : 50;
	bool done = false;

	if (handle == NULL)
		return error_set(err, EXIT_USAGE, "fronts.json: front \"%s\": "
		    "\"handle\" is missing", f->id);
	if (av != NULL && channel_url_check(av, "fronts.json: bluesky "
	    "\"appview\"", err) != 0)
		return -1;
	base = xstrdup_rtrim(av != NULL ? av : BSKY_APPVIEW, '/');
	s->service = strstr(base, "://") != NULL ? strstr(base, "://") + 3 : base;
	ho.name = s->service;
	actor = pull_escape(handle);
	time_format_utc(s->o->since, since, sizeof since);
	for (n = 0; !done && n < maxp; n++) {
		cur = cursor != NULL ? pull_escape(cursor) : NULL;
		xasprintf(&url, "%s/xrpc/app.bsky.feed.getAuthorFeed?actor=%s&"
		    "limit=100&filter=posts_and_author_threads%s%s", base, actor,
		    cur != NULL ? "&cursor=" : "", cur != NULL ? cur : "");
		free(cur);
		snprintf(left, sizeof left, "posts older than %s back to %s",
		    cursor != NULL ? cursor : "now", since);
		g = pull_get(s, url, left, &r, err);
		free(url);
		if (g != PULL_OK) {
			rc = g == PULL_FAILED ? -1 : 0;
			break;
		}
		rc = hist_parse(HIST_FMT_BLUESKY_FEED, &ho, r.body, r.len, &page,
		    err);
		http_response_free(&r);
		if (rc != 0)
			break;
		free(cursor);
		cursor = page.next != NULL ? xstrdup(page.next) : NULL;
		done = pull_take_page(s, &page) || cursor == NULL;
		hist_batch_free(&page);
	}
	s->out->complete = rc == 0 && done && s->out->stopped == NULL;
	free(cursor);
	free(actor);
	free(base);
	return rc;
}
