/*
 * check_mastodon — `fronts check` for a Mastodon front: verify_credentials
 * (is the token the front's account?), the app's scopes, and the
 * instance's limits (/api/v2/instance, cached in .fronts for the planner).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/clock.h"
#include "core/instlimits.h"
#include "core/json.h"
#include "core/timeutil.h"
#include "net/channel.h"
#include "net/check_int.h"

#define MASTODON_DEFAULT_CHARS	500
#define MASTODON_DEFAULT_URL	23
/* The sane range of an instance's limits: forks raise max_characters to
 * tens of thousands, none to millions; a URL never counts more than a
 * tweet-sized post. */
#define CHECK_MAX_CHARACTERS	1000000
#define CHECK_MAX_URL_CHARACTERS	1000

/* The host of a URL ("https://h:8443/x" → "h"), or NULL; into buf. */
static const char *
mastodon_host(const char *url, char *buf, size_t size)
{
	const char *h = url != NULL ? strstr(url, "://") : NULL;

	if (h == NULL)
		return NULL;
	h += 3;
	snprintf(buf, size, "%.*s", (int)strcspn(h, ":/?#"), h);
	return buf;
}

static void
mastodon_scopes(struct check_target *t, const char *base, const char *auth)
{
	const cJSON *sc, *s;
	char *url, *why;
	cJSON *j;
	bool can = false;

	xasprintf(&url, "%s/api/v1/apps/verify_credentials", base);
	check_get(url, "Authorization", auth, &j, &why);
	free(url);
	if (j == NULL) {
		check_add(t, false, "app_scopes", "check the token", "the app "
		    "behind the token: %s", why);
		free(why);
		return;
	}
	sc = cJSON_GetObjectItemCaseSensitive(j, "scopes");
	cJSON_ArrayForEach(s, sc)
		if (cJSON_IsString(s) && (strcmp(s->valuestring, "write") == 0 ||
		    strcmp(s->valuestring, "write:statuses") == 0))
			can = true;
	if (!cJSON_IsArray(sc))
		check_add(t, true, "app_scopes", NULL, "the instance does not "
		    "say the app's scopes (before Mastodon 4.3); posting needs "
		    "write:statuses");
	else if (can)
		check_add(t, true, "app_scopes", NULL, "the token's app may post "
		    "(write:statuses)");
	else
		check_add(t, false, "app_scopes", "create a token whose app has "
		    "the write:statuses scope (Preferences → Development)",
		    "the token's app lacks write:statuses: it cannot post");
	cJSON_Delete(j);
}

/* A limit is a whole number from 1 to max, written as a JSON number:
 * anything else FAILs, naming the value as the instance wrote it. */
static bool
limit_ok(struct check_target *t, const cJSON *st, const char *name, int max,
    int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(st, name);
	char *shown;
	double d;

	d = cJSON_IsNumber(v) ? v->valuedouble : -1;
	if (cJSON_IsNumber(v) && d >= 1 && d <= max && d == (int)d) {
		*out = (int)d;
		return true;
	}
	shown = v != NULL ? cJSON_PrintUnformatted(v) : xstrdup("(absent)");
	check_add(t, false, "instance_limits", "ask the instance's admin, "
	    "and meanwhile set limits.max_length in fronts.json", "/api/v2/"
	    "instance: configuration.statuses.%s is %.60s, not a whole number "
	    "from 1 to %d", name, shown, max);
	free(shown);
	return false;
}

/* The media limits an instance announces, where it does (a value that
 * is absent or not a whole positive number keeps Mastodon's default). */
static void
mastodon_media_limits(const cJSON *conf, struct instlimits *l)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(conf, "statuses");
	const cJSON *ma = cJSON_GetObjectItemCaseSensitive(conf,
	    "media_attachments"), *s;
	long v;

	if (json_int_in(cJSON_GetObjectItemCaseSensitive(st,
	    "max_media_attachments"), 1, 1000, &v))
		l->max_media = (int)v;
	if (json_int_in(cJSON_GetObjectItemCaseSensitive(ma,
	    "image_size_limit"), 1, 1L << 40, &v))
		l->image_bytes = v;
	if (json_int_in(cJSON_GetObjectItemCaseSensitive(ma,
	    "image_matrix_limit"), 1, 1L << 40, &v))
		l->image_pixels = v;
	if (json_int_in(cJSON_GetObjectItemCaseSensitive(ma,
	    "description_limit"), 1, 1000000, &v))
		l->alt_length = (int)v;
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(ma,
	    "supported_mime_types"))
		if (cJSON_IsString(s))
			l->image_types |= instlimits_mime_bit(s->valuestring);
}

/* "images: 4 per post, 16777216 bytes, …" as the instance said them. */
static const char *
mastodon_media_text(const struct instlimits *l, char *buf, size_t len)
{
	if (l->max_media == 0 && l->image_bytes == 0 && l->image_pixels == 0 &&
	    l->alt_length == 0)
		return "no media limits announced (Mastodon's defaults hold)";
	snprintf(buf, len, "images: %d per post, %ld bytes, %ld pixels, alt "
	    "text %d characters (0: Mastodon's default)", l->max_media,
	    l->image_bytes, l->image_pixels, l->alt_length);
	return buf;
}

