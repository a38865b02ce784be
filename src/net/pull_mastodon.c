/*
 * pull_mastodon — a Mastodon front's statuses with their counts: the
 * account from GET /api/v1/accounts/lookup?acct=USER, then
 * GET /api/v1/accounts/:id/statuses?limit=40&exclude_reblogs=true, paged
 * with max_id (the oldest id of the page before), newest first. The token
 * (MASTODON_ACCESS_TOKEN or the front's token_env) is sent when set, so
 * followers-only posts come back too; public accounts need none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/history.h"
#include "core/timeutil.h"
#include "net/channel.h"
#include "net/pull_int.h"

static int
account_id(struct pull_session *s, const char *base, char **id,
    struct error *err)
{
	char *user = NULL, *acct, *url;
	struct http_response r;
	const cJSON *v;
	cJSON *j;
	enum pull_get g;
	const char *a = s->o->front->account;

	*id = NULL;
	if (a == NULL || *a == '\0')
		return error_set(err, EXIT_USAGE, "fronts.json: front \"%s\": "
		    "\"account\" (@user@instance) is missing", s->o->front->id);
	user = xstrdup(a[0] == '@' ? a + 1 : a);
	if (strchr(user, '@') != NULL)
		*strchr(user, '@') = '\0';
	acct = pull_escape(user);
	xasprintf(&url, "%s/api/v1/accounts/lookup?acct=%s", base, acct);
	g = pull_get(s, url, "every post", &r, err);
	free(url);
	free(acct);
	if (g == PULL_OK) {
		j = cJSON_Parse(r.body);
		v = cJSON_GetObjectItemCaseSensitive(j, "id");
		if (cJSON_IsString(v))
			*id = xstrdup(v->valuestring);
		else
			error_set(err, EXIT_NETWORK, "%s: the account lookup of "
			    "%s answered no id", s->service, user);
		cJSON_Delete(j);
	}
	http_response_free(&r);
	free(user);
	if (g == PULL_STOPPED)
		return 0;
	return *id != NULL ? 0 : -1;
}

static int
pages(struct pull_session *s, const char *base, const char *id,
    struct error *err)
{
	struct hist_opts ho = { s->service, s->o->front->account, NULL,
	    s->o->now, true };
	struct hist_batch page;
	struct http_response r;
	char *url, *max_id = NULL, left[160], since[32];
	enum pull_get g;
	int n, rc = 0, maxp = s->o->max_pages > 0 ? s->o->max_pages : 50;
	bool done = false;

	time_format_utc(s->o->since, since, sizeof since);
	for (n = 0; !done && n < maxp; n++) {
		xasprintf(&url, "%s/api/v1/accounts/%s/statuses?limit=40&"
		    "exclude_reblogs=true%s%s", base, id,
		    max_id != NULL ? "&max_id=" : "", max_id != NULL ? max_id : "");
		if (max_id == NULL)
			snprintf(left, sizeof left, "every post back to %s",
			    since);
		else
			snprintf(left, sizeof left, "posts older than status "
			    "%.40s back to %s", max_id, since);
		g = pull_get(s, url, left, &r, err);
		free(url);
		if (g != PULL_OK) {
			rc = g == PULL_FAILED ? -1 : 0;
			break;
		}
		rc = hist_parse(HIST_FMT_MASTODON_API, &ho, r.body, r.len, &page,
		    err);
		http_response_free(&r);
		if (rc != 0)
			break;
		free(max_id);
		max_id = page.next != NULL ? xstrdup(page.next) : NULL;
		done = pull_take_page(s, &page) || max_id == NULL;
		hist_batch_free(&page);
	}
	s->out->complete = rc == 0 && done && s->out->stopped == NULL;
	free(max_id);
	return rc;
}

int
pull_mastodon(struct pull_session *s, struct error *err)
{
	const struct front *f = s->o->front;
	const char *instance = channel_front_str(f, NULL, "instance");
	const char *token = getenv(channel_secret_var(f));
	char *base, *auth = NULL, *id;
	int rc;

	if (instance == NULL)
		return error_set(err, EXIT_USAGE, "fronts.json: front \"%s\": "
		    "\"instance\" (the Mastodon server's URL) is missing", f->id);
	if (channel_url_check(instance, "fronts.json: mastodon \"instance\"",
	    err) != 0)
		return -1;
	base = xstrdup_rtrim(instance, '/');
	s->service = strstr(base, "://") != NULL ? strstr(base, "://") + 3 : base;
	if (token != NULL && *token != '\0')
		xasprintf(&auth, "Bearer %s", token);
	s->auth = auth;
	rc = account_id(s, base, &id, err);
	if (rc == 0 && id != NULL)
		rc = pages(s, base, id, err);
	free(id);
	free(auth);
	s->auth = NULL;
	free(base);
	return rc;
}
