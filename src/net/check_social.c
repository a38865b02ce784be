/*
 * check_social — `fronts check` for a front: its channel's credential,
 * then the read-only calls its platform's table names (check_composio.c,
 * check_mastodon.c, check_bluesky.c), and the GET they share.
 */
#include <stdlib.h>

#include "net/check_int.h"
#include "net/platform.h"

long
check_get(const char *url, const char *hname, const char *hvalue,
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

void
check_front(const struct project *p, const struct front *f,
    struct check_target *t)
{
	const struct platform_handler *pl;
	struct error err = { 0 };
	char *what;

	if ((pl = platform_front(f, &err)) == NULL) {
		check_target_init(t, f->id, platform_name(f->platform), NULL);
		check_add(t, false, "channel", "fix the front in fronts.json",
		    "%s", err.msg);
		return;
	}
	what = platform_call_name(pl, f);
	check_target_init(t, f->id, what, platform_secret_var(pl, f));
	free(what);
	if (!check_credential(t, "export the credential in that variable; "
	    "fronts reads it from the environment only") && !pl->check_unset)
		return;
	pl->check(t, p, f);
}
