/*
 * pull — one rate-limit-aware GET for the read-only pulls; the puller is
 * the front's platform's (platform.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/timeutil.h"
#include "net/platform.h"
#include "net/pull_int.h"

#define PULL_TRIES	4

/* A reset header: epoch seconds (Bluesky) or an ISO time (Mastodon). */
static time_t
reset_time(const char *v)
{
	time_t t;

	if (v == NULL || *v == '\0')
		return 0;
	if (strspn(v, "0123456789") == strlen(v) && strlen(v) < 12)
		return (time_t)strtoll(v, NULL, 10);
	return time_parse_iso(v, &t) == 0 ? t : 0;
}

/* How long the answer asks to wait, in ms; -1 when it does not say. */
static long
wait_asked(const struct http_response *r, time_t now)
{
	long ms = http_retry_after_ms(r->retry_after_ms, r->retry_after, now);
	time_t reset = reset_time(r->ratelimit_reset);

	if (ms < 0 && reset > 0)
		ms = reset > now ? (long)(reset - now) * 1000 : 0;
	return ms;
}

static enum pull_get
stop(struct pull_session *s, long wait_ms, const char *left)
{
	char until[32];

	time_format_utc(clock_now() + (wait_ms + 999) / 1000, until,
	    sizeof until);
	free(s->out->stopped);
	xasprintf(&s->out->stopped, "rate limited by %s until %s; not "
	    "fetched: %s. Run `fronts history pull` again after that time",
	    s->service, until, left);
	return PULL_STOPPED;
}

static long
max_wait(const struct pull_session *s)
{
	return s->o->max_wait_ms > 0 ? s->o->max_wait_ms : 60000;
}

static double
scale(const struct pull_session *s)
{
	return s->o->wait_scale > 0 ? s->o->wait_scale : 1;
}

static void
note_quota(struct pull_session *s, const struct http_response *r)
{
	if (r->ratelimit_remaining != NULL &&
	    strcmp(r->ratelimit_remaining, "0") == 0)
		s->wait_until = reset_time(r->ratelimit_reset);
}

static void
refused(struct pull_session *s, const struct http_request *req,
    const struct http_response *r, struct error *err)
{
	char *why = channel_error_text(r);

	error_set(err, r->status == 404 ? EXIT_ERROR : EXIT_NETWORK,
	    "%s answered HTTP %ld to %s %s: %.300s", s->service, r->status,
	    req->method, req->url, why);
	free(why);
	http_redact(req, err->msg, sizeof err->msg);
}

enum pull_get
pull_get(struct pull_session *s, const char *url, const char *left,
    struct http_response *resp, struct error *err)
{
	return pull_post(s, url, NULL, left, resp, err);
}

enum pull_get
pull_post(struct pull_session *s, const char *url, const char *body,
    const char *left, struct http_response *resp, struct error *err)
{
	struct http_header h[3] = { { "Accept", "application/json", false },
	    { s->auth_name != NULL ? s->auth_name : "Authorization", s->auth,
	    true }, { "Content-Type", "application/json", false } };
	struct http_request req = { .method = body != NULL ? "POST" : "GET",
	    .url = url, .headers = h, .nheaders = s->auth != NULL ? 2 : 1,
	    .body = body, .body_len = body != NULL ? strlen(body) : 0,
	    .timeout_ms = s->o->timeout_ms > 0 ? s->o->timeout_ms : 30000 };
	long wait;
	bool hopeless;
	int t;

	if (body != NULL) {
		if (s->auth == NULL)
			h[1] = h[2];
		req.nheaders++;
	}

	for (t = 1;; t++) {
		if (s->wait_until > clock_now()) {
			wait = (long)(s->wait_until - clock_now()) * 1000;
			if (wait > max_wait(s))
				return stop(s, wait, left);
			http_sleep_ms((double)wait * scale(s));
		}
		s->wait_until = 0;
		memset(resp, 0, sizeof *resp);
		s->out->requests++;
		if (http_perform(&req, resp, err) != 0) {
			http_redact(&req, err->msg, sizeof err->msg);
			hopeless = resp->hopeless;
			http_response_free(resp);
			if (t >= PULL_TRIES || hopeless)
				return PULL_FAILED;
			http_sleep_ms(1000.0 * (1 << (t - 1)) * scale(s));
			continue;
		}
		note_quota(s, resp);
		if (resp->status >= 200 && resp->status <= 299)
			return PULL_OK;
		if (resp->status != 429 && resp->status != 503) {
			refused(s, &req, resp, err);
			http_response_free(resp);
			return PULL_FAILED;
		}
		wait = wait_asked(resp, clock_now());
		if (wait < 0)
			wait = 1000L << (t - 1);
		http_response_free(resp);
		if (wait > max_wait(s) || t >= PULL_TRIES)
			return stop(s, wait, left);
		http_sleep_ms((double)wait * scale(s));
	}
}

char *
pull_escape(const char *s)
{
	char *out = xmalloc(strlen(s) * 3 + 1), *o = out;

	for (; *s != '\0'; s++) {
		if (isalnum((unsigned char)*s) || strchr("-._~", *s) != NULL)
			*o++ = *s;
		else
			o += sprintf(o, "%%%02X", (unsigned char)*s);
	}
	*o = '\0';
	return out;
}

bool
pull_take_page(struct pull_session *s, struct hist_batch *page)
{
	bool done = page->nitems + page->nskips == 0;
	int i, k = 0;

	/* Posts before the window are not pulled: --since means the same
	 * on every platform, whatever a page happens to hold. */
	for (i = 0; i < page->nitems; i++) {
		if (page->items[i].posted_at >= s->o->since) {
			page->items[k++] = page->items[i];
			continue;
		}
		done = true;
		hist_item_clear(&page->items[i]);
	}
	page->nitems = k;
	s->out->pages++;
	hist_batch_move(&s->out->batch, page);
	return done;
}

bool
pull_supported(const struct front *f)
{
	const struct platform_handler *pl = platform_of(f->platform);
	struct error err = { 0 };

	return pl != NULL && pl->pull != NULL && platform_front(f, &err) != NULL;
}

int
pull_front(const struct pull_opts *o, struct pull_result *out,
    struct error *err)
{
	const struct platform_handler *pl = platform_of(o->front->platform);
	struct pull_session s = { .o = o, .out = out };

	memset(out, 0, sizeof *out);
	if (pl == NULL || pl->pull == NULL)
		return error_set(err, EXIT_USAGE, "front \"%s\": fronts pulls "
		    "Mastodon, Bluesky and X (through Composio); for %s, import "
		    "the platform's export",
		    o->front->id, platform_name(o->front->platform));
	return pl->pull(&s, err);
}

void
pull_result_free(struct pull_result *r)
{
	hist_batch_free(&r->batch);
	free(r->stopped);
	memset(r, 0, sizeof *r);
}
