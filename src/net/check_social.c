/*
 * check_social — `fronts check` for a front: its channel's credential and
 * read-only calls that need it. Composio: the tool at the version the
 * front uses (GET /api/v3.1/tools/{tool}) and the connected account
 * (GET /api/v3.1/connected_accounts); Mastodon: verify_credentials, the
 * app's scopes, and the instance's limits (/api/v2/instance, cached);
 * Bluesky: createSession with the app password, then getProfile.
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
#include "net/check.h"
#include "net/pull.h"

#define MASTODON_DEFAULT_CHARS	500
#define MASTODON_DEFAULT_URL	23
/* The sane range of an instance's limits: forks raise max_characters to
 * tens of thousands, none to millions; a URL never counts more than a
 * tweet-sized post. */
#define CHECK_MAX_CHARACTERS	1000000
#define CHECK_MAX_URL_CHARACTERS	1000

/* The host of a URL ("https://h:8443/x" → "h"), or NULL; into buf. */
static const char *
url_host(const char *url, char *buf, size_t size)
{
	const char *h = url != NULL ? strstr(url, "://") : NULL;

	if (h == NULL)
		return NULL;
	h += 3;
	snprintf(buf, size, "%.*s", (int)strcspn(h, ":/?#"), h);
	return buf;
}

/* GET url with one secret header; the answer as JSON in *j (status 200)
 * or a step's failure text in *why. Returns the HTTP status, 0 when none
 * came back. */
static long
social_get(const char *url, const char *hname, const char *hvalue,
    cJSON **j, char **why)
{
	struct http_header h = { hname, hvalue, true };
	struct http_response resp;
	struct error err = { 0 };
	long status;
	int rc;

	*j = NULL;
	*why = NULL;
	rc = check_request(url, NULL, &h, hname != NULL ? 1 : 0, &resp, &err);
	status = rc == 0 ? resp.status : 0;
	if (status == 200 && (*j = check_json(&resp)) != NULL)
		;
	else
		*why = check_why(&resp, rc, &err);
	http_response_free(&resp);
	return status;
}

/* Composio */

/* One part of a Composio version ("20251201_00"): the digits before '_'
 * and after it; false for anything else. */
static bool
composio_version_parse(const char *v, unsigned long long *date,
    unsigned long long *n)
{
	const char *u = strchr(v, '_');

	if (u == NULL || u == v || u[1] == '\0' || u - v > 12 ||
	    strlen(u + 1) > 6 || strspn(v, "0123456789") != (size_t)(u - v) ||
	    strspn(u + 1, "0123456789") != strlen(u + 1))
		return false;
	*date = strtoull(v, NULL, 10);
	*n = strtoull(u + 1, NULL, 10);
	return true;
}

/* Versions by date, then by number; what is not a version sorts first. */
int
check_composio_version_cmp(const char *a, const char *b)
{
	unsigned long long da, na, db, nb;
	bool ka = composio_version_parse(a, &da, &na);
	bool kb = composio_version_parse(b, &db, &nb);

	if (ka != kb)
		return ka ? 1 : -1;
	if (!ka)
		return strcmp(a, b);
	if (da != db)
		return da < db ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

/* The newest of available_versions, in whatever order they come. */
static const char *
composio_newest(const cJSON *avail)
{
	const char *best = NULL;
	const cJSON *v;

	cJSON_ArrayForEach(v, avail)
		if (cJSON_IsString(v) && (best == NULL ||
		    check_composio_version_cmp(v->valuestring, best) > 0))
			best = v->valuestring;
	return best;
}

/* Every name of args (NULL-terminated) the tool's input parameters
 * list? The first that is not into *missing; true when the tool lists
 * none (nothing to compare with). */
static bool
composio_params_ok(const cJSON *tool, const char *const *args,
    const char **missing)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(tool, "input_parameters"),
	    "properties");

	*missing = NULL;
	if (!cJSON_IsObject(props))
		return true;
	for (; *args != NULL; args++)
		if (!cJSON_HasObjectItem(props, *args)) {
			*missing = *args;
			return false;
		}
	return true;
}

