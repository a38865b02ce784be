/*
 * hist_predict — the plan's predictions of published posts, by ledger
 * entry.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/hist_predict.h"
#include "core/statedir.h"

#define PREDICTIONS	"predictions.jsonl"

void
hist_prediction_of(const struct plan_post *pp, struct hist_prediction *out)
{
	out->reward = pp->reward_known ? pp->expected_reward : NAN;
	out->lo = pp->ci_lo;
	out->hi = pp->ci_hi;
	/* ci95 = mean -/+ 1.96 sd / sqrt(visits) (search_result.c) */
	out->sd = pp->reward_known && pp->visits > 1 ?
	    (pp->ci_hi - pp->ci_lo) / (2 * 1.96) * sqrt((double)pp->visits) :
	    NAN;
}

int
hist_prediction_save(const char *dir, const char *entry,
    const struct hist_prediction *pr, struct error *err)
{
	char *line;
	cJSON *o = cJSON_CreateObject(), *ci;
	double reward = pr->reward, lo = pr->lo, hi = pr->hi;
	int rc;

	cJSON_AddStringToObject(o, "entry", entry);
	if (!isfinite(reward)) {
		/* The plan predicted nothing: recorded as unknown, never as
		 * a prediction of 0 in [0, 0]. */
		cJSON_AddNullToObject(o, "reward");
	} else {
		cJSON_AddNumberToObject(o, "reward", reward);
		ci = cJSON_AddArrayToObject(o, "ci95");
		cJSON_AddItemToArray(ci, cJSON_CreateNumber(isfinite(lo) ?
		    lo : reward));
		cJSON_AddItemToArray(ci, cJSON_CreateNumber(isfinite(hi) ?
		    hi : reward));
		if (isfinite(pr->sd) && pr->sd >= 0)
			cJSON_AddNumberToObject(o, "sd", pr->sd);
	}
	line = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	rc = statedir_append(dir, PREDICTIONS, line, err);
	free(line);
	return rc;
}

static bool
read_line(const cJSON *o, const char *entry, struct hist_prediction *out)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "entry");
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "reward");
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(o, "ci95");
	const cJSON *lo = cJSON_GetArrayItem(ci, 0), *hi = cJSON_GetArrayItem(ci, 1);
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(o, "sd");

	if (!cJSON_IsString(e) || strcmp(e->valuestring, entry) != 0 ||
	    !cJSON_IsNumber(r) || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi))
		return false;
	out->reward = r->valuedouble;
	out->lo = lo->valuedouble;
	out->hi = hi->valuedouble;
	out->sd = cJSON_IsNumber(sd) && isfinite(sd->valuedouble) &&
	    sd->valuedouble >= 0 ? sd->valuedouble : NAN;
	return true;
}

bool
hist_prediction_find(const char *dir, const char *entry,
    struct hist_prediction *out)
{
	char *text, *line, *save = NULL;
	struct error err = { 0 };
	size_t len;
	bool found = false;
	cJSON *o;

	if (statedir_read(dir, PREDICTIONS, &text, &len, &err) != 0)
		return false;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((o = cJSON_Parse(line)) == NULL)
			continue;
		found |= read_line(o, entry, out);
		cJSON_Delete(o);
	}
	free(text);
	return found;
}
