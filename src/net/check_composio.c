/*
 * check_composio — `fronts check` for a front on X, LinkedIn or Reddit:
 * the tool at the version the front uses (GET /api/v3.1/tools/{tool}),
 * the arguments fronts sends among its input parameters, X's read tool
 * and its media tool likewise, and the connected account
 * (GET /api/v3.1/connected_accounts). What Composio answers is read by
 * check_composio_tool_read and check_composio_account_read, which take
 * the bytes alone so tests/fuzz/fuzz_composio_schema.c can reach them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "net/check_int.h"
#include "net/platform.h"
#include "net/pull.h"

/* The fix for an answer Composio would not give. */
static const char composio_foreign[] = "check COMPOSIO_BASE_URL: the server "
    "there does not answer as Composio does";

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
		if (cJSON_GetObjectItemCaseSensitive(props, *args) == NULL) {
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
	/* On X a thread's later parts are replies, and a post with images
	 * names their media ids: those arguments too. */
	const struct platform_composio *cp = platform_of(f->platform)->composio;
	static const unsigned char byte[1];
	struct channel_image im = { byte, 1, "image/jpeg", NULL, 1, 1 };
	struct channel_reply reply = { "1", NULL, "1", NULL };
	struct channel_post post = { "check", &im, cp->media_tool != NULL ||
	    cp->media_files_arg != NULL, cp->replies ? &reply : NULL };
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

/* Where the post tool takes the files (LinkedIn's `images`), its schema
 * must say an array of Composio's file arguments: {"type": "array",
 * "items": {"file_uploadable": true, "properties": {..., "s3key"}}}, as
 * Composio's SDK marks a FileUploadable. Anything else fails, naming what
 * the schema says, before a live run sends files the tool would drop. */
static void
composio_files_step(struct check_target *t, const cJSON *j,
    const char *tool, const char *arg)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    j, "input_parameters"), "properties"), arg);
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(p, "items");
	const char *type = json_str(p, "type"), *itype = json_str(items,
	    "type");
	bool ok;

	ok = type != NULL && strcmp(type, "array") == 0 &&
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(items,
	    "file_uploadable")) && cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(items, "properties"), "s3key") !=
	    NULL;
	if (ok) {
		check_add(t, true, "images", NULL, "tool %s takes \"%s\" as an "
		    "array of uploaded files", tool, arg);
		return;
	}
	check_add(t, false, "images", "send this front no images (a variant "
	    "without media serves it) until the tool takes files again",
	    "tool %s's \"%s\" is %s%s%s%s, not an array of uploaded files "
	    "(items with file_uploadable and an s3key): fronts would send "
	    "images it does not take", tool, arg, p == NULL ? "absent" :
	    type != NULL ? type : "of no type", items != NULL ? " of " : "",
	    items != NULL ? (itype != NULL ? itype : "untyped items") : "",
	    items != NULL && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
	    items, "file_uploadable")) ? " (not file_uploadable)" : "");
}

/* The steps a tool's schema (j, Composio's answer) gives: the version it
 * resolves to, the arguments fronts sends among its input parameters,
 * the files argument's shape. An answer that is not an object is no
 * tool. */
static void
composio_tool_json(struct check_target *t, const cJSON *j, const char *tool,
    const char *version, const char *const *args, const char *files,
    char **toolkit)
{
	const char *newest, *at;

	if (!cJSON_IsObject(j)) {
		check_add(t, false, "tool", composio_foreign,
		    "tool %s at version %s: the answer is not a tool (a JSON "
		    "object)", tool, version != NULL ? version : "latest");
		return;
	}
	if (toolkit != NULL && json_str(cJSON_GetObjectItemCaseSensitive(j,
	    "toolkit"), "slug") != NULL)
		*toolkit = xstrdup(json_str(cJSON_GetObjectItemCaseSensitive(j,
		    "toolkit"), "slug"));
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
	if (files != NULL)
		composio_files_step(t, j, tool, files);
}

void
check_composio_tool_read(struct check_target *t, const char *body,
    size_t len, const char *tool, const char *version,
    const char *const *args, const char *files, char **toolkit)
{
	cJSON *j = cJSON_ParseWithLength(body, len);

	if (toolkit != NULL)
		*toolkit = NULL;
	if (j == NULL)
		check_add(t, false, "tool", composio_foreign,
		    "tool %s at version %s: the answer is not JSON", tool,
		    version != NULL ? version : "latest");
	else
		composio_tool_json(t, j, tool, version, args, files, toolkit);
	cJSON_Delete(j);
}

/* The tool at the front's version ("latest" when unpinned, as execute
 * is sent), read by composio_tool_json. Its toolkit's slug into
 * *toolkit when asked. */
static void
composio_tool(struct check_target *t, const char *base, const char *key,
    const char *tool, const char *version, const char *const *args,
    const char *files, char **toolkit)
{
	char *url, *why, *enc = check_urlenc(tool), *venc;
	cJSON *j;
	long st;

	if (toolkit != NULL)
		*toolkit = NULL;
	venc = check_urlenc(version != NULL ? version : "latest");
	xasprintf(&url, "%s/api/v3.1/tools/%s?version=%s", base, enc, venc);
	free(venc);
	st = check_get(url, "x-api-key", key, &j, &why);
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
	composio_tool_json(t, j, tool, version, args, files, toolkit);
	cJSON_Delete(j);
}