/* "a, b, c": the parameters the tool takes (caller frees). */
static char *
composio_param_list(const cJSON *tool)
{
	const cJSON *p;
	char *out = xstrdup(""), *n;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(tool, "input_parameters"),
	    "properties")) {
		xasprintf(&n, "%s%s%s", out, *out != '\0' ? ", " : "", p->string);
		free(out);
		out = n;
	}
	return out;
}

/* The arguments a post through the front's tool carries, as a
 * NULL-terminated list (caller frees with free_list); NULL when the
 * front cannot build one (its own step says why). */
static char **
composio_post_args(const struct front *f)
{
	/* On X a thread's later parts are replies: that argument too. */
	struct channel_reply reply = { "1", NULL, "1", NULL };
	struct channel_post post = { "check", NULL, 0,
	    f->platform == PLATFORM_X ? &reply : NULL };
	struct channel_call c;
	struct error err = { 0 };
	const cJSON *a;
	char **out = NULL;
	cJSON *body;
	int n = 0;

	if (channel_open_post(f, &post, "check", 0, 0, 0, &c, &err) != 0)
		return NULL;
	body = cJSON_Parse(c.post.body);
	channel_close(&c);
	out = xcalloc(1, sizeof *out);
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(body,
	    "arguments")) {
		out = xrealloc(out, (size_t)(n + 2) * sizeof *out);
		out[n++] = xstrdup(a->string);
		out[n] = NULL;
	}
	cJSON_Delete(body);
	return out;
}

static void
free_list(char **l)
{
	char **p;

	for (p = l; p != NULL && *p != NULL; p++)
		free(*p);
	free(l);
}

/* The step for the arguments fronts sends the tool. */
static void
composio_params_step(struct check_target *t, const cJSON *j,
    const char *tool, const char *const *args)
{
	const char *missing;
	char *takes;

	if (args == NULL)
		return;
	if (composio_params_ok(j, args, &missing)) {
		check_add(t, true, "parameters", NULL, "tool %s takes every "
		    "argument fronts sends", tool);
		return;
	}
	takes = composio_param_list(j);
	check_add(t, false, "parameters", "remove the argument from "
	    "composio.arguments, or pin composio.version to a version that "
	    "takes it", "tool %s has no input parameter \"%s\", which fronts "
	    "sends (it takes: %s)", tool, missing, takes);
	free(takes);
}

/* The tool at the front's version ("latest" when unpinned, as execute
 * is sent); the version it resolves to; the arguments fronts sends
 * among its input parameters. Its toolkit's slug into *toolkit when
 * asked. */
static void
composio_tool(struct check_target *t, const char *base, const char *key,
    const char *tool, const char *version, const char *const *args,
    char **toolkit)
{
	char *url, *why, *enc = check_urlenc(tool), *venc;
	const char *newest, *at;
	const cJSON *tk;
	cJSON *j;
	long st;

	if (toolkit != NULL)
		*toolkit = NULL;
	venc = check_urlenc(version != NULL ? version : "latest");
	xasprintf(&url, "%s/api/v3.1/tools/%s?version=%s", base, enc, venc);
	free(venc);
	st = social_get(url, "x-api-key", key, &j, &why);
	free(url);
	free(enc);
	if (j == NULL) {
		check_add(t, false, "tool", st == 401 ? "the Composio API key "
		    "is wrong or revoked: create one in Composio's settings" :
		    st == 404 || st == 400 ? "fix composio.tool, or set "
		    "composio.version to one of the tool's versions (or drop it "
		    "for the latest)" : "check the network and "
		    "COMPOSIO_BASE_URL", "tool %s at version %s: %s", tool,
		    version != NULL ? version : "latest", why);
		free(why);
		return;
	}
	tk = cJSON_GetObjectItemCaseSensitive(j, "toolkit");
	if (toolkit != NULL && json_str(tk, "slug") != NULL)
		*toolkit = xstrdup(json_str(tk, "slug"));
	/* A pinned version is named with the newest, when that is newer. */
	newest = composio_newest(cJSON_GetObjectItemCaseSensitive(j,
	    "available_versions"));
	at = json_str(j, "version") != NULL ? json_str(j, "version") : "?";
	if (version == NULL || newest == NULL ||
	    check_composio_version_cmp(newest, version) <= 0)
		newest = NULL;
	check_add(t, true, "tool", NULL, "tool %s exists at version %s%s%s%s",
	    tool, at, version == NULL ? " (the latest: fronts sends "
	    "\"latest\")" : "", newest != NULL ? "; the latest is " : "",
	    newest != NULL ? newest : "");
	composio_params_step(t, j, tool, args);
	cJSON_Delete(j);
}

