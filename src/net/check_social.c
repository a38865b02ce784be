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
#include <time.h>

#include "core/clock.h"
#include "core/instlimits.h"
#include "core/json.h"
#include "core/timeutil.h"
#include "net/channel.h"
#include "net/check.h"

#define MASTODON_DEFAULT_CHARS	500
#define MASTODON_DEFAULT_URL	23

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

/* The tool at the front's version; its toolkit's slug into *toolkit. */
static void
composio_tool(struct check_target *t, const char *base, const char *key,
    const char *tool, const char *version, char **toolkit)
{
	char *url, *why, *enc = check_urlenc(tool), *venc;
	const cJSON *tk, *avail, *v;
	cJSON *j;
	long st;

	*toolkit = NULL;
	if (version != NULL) {
		venc = check_urlenc(version);
		xasprintf(&url, "%s/api/v3.1/tools/%s?version=%s", base, enc,
		    venc);
		free(venc);
	} else
		xasprintf(&url, "%s/api/v3.1/tools/%s", base, enc);
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
	if (json_str(tk, "slug") != NULL)
		*toolkit = xstrdup(json_str(tk, "slug"));
	/* A pinned version is named with the latest, when that is newer. */
	avail = cJSON_GetObjectItemCaseSensitive(j, "available_versions");
	v = cJSON_GetArrayItem(avail, cJSON_GetArraySize(avail) - 1);
	if (version == NULL || !cJSON_IsString(v) ||
	    strcmp(v->valuestring, version) == 0)
		v = NULL;
	check_add(t, true, "tool", NULL, "tool %s exists at version %s%s%s%s",
	    tool, json_str(j, "version") != NULL ? json_str(j, "version") :
	    "?", version == NULL ? " (the latest: v3.1's default)" : "",
	    v != NULL ? "; the latest is " : "", v != NULL ? v->valuestring :
	    "");
	cJSON_Delete(j);
}

/* One connected account's verdict. */
static void
composio_account_step(struct check_target *t, const cJSON *a,
    const char *toolkit)
{
	const char *status = json_str(a, "status");
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
	check_add(t, true, "connected_account", NULL, "connected account %s "
	    "(%s) is ACTIVE", json_str(a, "id") != NULL ? json_str(a, "id") :
	    "?", toolkit != NULL ? toolkit : "toolkit unknown");
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
		composio_account_step(t, j, toolkit);
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
			composio_account_step(t, pick, toolkit);
	}
	cJSON_Delete(j);
}

static void
check_composio(struct check_target *t, const struct front *f)
{
	const char *tool = channel_front_str(f, "composio", "tool");
	const char *version = channel_front_str(f, "composio", "version");
	const char *key = getenv(t->variable);
	char *base = channel_composio_base(), *toolkit = NULL;
	struct error err = { 0 };

	if (channel_url_check(base, "COMPOSIO_BASE_URL", &err) != 0)
		check_add(t, false, "endpoint", "set COMPOSIO_BASE_URL to an "
		    "https:// URL, or unset it", "%s", err.msg);
	else if (tool == NULL)
		check_add(t, false, "tool", "set composio.tool in fronts.json",
		    "the front names no Composio tool");
	else {
		composio_tool(t, base, key, tool, version, &toolkit);
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

static void
mastodon_limits(struct check_target *t, const char *base, const char *dir,
    const struct front *f)
{
	struct instlimits l;
	struct error err = { 0 };
	const cJSON *st;
	cJSON *j;
	char *url, *why, at[32];

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
	l.max_characters = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(st,
	    "max_characters")) ? cJSON_GetObjectItemCaseSensitive(st,
	    "max_characters")->valueint : 0;
	l.url_characters = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(st,
	    "characters_reserved_per_url")) ? cJSON_GetObjectItemCaseSensitive(
	    st, "characters_reserved_per_url")->valueint : 0;
	l.read_at = clock_now();
	cJSON_Delete(j);
	if (l.max_characters < 1 || l.url_characters < 1) {
		check_add(t, false, "instance_limits", "the instance may run an "
		    "old Mastodon; set limits.max_length in fronts.json",
		    "/api/v2/instance has no configuration.statuses limits");
		return;
	}
	time_format_utc(l.read_at, at, sizeof at);
	if (instlimits_store(dir, base, &l, &err) != 0)
		check_add(t, false, "instance_limits", "make .fronts/ writable",
		    "%d characters, URLs %d, but the cache was not written: %s",
		    l.max_characters, l.url_characters, err.msg);
	else
		check_add(t, true, "instance_limits", NULL, "%d characters, "
		    "URLs count %d%s; cached in .fronts/instance-limits.json "
		    "(read %s)%s", l.max_characters, l.url_characters,
		    l.max_characters != MASTODON_DEFAULT_CHARS ||
		    l.url_characters != MASTODON_DEFAULT_URL ?
		    " (not Mastodon's defaults, 500 and 23)" : "", at,
		    f->limits.max_length != LIMIT_UNSET ? "; the front's own "
		    "limits.max_length wins" : "");
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
		check_add(t, true, "verify_credentials", NULL, "the token is "
		    "@%s's", json_str(j, "acct") != NULL ? json_str(j,
		    "acct") : "?");
		mastodon_scopes(t, base, auth);
	}
	cJSON_Delete(j);
	free(why);
	explicit_bzero(auth, strlen(auth));
	free(auth);
	free(base);
}

/* Bluesky */

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
