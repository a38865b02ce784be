/*
 * validate_report — a validation report as JSON (`fronts validate
 * --json`, and the worker's VALIDATE result), read back from the worker
 * without trusting its numbers, and as text for the operator and the
 * language model.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/termsafe.h"
#include "core/validate.h"

static const char *status_names[] = { "pass", "fail", "skip" };

void
validate_report_free(struct validate_report *r)
{
	free(r->checks);
	backtest_report_free(&r->backtest);
	memset(r, 0, sizeof *r);
}

static cJSON *
v_check_json(const struct validate_check *c)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "name", c->name);
	cJSON_AddStringToObject(e, "status", status_names[c->status]);
	if (c->function[0] != '\0')
		cJSON_AddStringToObject(e, "function", c->function);
	if (c->line > 0)
		cJSON_AddNumberToObject(e, "line", c->line);
	if (c->message[0] != '\0')
		cJSON_AddStringToObject(e, "message", c->message);
	if (c->timed_out)
		cJSON_AddTrueToObject(e, "timed_out");
	return e;
}

cJSON *
validate_report_json(const struct project *p, const struct validate_report *r)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	int i;

	cJSON_AddBoolToObject(o, "conformant", r->conformant);
	arr = cJSON_AddArrayToObject(o, "checks");
	for (i = 0; i < r->nchecks; i++)
		cJSON_AddItemToArray(arr, v_check_json(&r->checks[i]));
	cJSON_AddItemToObject(o, "backtest", backtest_json(p, &r->backtest,
	    true));
	cJSON_AddNumberToObject(o, "model_calls", (double)r->model_calls);
	return o;
}

/* A whole number in 0..max, absent: 0. -1 for anything else: a worker's
 * report is not trusted to hold numbers an int can take. */
static int
v_whole(const cJSON *o, const char *k, double max, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 &&
	    v->valuedouble <= max) || v->valuedouble != floor(v->valuedouble))
		return -1;
	*out = v->valuedouble;
	return 0;
}

static const char *
v_str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static int
v_check_from_json(const cJSON *e, struct validate_check *c)
{
	const char *st = v_str(e, "status");
	double line;

	memset(c, 0, sizeof *c);
	if (v_whole(e, "line", INT_MAX, &line) != 0)
		return -1;
	snprintf(c->name, sizeof c->name, "%s", v_str(e, "name"));
	c->status = strcmp(st, "pass") == 0 ? VALIDATE_PASS :
	    strcmp(st, "skip") == 0 ? VALIDATE_SKIP : VALIDATE_FAIL;
	snprintf(c->function, sizeof c->function, "%s", v_str(e, "function"));
	c->line = (int)line;
	snprintf(c->message, sizeof c->message, "%s", v_str(e, "message"));
	c->timed_out = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e,
	    "timed_out"));
	return 0;
}

int
validate_report_from_json(const struct project *p, const cJSON *json,
    struct validate_report *out, struct error *err)
{
	const cJSON *checks, *bt, *e;
	double n;

	memset(out, 0, sizeof *out);
	checks = cJSON_GetObjectItemCaseSensitive(json, "checks");
	bt = cJSON_GetObjectItemCaseSensitive(json, "backtest");
	if (!cJSON_IsObject(json) || !cJSON_IsArray(checks) ||
	    !cJSON_IsObject(bt))
		return error_set(err, EXIT_MODEL, "validation report: "
		    "malformed");
	out->conformant = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(json,
	    "conformant"));
	out->checks = xcalloc(cJSON_GetArraySize(checks) + 1,
	    sizeof *out->checks);
	cJSON_ArrayForEach(e, checks)
		if (v_check_from_json(e, &out->checks[out->nchecks++]) != 0)
			goto bad;
	if (v_whole(json, "model_calls", 1e18, &n) != 0)
		goto bad;
	out->model_calls = (uint64_t)n;
	if (backtest_from_json(p, bt, &out->backtest, err) != 0) {
		validate_report_free(out);
		return -1;
	}
	return 0;
bad:
	validate_report_free(out);
	return error_set(err, EXIT_MODEL, "validation report: a number out "
	    "of its range");
}

/* One growing buffer: the checks come from the worker's report, as many
 * as it sends, and appending each to a copy of the text so far was
 * quadratic in them. */
char *
validate_report_text(const struct project *p, const struct validate_report *r)
{
	const struct validate_check *c;
	char *s = NULL, *bt, where[96], *name, *msg, *fn;
	size_t len = 0;
	FILE *f = xmemstream(&s, &len);
	int i;

	/* A report may come from a worker the model took over, and a message
	 * quotes the model's exception: each check stays on its line. */
	for (i = 0; i < r->nchecks; i++) {
		c = &r->checks[i];
		name = termsafe_ndup(c->name, strlen(c->name), TERMSAFE_NEWLINE);
		fn = termsafe_ndup(c->function, strlen(c->function),
		    TERMSAFE_NEWLINE);
		msg = termsafe_ndup(c->message, strlen(c->message),
		    TERMSAFE_NEWLINE);
		where[0] = '\0';
		if (c->status == VALIDATE_FAIL && c->line > 0)
			snprintf(where, sizeof where, " [%s, model.py line %d]",
			    fn, c->line);
		else if (c->status == VALIDATE_FAIL && c->function[0])
			snprintf(where, sizeof where, " [%s]", fn);
		fprintf(f, "%-4s %-28s%s%s%s\n", status_names[c->status], name,
		    where, c->message[0] ? "  " : "", msg);
		free(name);
		free(fn);
		free(msg);
	}
	bt = backtest_text(p, &r->backtest);
	fprintf(f, "\nconformance: %s\n%s", r->conformant ? "ok" : "FAILED",
	    bt);
	free(bt);
	fclose(f);
	return s;
}