/* One connected account's verdict; user is the front's composio.user_id
 * (NULL when it names none). */
static void
composio_account_step(struct check_target *t, const cJSON *a,
    const char *toolkit, const char *user)
{
	const char *status = json_str(a, "status");
	const char *owner = json_str(a, "user_id");
	const cJSON *ac = cJSON_GetObjectItemCaseSensitive(a, "auth_config");
	const cJSON *managed = cJSON_GetObjectItemCaseSensitive(ac,
	    "is_composio_managed");

	if (status == NULL || strcmp(status, "ACTIVE") != 0) {
		check_add(t, false, "connected_account", "reconnect the account "
		    "in Composio (its OAuth token has lapsed or was revoked)",
		    "connected account %s is %s%s%s", json_str(a, "id") !=
		    NULL ? json_str(a, "id") : "?", status != NULL ? status :
		    "of unknown status", json_str(a, "status_reason") != NULL ?
		    ": " : "", json_str(a, "status_reason") != NULL ?
		    json_str(a, "status_reason") : "");
		return;
	}
	if (toolkit != NULL && strcmp(toolkit, "twitter") == 0 &&
	    cJSON_IsTrue(managed)) {
		check_add(t, false, "connected_account", "create an app in the X "
		    "developer portal, a Composio auth config with its keys, and "
		    "connect the account through it", "connected account %s "
		    "uses Composio-managed X credentials, which Composio no "
		    "longer offers", json_str(a, "id"));
		return;
	}
	if (user != NULL && owner != NULL && strcmp(user, owner) != 0) {
		check_add(t, false, "connected_account", "set composio."
		    "connected_account_id to an account of the front's user, or "
		    "fix composio.user_id", "connected account %s is user %s's, "
		    "not the front's composio.user_id %s: fronts would post as "
		    "someone else", json_str(a, "id"), owner, user);
		return;
	}
	check_add(t, true, "connected_account", NULL, "connected account %s "
	    "(%s) is ACTIVE, user %s", json_str(a, "id") != NULL ?
	    json_str(a, "id") : "?", toolkit != NULL ? toolkit :
	    "toolkit unknown", owner != NULL ? owner : "unknown");
}

