/*
 * history_x — the X archive's data/tweets.js: a JavaScript assignment
 * (`window.YTD.tweets.part0 = [ {"tweet": {…}}, … ]`) around the JSON of
 * every tweet, counts as strings, text with HTML entities and t.co links.
 *
 * Also the X API v2 answer to a tweet lookup (GET /2/tweets/:id with
 * tweet.fields=created_at,public_metrics), as Composio's read tool returns
 * it inside its envelope, for `fronts history pull`: it adds impressions
 * and replies to the archive's likes and reposts.
 *
 * Kept: own posts and replies to oneself (threads). Skipped, with the
 * reason: retweets ("RT @…") and replies to other accounts, which are
 * conversation rather than posts a plan schedules.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/history_int.h"
#include "core/timeutil.h"

/* "Wed Nov 20 08:05:00 +0000 2026" → the instant; -1 when it is not. */
static int
x_time(const char *s, time_t *out)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char wd[4], mon[4], sign;
	int d, h, mi, sec, oh, om, y, m, n = 0;
	const char *p;

	if (sscanf(s, "%3s %3s %2d %2d:%2d:%2d %c%2d%2d %4d%n", wd, mon, &d,
	    &h, &mi, &sec, &sign, &oh, &om, &y, &n) != 10 || s[n] != '\0' ||
	    (sign != '+' && sign != '-'))
		return -1;
	if ((p = strstr(months, mon)) == NULL || (p - months) % 3 != 0)
		return -1;
	m = (int)(p - months) / 3 + 1;
	if (d < 1 || h > 23 || mi > 59 || sec > 60 || oh > 23 || om > 59 ||
	    y < 1970 || y > 9999)
		return -1;
	/* "Feb 30" is no day: refused, not rolled over into March. */
	if (d > time_days_from_civil(m == 12 ? y + 1 : y, m % 12 + 1, 1) -
	    time_days_from_civil(y, m, 1))
		return -1;
	*out = (time_t)time_days_from_civil(y, m, d) * 86400 + h * 3600 +
	    mi * 60 + sec - (sign == '+' ? 1 : -1) * (oh * 3600 + om * 60);
	return 0;
}

#define X_TEXT_MAX	65536	/* far above any tweet; bounds hostile input */

/* s with every occurrence of from replaced by to, in one pass (to may
 * contain from); s is freed. Left as it is when the result would pass
 * X_TEXT_MAX. */
static char *
replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0, cap;
	const char *p = s, *hit;
	char *out;

	if (fl == 0 || strstr(s, from) == NULL)
		return s;
	cap = strlen(s) + 1;
	out = xmalloc(cap);
	while ((hit = strstr(p, from)) != NULL) {
		if (n + (size_t)(hit - p) + tl + strlen(hit + fl) >= X_TEXT_MAX) {
			free(out);
			return s;
		}
		if (n + (size_t)(hit - p) + tl + 1 > cap) {
			cap = (n + (size_t)(hit - p) + tl + 1) * 2;
			out = xrealloc(out, cap);
		}
		memcpy(out + n, p, (size_t)(hit - p));
		n += (size_t)(hit - p);
		memcpy(out + n, to, tl);
		n += tl;
		p = hit + fl;
	}
	if (n + strlen(p) + 1 > cap)
		out = xrealloc(out, n + strlen(p) + 1);
	memcpy(out + n, p, strlen(p) + 1);
	free(s);
	return out;
}

/* full_text with t.co links expanded, media links dropped (the media is
 * not text), entities decoded. */
static char *
x_text(const cJSON *tw, const char *raw)
{
	const cJSON *ents = cJSON_GetObjectItemCaseSensitive(tw, "entities");
	const cJSON *u;
	char *s = xstrdup(raw), *dec;
	const char *from, *to;
	size_t n;

	cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(ents, "urls"))
		if ((from = json_str(u, "url")) != NULL &&
		    (to = json_str(u, "expanded_url")) != NULL)
			s = replace_all(s, from, to);
	cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(ents, "media"))
		if ((from = json_str(u, "url")) != NULL)
			s = replace_all(s, from, "");
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	dec = hist_entities_decode(s, n);
	free(s);
	return dec;
}

/* Why a tweet is not one of the account's own posts, or NULL. */
static const char *
x_skip_reason(const cJSON *tw, const char *text, const char *user,
    char *buf, size_t size)
{
	const char *to = json_str(tw, "in_reply_to_screen_name");

	if (strncmp(text, "RT @", 4) == 0)
		return "a retweet";
	if (to == NULL && json_str(tw, "in_reply_to_status_id_str") == NULL)
		return NULL;
	if (to != NULL && *user != '\0' && strcasecmp(to, user) == 0)
		return NULL;
	snprintf(buf, size, "a reply to @%s (replies to others are "
	    "conversation, not posts)", to != NULL ? to : "another account");
	return buf;
}

