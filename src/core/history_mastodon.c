/*
 * history_mastodon — a Mastodon account archive's outbox.json (an
 * ActivityStreams OrderedCollection of Create and Announce activities)
 * and the statuses API's answer (GET /api/v1/accounts/:id/statuses), the
 * one `fronts history pull` reads.
 *
 * Kept: public, unlisted and followers-only notes, and replies to
 * oneself. Skipped, with the reason: boosts (Announce, or a status with
 * a reblog), direct messages and replies to others. An outbox carries no
 * counts, so its metrics stay unknown; the API gives likes
 * (favourites_count), reposts (reblogs_count) and replies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/history_int.h"
#include "core/timeutil.h"

static bool
addressed_public(const cJSON *act)
{
	static const char *keys[] = { "to", "cc" };
	const cJSON *v;
	const char *s;
	size_t i, n;

	for (i = 0; i < 2; i++)
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(act,
		    keys[i])) {
			if (!cJSON_IsString(v))
				continue;
			s = v->valuestring;
			n = strlen(s);
			if (strcmp(s, "https://www.w3.org/ns/activitystreams#Public")
			    == 0 || strcmp(s, "as:Public") == 0 ||
			    (n >= 10 && strcmp(s + n - 10, "/followers") == 0))
				return true;
		}
	return false;
}

/* Why a Note is not one of the account's posts, or NULL. */
static const char *
outbox_skip(const cJSON *note, const char *actor)
{
	const char *to = json_str(note, "inReplyTo");
	size_t n = actor != NULL ? strlen(actor) : 0;

	if (!addressed_public(note))
		return "a direct message";
	if (to != NULL && (n == 0 || strncmp(to, actor, n) != 0 ||
	    to[n] != '/'))
		return "a reply to another account (replies to others are "
		    "conversation, not posts)";
	return NULL;
}

/* Is actor (https://host/users/NAME) the account @NAME[@host]? An
 * account without a domain is matched by its name alone. */
static bool
actor_is(const char *actor, const char *account)
{
	const char *a = account, *dom, *host, *slash;
	char *name;
	bool ok;

	if (a == NULL || *a == '\0' || actor == NULL)
		return true;	/* nothing to compare with */
	if (*a == '@')
		a++;
	dom = strchr(a, '@');
	name = hist_last_segment(actor);
	ok = strlen(name) == (dom != NULL ? (size_t)(dom - a) : strlen(a)) &&
	    strncasecmp(name, a, strlen(name)) == 0;
	free(name);
	if (!ok || dom == NULL)
		return ok;
	host = strstr(actor, "://");
	host = host != NULL ? host + 3 : actor;
	slash = strchr(host, '/');
	return strlen(dom + 1) == (slash != NULL ? (size_t)(slash - host) :
	    strlen(host)) && strncasecmp(host, dom + 1, strlen(dom + 1)) == 0;
}

static int
outbox_note(const struct hist_opts *o, const struct hist_src *src,
    const cJSON *act, int idx, struct hist_batch *b, struct error *err)
{
	const cJSON *note = cJSON_GetObjectItemCaseSensitive(act, "object");
	const char *id = json_str(note, "id"), *at = json_str(note, "published");
	const char *html = json_str(note, "content"), *url, *why;
	struct hist_item *it;
	char what[80];
	time_t t;

	if (id == NULL || at == NULL || html == NULL)
		return error_set(err, EXIT_ERROR, "%s: orderedItems[%d]: a "
		    "Note without id, published or content", o->name, idx);
	snprintf(what, sizeof what, "orderedItems[%d]", idx);
	if (time_parse_iso(at, &t) != 0)
		return hist_bad_time(o, src, what, "published", at, err);
	if (!o->force && !actor_is(json_str(act, "actor"), o->account))
		return error_set(err, EXIT_ERROR, "%s: %s: the post is %.200s's, "
		    "not the front's account %s: an export of another account "
		    "(give --force to import it into this front anyway)",
		    o->name, what, json_str(act, "actor"), o->account);
	if ((why = outbox_skip(note, json_str(act, "actor"))) != NULL) {
		hist_skip_add(b, what, "%s", why);
		return 0;
	}
	it = hist_item_add(b);
	it->platform_id = hist_last_segment(id);
	url = json_str(note, "url");
	it->url = xstrdup(url != NULL ? url : id);
	it->posted_at = t;
	it->text = hist_html_text(html);
	return 0;
}