/* An account's id for a step's detail: "?" when the answer names none. */
static const char *
composio_account_id(const cJSON *a)
{
	return json_str(a, "id") != NULL ? json_str(a, "id") : "?";
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
		    "connected account %s is %s%s%s", composio_account_id(a),
		    status != NULL ? status : "of unknown status",
		    json_str(a, "status_reason") != NULL ? ": " : "",
		    json_str(a, "status_reason") != NULL ?
		    json_str(a, "status_reason") : "");
		return;
	}
	if (toolkit != NULL && strcmp(toolkit, "twitter") == 0 &&
	    cJSON_IsTrue(managed)) {
		check_add(t, false, "connected_account", "create an app in the X "
		    "developer portal, a Composio auth config with its keys, and "
		    "connect the account through it", "connected account %s "
		    "uses Composio-managed X credentials, which Composio no "
		    "longer offers", composio_account_id(a));
		return;
	}
	if (user != NULL && owner != NULL && strcmp(user, owner) != 0) {
		check_add(t, false, "connected_account", "set composio."
		    "connected_account_id to an account of the front's user, or "
		    "fix composio.user_id", "connected account %s is user %s's, "
		    "not the front's composio.user_id %s: fronts would post as "
		    "someone else", composio_account_id(a), owner, user);
		return;
	}
	check_add(t, true, "connected_account", NULL, "connected account %s "
	    "(%s) is ACTIVE, user %s", composio_account_id(a), toolkit != NULL ?
	    toolkit : "toolkit unknown", owner != NULL ? owner : "unknown");
}

/* The account step from Composio's answer j: the account itself when
 * the front names its id, else the user's list, an ACTIVE one first. */
static void
composio_accounts_json(struct check_target *t, const cJSON *j,
    const char *id, const char *user, const char *toolkit)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(j, "items");
	const cJSON *a, *pick = NULL;

	if (id != NULL) {
		composio_account_step(t, j, toolkit, user);
		return;
	}
	/* An object's members are no accounts, nor is what is not one. */
	if (cJSON_IsArray(items))
		cJSON_ArrayForEach(a, items)
			if (cJSON_IsObject(a) && (pick == NULL ||
			    (json_str(a, "status") != NULL &&
			    strcmp(json_str(a, "status"), "ACTIVE") == 0)))
				pick = a;
	if (pick == NULL)
		check_add(t, false, "connected_account", "connect the account "
		    "in Composio for this user_id", "user %s has no %s "
		    "connected account", user != NULL ? user : "?",
		    toolkit != NULL ? toolkit : "such");
	else
		composio_account_step(t, pick, toolkit, user);
}

void
check_composio_account_read(struct check_target *t, const char *body,
    size_t len, const char *id, const char *user, const char *toolkit)
{
	cJSON *j = cJSON_ParseWithLength(body, len);

	if (j == NULL)
		check_add(t, false, "connected_account",
		    composio_foreign, "connected account %s: the answer is not "
		    "JSON", id != NULL ? id : user != NULL ? user : "?");
	else
		composio_accounts_json(t, j, id, user, toolkit);
	cJSON_Delete(j);
}

static void
composio_account(struct check_target *t, const struct front *f,
    const char *base, const char *key, const char *toolkit)
{
	const char *id = channel_front_str(f, "composio", "connected_account_id");
	const char *user = channel_front_str(f, "composio", "user_id");
	char *url, *why, *e1, *e2;
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
	st = check_get(url, "x-api-key", key, &j, &why);
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
	composio_accounts_json(t, j, id, user, toolkit);
	cJSON_Delete(j);
}

/* The tool images go through, at the latest version (as its execute is
 * sent), with the file argument and the fixed ones fronts sends. */
static void
composio_media_tool(struct check_target *t, const char *base,
    const char *key, const struct platform_composio *cp)
{
	const char *args[8];
	int n = 0, i;

	args[n++] = cp->media_file_arg;
	for (i = 0; cp->media_fixed != NULL && cp->media_fixed[i] != NULL &&
	    n < 7; i += 2)
		args[n++] = cp->media_fixed[i];
	args[n] = NULL;
	composio_tool(t, base, key, cp->media_tool, NULL, args, NULL, NULL);
}

void
check_composio(struct check_target *t, const struct project *p,
    const struct front *f)
{
	const char *tool = channel_front_str(f, "composio", "tool");
	const char *version = channel_front_str(f, "composio", "version");
	const char *key = getenv(t->variable);
	const struct platform_composio *cp = platform_of(f->platform)->composio;
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
		    (const char *const *)args, cp->media_files_arg, &toolkit);
		free_list(args);
		if (cp->read_tool != NULL && pull_supported(f))
			composio_tool(t, base, key, cp->read_tool(f), version,
			    cp->read_args, NULL, NULL);
		if (cp->media_tool != NULL)
			composio_media_tool(t, base, key, cp);
		composio_account(t, f, base, key, toolkit);
	}
	free(toolkit);
	free(base);
}
