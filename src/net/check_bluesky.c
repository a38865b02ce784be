/*
 * check_bluesky — `fronts check` for a Bluesky front: a session with the
 * app password (the login publishing uses), whether it is the front's
 * account, then getProfile with its token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "net/channel.h"
#include "net/check_int.h"

/* Is the session the front's account? Its handle must be the front's
 * "handle", and its DID or handle the front's "account" (either form). */
static bool
bluesky_account(struct check_target *t, const struct front *f,
    const char *handle, const struct channel_session *s)
{
	const char *h = s->handle, *did = s->did, *a = f->account;

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

/* getProfile of the session's account, with its token. */
static void
bluesky_profile(struct check_target *t, const char *service,
    const char *handle, const struct channel_session *s)
{
	char *url, *why, *auth, *actor = check_urlenc(s->did);
	cJSON *prof;

	xasprintf(&auth, "Bearer %s", s->token);
	xasprintf(&url, "%s/xrpc/app.bsky.actor.getProfile?actor=%s", service,
	    actor);
	free(actor);
	check_get(url, "Authorization", auth, &prof, &why);
	if (prof == NULL)
		check_add(t, false, "profile", "check the handle and the "
		    "\"service\" URL", "getProfile: %s", why);
	else
		check_add(t, true, "profile", NULL, "profile @%s read",
		    json_str(prof, "handle") != NULL ? json_str(prof,
		    "handle") : handle);
	cJSON_Delete(prof);
	free(why);
	explicit_bzero(auth, strlen(auth));
	free(auth);
	free(url);
}

void
check_bluesky(struct check_target *t, const struct project *p,
    const struct front *f)
{
	const char *handle = channel_bluesky_handle(f);
	struct channel_req req;
	struct channel_session s;
	struct http_response resp;
	struct error err = { 0 };
	enum channel_login l;
	char *service = channel_bluesky_service(f), *why;

	if (handle == NULL || channel_url_check(service,
	    "fronts.json: bluesky \"service\"", &err) != 0) {
		check_add(t, false, "session", "set the front's \"handle\" (and "
		    "an https:// \"service\" if not bsky.social)", "%s",
		    handle == NULL ? "the front names no handle" : err.msg);
		free(service);
		return;
	}
	memset(&req, 0, sizeof req);
	channel_bluesky_session_req(&req, service, handle, getenv(t->variable),
	    CHECK_TIMEOUT_MS);
	l = channel_bluesky_login(&req, &s, &resp, &err);
	channel_req_free(&req);
	if (l != CHANNEL_LOGIN_OK || s.did == NULL) {
		why = check_why(&resp, l == CHANNEL_LOGIN_FAILED ? -1 : 0, &err);
		check_add(t, false, "session", l != CHANNEL_LOGIN_FAILED &&
		    resp.status == 401 ? "the app password is wrong or revoked: "
		    "create one (Settings → Privacy and security → App "
		    "passwords) and export it" : "check the network and the "
		    "\"service\" URL", "createSession for %s: %s", handle, why);
		free(why);
	} else if (bluesky_account(t, f, handle, &s)) {
		check_add(t, true, "session", NULL, "session for %s (%s)", handle,
		    s.did);
		bluesky_profile(t, service, handle, &s);
	}
	http_response_free(&resp);
	channel_session_free(&s);
	free(service);
}