static int
x_tweet(const struct hist_opts *o, const struct hist_src *src, const cJSON *tw,
    int idx, const char *user, struct hist_batch *b, struct error *err)
{
	const char *id = json_str(tw, "id_str"), *at = json_str(tw, "created_at");
	const char *raw = json_str(tw, "full_text"), *why;
	struct hist_item *it;
	char what[64], buf[160], pos[64];
	time_t t;

	if (raw == NULL)
		raw = json_str(tw, "text");
	if (id == NULL)
		id = json_str(tw, "id");
	if (id == NULL || at == NULL || raw == NULL)
		return error_set(err, EXIT_ERROR, "%s: tweet %d: expected "
		    "id_str, created_at and full_text", o->name, idx + 1);
	if (x_time(at, &t) != 0) {
		hist_locate(src->data, src->len, at, pos, sizeof pos);
		return error_set(err, EXIT_ERROR, "%s: %s: tweet %s: created_at "
		    "\"%.64s\" is no date in X's form \"Wed Nov 20 08:05:00 "
		    "+0000 2026\"", o->name, pos, id, at);
	}
	snprintf(what, sizeof what, "tweet %.40s", id);
	if ((why = x_skip_reason(tw, raw, user, buf, sizeof buf)) != NULL) {
		hist_skip_add(b, what, "%s", why);
		return 0;
	}
	it = hist_item_add(b);
	it->platform_id = xstrdup(id);
	if (*user != '\0')
		xasprintf(&it->url, "https://x.com/%s/status/%s", user, id);
	else
		xasprintf(&it->url, "https://x.com/i/web/status/%s", id);
	it->posted_at = t;
	it->text = x_text(tw, raw);
	hist_metric_json(b, it, HIST_LIKES,
	    cJSON_GetObjectItemCaseSensitive(tw, "favorite_count"));
	hist_metric_json(b, it, HIST_REPOSTS,
	    cJSON_GetObjectItemCaseSensitive(tw, "retweet_count"));
	return 0;
}

int
hist_parse_x(const struct hist_opts *o, const char *data, size_t len,
    struct hist_batch *b, struct error *err)
{
	const char *eq = NULL, *p;
	const struct hist_src src = { data, len };
	const cJSON *e, *tw;
	char *user;
	cJSON *j;
	int i = 0, rc = 0;

	if ((p = memmem(data, len, "window.YTD.", 11)) != NULL)
		eq = memchr(p, '=', (size_t)(data + len - p));
	if (eq == NULL)
		return error_set(err, EXIT_ERROR, "%s: line 1: expected the X "
		    "archive's \"window.YTD.tweets.part0 = [\"", o->name);
	eq++;
	if ((j = hist_json_parse(o, data, len, (size_t)(eq - data),
	    err)) == NULL)
		return -1;
	if (!cJSON_IsArray(j)) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "%s: expected an array of "
		    "tweets after \"=\"", o->name);
	}
	user = hist_account_user(o->account);
	cJSON_ArrayForEach(e, j) {
		tw = cJSON_GetObjectItemCaseSensitive(e, "tweet");
		if ((rc = x_tweet(o, &src, tw != NULL ? tw : e, i++, user, b,
		    err)) != 0)
			break;
	}
	free(user);
	cJSON_Delete(j);
	return rc;
}

/* The tweet object of a lookup answer: {"data": {...}} from X, perhaps
 * inside Composio's {"data": {"data": {...}}, "successful": true}. */
static const cJSON *
x_api_tweet(const cJSON *j)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "data");
	const cJSON *inner = cJSON_GetObjectItemCaseSensitive(d, "data");

	if (cJSON_IsObject(inner))
		d = inner;
	if (cJSON_IsArray(d))
		d = cJSON_GetArrayItem(d, 0);
	return cJSON_IsObject(d) && json_str(d, "id") != NULL ? d : NULL;
}

int
hist_parse_x_api(const struct hist_opts *o, const char *data, size_t len,
    struct hist_batch *b, struct error *err)
{
	static const struct { const char *name; enum hist_metric m; } pm[] = {
		{ "impression_count", HIST_IMPRESSIONS },
		{ "like_count", HIST_LIKES },
		{ "retweet_count", HIST_REPOSTS },
		{ "reply_count", HIST_REPLIES },
	};
	const cJSON *tw, *m;
	struct hist_item *it;
	const char *at, *text;
	char *user;
	time_t t;
	cJSON *j;
	size_t i;

	if ((j = hist_json_parse(o, data, len, 0, err)) == NULL)
		return -1;
	if ((tw = x_api_tweet(j)) == NULL) {
		cJSON_Delete(j);
		return 0;	/* not found: deleted, or not visible */
	}
	at = json_str(tw, "created_at");
	text = json_str(tw, "text");
	if (at == NULL || text == NULL || time_parse_iso(at, &t) != 0) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "%s: the tweet lookup answered "
		    "no created_at or text", o->name);
	}
	it = hist_item_add(b);
	it->platform_id = xstrdup(json_str(tw, "id"));
	user = hist_account_user(o->account);
	xasprintf(&it->url, "https://x.com/%s/status/%s",
	    *user != '\0' ? user : "i/web", it->platform_id);
	free(user);
	it->posted_at = t;
	it->text = hist_entities_decode(text, strlen(text));
	m = cJSON_GetObjectItemCaseSensitive(tw, "public_metrics");
	for (i = 0; i < sizeof pm / sizeof pm[0]; i++)
		hist_metric_json(b, it, pm[i].m,
		    cJSON_GetObjectItemCaseSensitive(m, pm[i].name));
	cJSON_Delete(j);
	return 0;
}