static void
composio_account(struct check_target *t, const struct front *f,
    const char *base, const char *key, const char *toolkit)
{
	const char *id = channel_front_str(f, "composio", "connected_account_id");
	const char *user = channel_front_str(f, "composio", "user_id");
	char *url, *why, *e1, *e2;
	const cJSON *items, *a, *pick = NULL;
	cJSON *j;
	long st;

	if (id == NULL && user == NULL) {
		check_add(t, false, "connected_account", "set composio.user_id "
		    "(or composio.connected_account_id) in fronts.json",
		    "the front names no Composio user or connected account");
		return;
	}
	e1 = check_urlenc(id != NULL ? id : user);
	e2 = check_urlenc(toolkit != NULL ? toolkit : "");
	if (id != NULL)
		xasprintf(&url, "%s/api/v3.1/connected_accounts/%s", base, e1);
	else
		xasprintf(&url, "%s/api/v3.1/connected_accounts?user_ids=%s%s%s",
		    base, e1, toolkit != NULL ? "&toolkit_slugs=" : "", e2);
	free(e1);
	free(e2);
	st = social_get(url, "x-api-key", key, &j, &why);
	free(url);
	if (j == NULL) {
		check_add(t, false, "connected_account", st == 404 ?
		    "fix composio.connected_account_id (Composio's dashboard "
		    "lists the accounts)" : "check the Composio API key and "
		    "the network", "connected account %s: %s", id != NULL ? id :
		    user, why);
		free(why);
		return;
	}
	if (id != NULL)
		composio_account_step(t, j, toolkit, user);
	else {
		items = cJSON_GetObjectItemCaseSensitive(j, "items");
		cJSON_ArrayForEach(a, items)
			if (pick == NULL || (json_str(a, "status") != NULL &&
			    strcmp(json_str(a, "status"), "ACTIVE") == 0))
				pick = a;
		if (pick == NULL)
			check_add(t, false, "connected_account", "connect the "
			    "account in Composio for this user_id", "user %s has "
			    "no %s connected account", user, toolkit != NULL ?
			    toolkit : "such");
		else
			composio_account_step(t, pick, toolkit, user);
	}
	cJSON_Delete(j);
}

static void
check_composio(struct check_target *t, const struct front *f)
{
	const char *tool = channel_front_str(f, "composio", "tool");
	const char *version = channel_front_str(f, "composio", "version");
	const char *key = getenv(t->variable);
	char *base = channel_composio_base(), *toolkit = NULL, **args;
	struct error err = { 0 };

	if (channel_url_check(base, "COMPOSIO_BASE_URL", &err) != 0)
		check_add(t, false, "endpoint", "set COMPOSIO_BASE_URL to an "
		    "https:// URL, or unset it", "%s", err.msg);
	else if (tool == NULL)
		check_add(t, false, "tool", "set composio.tool in fronts.json",
		    "the front names no Composio tool");
	else {
		args = composio_post_args(f);
		composio_tool(t, base, key, tool, version,
		    (const char *const *)args, &toolkit);
		free_list(args);
		if (pull_supported(f) && f->platform == PLATFORM_X)
			composio_tool(t, base, key, pull_x_read_tool(f), version,
			    pull_x_lookup_args, NULL);
		composio_account(t, f, base, key, toolkit);
	}
	free(toolkit);
	free(base);
}

/* Mastodon */

