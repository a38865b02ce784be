/*
 * fuzz_composio_schema — libFuzzer harness for what `fronts check` reads
 * from Composio (untrusted network input): a tool's schema (its version,
 * available versions, input parameters and the shape of the argument that
 * takes files) and a connected account, alone or in a user's list.
 *
 * The first byte picks what the rest is read as (its low two bits: a
 * tool unpinned, a tool pinned with LinkedIn's `images`, an account by
 * id, a user's accounts); the seeds are the fake Composio's answers
 * (tests/servers/fake_social.py) with that byte in front. Every step must
 * come back with a detail, and a fix exactly when it fails.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "net/check_int.h"

/* "(null)" in a detail is a NULL printed through %s, unless the answer
 * itself said it. */
static void
fuzz_steps(const struct check_target *t, const unsigned char *data,
    size_t len)
{
	bool said = memmem(data, len, "(null)", 6) != NULL;
	int i;

	if (t->nsteps < 1)
		abort();
	for (i = 0; i < t->nsteps; i++)
		if (t->steps[i].name == NULL || t->steps[i].detail == NULL ||
		    t->steps[i].ok != (t->steps[i].fix == NULL) ||
		    (!said && strstr(t->steps[i].detail, "(null)") != NULL))
			abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	static const char *const args[] = { "text", "commentary", "author",
	    "images", "media__media_ids", "reply__in_reply_to_tweet_id", NULL };
	struct check_target t;
	const char *body = (const char *)data + 1;
	char *toolkit = NULL;
	cJSON *j;

	if (len < 1)
		return 0;
	check_target_init(&t, "front", "composio/T", NULL);
	switch (data[0] & 3) {
	case 0:
		check_composio_tool_read(&t, body, len - 1, "T", NULL, args,
		    NULL, &toolkit);
		break;
	case 1:
		check_composio_tool_read(&t, body, len - 1, "T", "20260301_00",
		    args, "images", &toolkit);
		break;
	case 2:
		check_composio_account_read(&t, body, len - 1, "ca_1", "acme",
		    "twitter");
		break;
	default:
		check_composio_account_read(&t, body, len - 1, NULL, "acme",
		    "linkedin");
		break;
	}
	fuzz_steps(&t, data, len);
	j = check_target_json(&t);
	cJSON_Delete(j);
	free(toolkit);
	check_target_free(&t);
	return 0;
}
