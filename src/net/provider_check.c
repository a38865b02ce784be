/*
 * provider_check — `fronts check` for the language-model provider: the
 * key variable and one read-only call that needs it, the provider's list
 * of models (Anthropic GET /v1/models with x-api-key and
 * anthropic-version; OpenAI GET /v1/models with a bearer token), with the
 * base URLs and key variables the providers themselves use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/check.h"
#include "net/provider_int.h"

#define PCHECK_ANTHROPIC_BASE		"https://api.anthropic.com"
#define PCHECK_ANTHROPIC_VERSION	"2023-06-01"
#define PCHECK_OPENAI_BASE		"https://api.openai.com/v1"

/* Is model among the answer's data[].id? Counts them into *n; *shutdown
 * gets the model's announced shutdown_date (OpenAI), if any. */
static bool
pcheck_has_model(const cJSON *j, const char *model, int *n,
    const char **shutdown)
{
	const cJSON *m, *id, *sd;
	bool found = false;

	*n = 0;
	*shutdown = NULL;
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(j, "data")) {
		id = cJSON_GetObjectItemCaseSensitive(m, "id");
		if (!cJSON_IsString(id))
			continue;
		(*n)++;
		if (model != NULL && strcmp(id->valuestring, model) == 0) {
			found = true;
			sd = cJSON_GetObjectItemCaseSensitive(m,
			    "shutdown_date");
			if (cJSON_IsString(sd))
				*shutdown = sd->valuestring;
		}
	}
	return found;
}

static void
pcheck_models(const struct project *p, const char *api,
    struct check_target *t)
{
	struct http_header h[2];
	struct http_response resp;
	struct error err = { 0 };
	char *base, *url, *auth = NULL, *why;
	const char *model = p->provider_model != NULL ? p->provider_model :
	    provider_default_model(api), *shutdown;
	cJSON *j;
	int rc, n;
	bool anthropic = strcmp(api, "anthropic") == 0;

	base = anthropic ? provider_base_url("ANTHROPIC_BASE_URL",
	    PCHECK_ANTHROPIC_BASE) : provider_base_url("OPENAI_BASE_URL",
	    PCHECK_OPENAI_BASE);
	if (anthropic) {
		xasprintf(&url, "%s/v1/models?limit=1000", base);
		h[0] = (struct http_header){ "x-api-key", provider_key(api),
		    true };
		h[1] = (struct http_header){ "anthropic-version",
		    PCHECK_ANTHROPIC_VERSION, false };
	} else {
		xasprintf(&url, "%s/models", base);
		xasprintf(&auth, "Bearer %s", provider_key(api));
		h[0] = (struct http_header){ "Authorization", auth, true };
	}
	rc = check_request(url, NULL, h, anthropic ? 2 : 1, &resp, &err);
	if (rc != 0 || resp.status != 200) {
		why = check_why(&resp, rc, &err);
		check_add(t, false, "models", resp.status == 401 ||
		    resp.status == 403 ? "the key is wrong, revoked or lacks "
		    "access: create a new key in the provider's console and "
		    "export it" : "check the network and the base URL "
		    "variable", "listing the models failed: %s", why);
		free(why);
	} else {
		j = check_json(&resp);
		if (pcheck_has_model(j, model, &n, &shutdown))
			check_add(t, true, "models", NULL, "%d models listed, "
			    "%s%s among them%s%s%s", n, model,
			    p->provider_model == NULL ? " (the default)" : "",
			    shutdown != NULL ? " (it shuts down on " : "",
			    shutdown != NULL ? shutdown : "", shutdown != NULL ?
			    ": move provider.model to a current model before "
			    "then)" : "");
		else
			check_add(t, false, "models", "set provider.model in "
			    "fronts.json to a model the list shows",
			    "%d models listed, but not %s", n, model);
		cJSON_Delete(j);
	}
	http_response_free(&resp);
	if (auth != NULL) {
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	free(url);
	free(base);
}

void
check_provider(const struct project *p, struct check_target *t)
{
	const char *name = p->provider_name != NULL ? p->provider_name :
	    "anthropic";

	if (strcmp(name, "replay") == 0) {
		check_target_init(t, "provider", name, NULL);
		check_add(t, true, "credential", NULL, "replay answers from "
		    "recordings and needs no key");
		return;
	}
	if (strcmp(name, "anthropic") != 0 && strcmp(name, "openai") != 0) {
		check_target_init(t, "provider", name, NULL);
		check_add(t, false, "provider", "set provider.name to "
		    "anthropic, openai or replay", "unknown provider \"%s\"",
		    name);
		return;
	}
	check_target_init(t, "provider", name, provider_key_var(name));
	if (!check_credential(t, "export the provider's API key in that "
	    "variable (synth replays the bundled recordings without it)"))
		return;
	pcheck_models(p, name, t);
}