static void
mastodon_scopes(struct check_target *t, const char *base, const char *auth)
{
	const cJSON *sc, *s;
	char *url, *why;
	cJSON *j;
	bool can = false;

	xasprintf(&url, "%s/api/v1/apps/verify_credentials", base);
	social_get(url, "Authorization", auth, &j, &why);
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
	social_get(url, NULL, NULL, &j, &why);
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
	const char *host = url_host(base, hb, sizeof hb);
	const char *uhost = url_host(json_str(me, "url"), hu, sizeof hu);
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

static void
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
	st = social_get(url, "Authorization", auth, &j, &why);
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

/* Bluesky */

/* Is the session the front's account? Its handle must be the front's
 * "handle", and its DID or handle the front's "account" (either form). */
static bool
bluesky_account(struct check_target *t, const struct front *f,
    const char *handle, const cJSON *session)
{
	const char *h = json_str(session, "handle"), *did = json_str(session,
	    "did"), *a = f->account;

	if (a != NULL && *a == '@')
		a++;
	if (h == NULL)
		h = handle;
	if (strcasecmp(h, handle) == 0 && (a == NULL || *a == '\0' ||
	    strcasecmp(a, h) == 0 || (did != NULL && strcmp(a, did) == 0)))
		return true;
	check_add(t, false, "session", "fix the front's \"handle\" and "
	    "\"account\", or export the app password of the front's account",
	    "the session is %s's (%s), but the front is configured as %s "
	    "(handle %s): fronts would post as %s", h, did != NULL ? did : "?",
	    f->account != NULL ? f->account : "?", handle, h);
	return false;
}

static void
check_bluesky(struct check_target *t, const struct front *f)
{
	const char *handle = channel_bluesky_handle(f);
	struct http_header ct = { "Content-Type", "application/json", false };
	struct http_response resp;
	struct error err = { 0 };
	char *service = channel_bluesky_service(f), *url, *body, *why, *auth;
	const char *did;
	cJSON *b, *j = NULL, *prof;
	int rc;

	if (handle == NULL || channel_url_check(service,
	    "fronts.json: bluesky \"service\"", &err) != 0) {
		check_add(t, false, "session", "set the front's \"handle\" (and "
		    "an https:// \"service\" if not bsky.social)", "%s",
		    handle == NULL ? "the front names no handle" : err.msg);
		free(service);
		return;
	}
	b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "identifier", handle);
	cJSON_AddStringToObject(b, "password", getenv(t->variable));
	body = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	xasprintf(&url, "%s/xrpc/com.atproto.server.createSession", service);
	rc = check_request(url, body, &ct, 1, &resp, &err);
	free(url);
	explicit_bzero(body, strlen(body));
	free(body);
	if (rc == 0 && resp.status == 200)
		j = check_json(&resp);
	if (json_str(j, "accessJwt") == NULL || json_str(j, "did") == NULL) {
		why = check_why(&resp, rc, &err);
		check_add(t, false, "session", rc == 0 && resp.status == 401 ?
		    "the app password is wrong or revoked: create one (Settings "
		    "→ Privacy and security → App passwords) and export it" :
		    "check the network and the \"service\" URL",
		    "createSession for %s: %s", handle, why);
		free(why);
		cJSON_Delete(j);
		http_response_free(&resp);
		free(service);
		return;
	}
	http_response_free(&resp);
	did = json_str(j, "did");
	if (!bluesky_account(t, f, handle, j)) {
		cJSON_Delete(j);
		free(service);
		return;
	}
	check_add(t, true, "session", NULL, "session for %s (%s)", handle, did);
	xasprintf(&auth, "Bearer %s", json_str(j, "accessJwt"));
	why = check_urlenc(did);
	xasprintf(&url, "%s/xrpc/app.bsky.actor.getProfile?actor=%s", service,
	    why);
	free(why);
	social_get(url, "Authorization", auth, &prof, &why);
	if (prof == NULL)
		check_add(t, false, "profile", "check the handle and the "
		    "\"service\" URL", "getProfile: %s", why);
	else
		check_add(t, true, "profile", NULL, "profile @%s read",
		    json_str(prof, "handle") != NULL ? json_str(prof,
		    "handle") : handle);
	cJSON_Delete(prof);
	cJSON_Delete(j);
	free(why);
	explicit_bzero(auth, strlen(auth));
	free(auth);
	free(url);
	free(service);
}

void
check_front(const struct project *p, const struct front *f,
    struct check_target *t)
{
	enum channel_kind kind;
	struct error err = { 0 };
	const char *name = channel_kind_of(f, &kind, &err);
	char *what;

	if (name == NULL) {
		check_target_init(t, f->id, platform_name(f->platform), NULL);
		check_add(t, false, "channel", "fix the front in fronts.json",
		    "%s", err.msg);
		return;
	}
	if (kind == CHANNEL_COMPOSIO)
		xasprintf(&what, "composio/%s", channel_front_str(f, "composio",
		    "tool"));
	else
		what = xstrdup(name);
	check_target_init(t, f->id, what, channel_secret_var(f));
	free(what);
	if (!check_credential(t, "export the credential in that variable; "
	    "fronts reads it from the environment only") &&
	    kind != CHANNEL_MASTODON)
		return;
	switch (kind) {
	case CHANNEL_COMPOSIO:
		check_composio(t, f);
		break;
	case CHANNEL_MASTODON:
		check_mastodon(t, p, f);
		break;
	default:
		check_bluesky(t, f);
		break;
	}
}