static void
mastodon_limits(struct check_target *t, const char *base, const char *dir,
    const struct front *f)
{
	struct instlimits l;
	struct error err = { 0 };
	const cJSON *st;
	cJSON *j;
	char *url, *why, at[32], media[160];

	memset(&l, 0, sizeof l);
	xasprintf(&url, "%s/api/v2/instance", base);
	check_get(url, NULL, NULL, &j, &why);
	free(url);
	if (j == NULL) {
		check_add(t, false, "instance_limits", "check the front's "
		    "\"instance\" URL", "/api/v2/instance: %s", why);
		free(why);
		return;
	}
	st = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    j, "configuration"), "statuses");
	if (cJSON_GetObjectItemCaseSensitive(st, "max_characters") == NULL) {
		cJSON_Delete(j);
		check_add(t, false, "instance_limits", "the instance may run an "
		    "old Mastodon; set limits.max_length in fronts.json",
		    "/api/v2/instance has no configuration.statuses limits");
		return;
	}
	if (!limit_ok(t, st, "max_characters", CHECK_MAX_CHARACTERS,
	    &l.max_characters) || !limit_ok(t, st,
	    "characters_reserved_per_url", CHECK_MAX_URL_CHARACTERS,
	    &l.url_characters)) {
		cJSON_Delete(j);
		return;
	}
	l.read_at = clock_now();
	mastodon_media_limits(cJSON_GetObjectItemCaseSensitive(j,
	    "configuration"), &l);
	cJSON_Delete(j);
	time_format_utc(l.read_at, at, sizeof at);
	if (instlimits_store(dir, base, &l, &err) != 0)
		check_add(t, false, "instance_limits", "make .fronts/ writable",
		    "%d characters, URLs %d, but the cache was not written: %s",
		    l.max_characters, l.url_characters, err.msg);
	else
		check_add(t, true, "instance_limits", NULL, "%d characters, "
		    "URLs count %d%s; %s; cached in .fronts/instance-limits.json "
		    "(read %s)%s", l.max_characters, l.url_characters,
		    l.max_characters != MASTODON_DEFAULT_CHARS ||
		    l.url_characters != MASTODON_DEFAULT_URL ?
		    " (not Mastodon's defaults, 500 and 23)" : "",
		    mastodon_media_text(&l, media, sizeof media), at,
		    f->limits.max_length != LIMIT_UNSET ? "; the front's own "
		    "limits.max_length wins" : "");
}

/* Is the token the front's account? Its name must be the account's; a
 * domain the account names must be the instance's or the profile's. */
static void
mastodon_account(struct check_target *t, const struct front *f,
    const char *base, const cJSON *me)
{
	const char *acct = json_str(me, "acct"), *a = f->account, *dom;
	char hb[256], hu[256], *who;
	const char *host = mastodon_host(base, hb, sizeof hb);
	const char *uhost = mastodon_host(json_str(me, "url"), hu, sizeof hu);
	bool ok;

	if (a != NULL && *a == '@')
		a++;
	dom = a != NULL ? strchr(a, '@') : NULL;
	xasprintf(&who, "@%s@%s", acct != NULL ? acct : "?", uhost != NULL ?
	    uhost : host != NULL ? host : "?");
	ok = a == NULL || *a == '\0' || (acct != NULL &&
	    strlen(acct) == (dom != NULL ? (size_t)(dom - a) : strlen(a)) &&
	    strncasecmp(acct, a, strlen(acct)) == 0 && (dom == NULL ||
	    (host != NULL && strcasecmp(dom + 1, host) == 0) ||
	    (uhost != NULL && strcasecmp(dom + 1, uhost) == 0)));
	if (ok)
		check_add(t, true, "verify_credentials", NULL, "the token is "
		    "%s's%s", who, a != NULL ? ", the front's account" : "");
	else
		check_add(t, false, "verify_credentials", "export the token of "
		    "the front's account, or fix the front's \"account\"",
		    "the token is %s's, but the front is configured as %s: "
		    "fronts would post as %s", who, f->account, who);
	free(who);
}

void
check_mastodon(struct check_target *t, const struct project *p,
    const struct front *f)
{
	const char *instance = channel_front_str(f, NULL, "instance");
	struct error err = { 0 };
	char *base, *url, *auth, *why;
	cJSON *j;
	long st;

	if (instance == NULL || channel_url_check(instance,
	    "fronts.json: mastodon \"instance\"", &err) != 0) {
		check_add(t, false, "instance", "set the front's \"instance\" to "
		    "the server's https:// URL", "%s", instance == NULL ?
		    "the front names no instance" : err.msg);
		return;
	}
	base = xstrdup_rtrim(instance, '/');
	mastodon_limits(t, base, p->dir, f);
	if (!t->variable_set) {
		free(base);
		return;
	}
	xasprintf(&auth, "Bearer %s", getenv(t->variable));
	xasprintf(&url, "%s/api/v1/accounts/verify_credentials", base);
	st = check_get(url, "Authorization", auth, &j, &why);
	free(url);
	if (j == NULL)
		check_add(t, false, "verify_credentials", st == 401 ? "the token "
		    "is wrong, expired or revoked: create a new one "
		    "(Preferences → Development) and export it" : st == 403 ?
		    "the token lacks the profile or read:accounts scope, or the "
		    "account is disabled: create a token with profile and "
		    "write:statuses" : "check the network and the instance URL",
		    "verify_credentials: %s", why);
	else {
		mastodon_account(t, f, base, j);
		mastodon_scopes(t, base, auth);
	}
	cJSON_Delete(j);
	free(why);
	explicit_bzero(auth, strlen(auth));
	free(auth);
	free(base);
}