int
hist_parse_mastodon(const struct hist_opts *o, const char *data, size_t len,
    struct hist_batch *b, struct error *err)
{
	const struct hist_src src = { data, len };
	const cJSON *items, *act, *obj;
	const char *type, *otype;
	char what[64];
	cJSON *j;
	int i = 0, rc = 0;

	if ((j = hist_json_parse(o, data, len, 0, err)) == NULL)
		return -1;
	items = cJSON_GetObjectItemCaseSensitive(j, "orderedItems");
	if (!cJSON_IsArray(items)) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "%s: expected an "
		    "ActivityStreams collection with \"orderedItems\"", o->name);
	}
	cJSON_ArrayForEach(act, items) {
		snprintf(what, sizeof what, "orderedItems[%d]", i);
		type = json_str(act, "type");
		obj = cJSON_GetObjectItemCaseSensitive(act, "object");
		otype = json_str(obj, "type");
		if (type != NULL && strcmp(type, "Announce") == 0)
			hist_skip_add(b, what, "a boost (Announce)");
		else if (type == NULL || strcmp(type, "Create") != 0 ||
		    otype == NULL || strcmp(otype, "Note") != 0)
			hist_skip_add(b, what, "a %s activity, not a Create "
			    "of a Note", type != NULL ? type : "typeless");
		else if ((rc = outbox_note(o, &src, act, i, b, err)) != 0)
			break;
		i++;
	}
	cJSON_Delete(j);
	return rc;
}

/* Why a status is not one of the account's posts, or NULL. */
static const char *
status_skip(const cJSON *st)
{
	const cJSON *acct = cJSON_GetObjectItemCaseSensitive(st, "account");
	const char *own = json_str(acct, "id");
	const char *to = json_str(st, "in_reply_to_account_id");
	const char *vis = json_str(st, "visibility");
	const cJSON *reblog = cJSON_GetObjectItemCaseSensitive(st, "reblog");

	if (reblog != NULL && !cJSON_IsNull(reblog))
		return "a boost";
	if (vis != NULL && strcmp(vis, "direct") == 0)
		return "a direct message";
	if (to != NULL && (own == NULL || strcmp(to, own) != 0))
		return "a reply to another account (replies to others are "
		    "conversation, not posts)";
	return NULL;
}

static int
api_status(const struct hist_opts *o, const struct hist_src *src,
    const cJSON *st, int idx, struct hist_batch *b, struct error *err)
{
	const char *id = json_str(st, "id"), *at = json_str(st, "created_at");
	const char *html = json_str(st, "content"), *url, *why;
	struct hist_item *it;
	char what[80];
	time_t t;

	if (id == NULL || at == NULL || html == NULL)
		return error_set(err, EXIT_ERROR, "%s: status %d: expected id, "
		    "created_at (ISO-8601) and content", o->name, idx);
	snprintf(what, sizeof what, "status %.40s", id);
	if (time_parse_iso(at, &t) != 0)
		return hist_bad_time(o, src, what, "created_at", at, err);
	free(b->next);
	b->next = xstrdup(id);
	if ((why = status_skip(st)) != NULL) {
		hist_skip_add(b, what, "%s", why);
		return 0;
	}
	it = hist_item_add(b);
	it->platform_id = xstrdup(id);
	if ((url = json_str(st, "url")) != NULL)
		it->url = xstrdup(url);
	it->posted_at = t;
	it->text = hist_html_text(html);
	hist_metric_json(b, it, HIST_LIKES,
	    cJSON_GetObjectItemCaseSensitive(st, "favourites_count"));
	hist_metric_json(b, it, HIST_REPOSTS,
	    cJSON_GetObjectItemCaseSensitive(st, "reblogs_count"));
	hist_metric_json(b, it, HIST_REPLIES,
	    cJSON_GetObjectItemCaseSensitive(st, "replies_count"));
	return 0;
}

int
hist_parse_mastodon_api(const struct hist_opts *o, const char *data,
    size_t len, struct hist_batch *b, struct error *err)
{
	const struct hist_src src = { data, len };
	const cJSON *st;
	cJSON *j;
	int i = 0, rc = 0;

	if ((j = hist_json_parse(o, data, len, 0, err)) == NULL)
		return -1;
	if (!cJSON_IsArray(j)) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "%s: expected an array of "
		    "statuses", o->name);
	}
	cJSON_ArrayForEach(st, j)
		if ((rc = api_status(o, &src, st, i++, b, err)) != 0)
			break;
	cJSON_Delete(j);
	return rc;
}
