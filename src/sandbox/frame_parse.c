/*
 * frame_parse — worker frame payloads, written by the worker and read by
 * the parent (see frame_parse.h).
 *
 * A field the worker always sends may still be absent from a hostile
 * worker's frame: absent numbers read as 0. A field that is present must
 * be a finite number inside its C type's range (and a whole one for
 * counters); a double outside an integer's range cannot even be converted
 * without undefined behaviour.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sandbox/frame_parse.h"

#define FP_U64_LIMIT	18446744073709551616.0	/* 2^64 */

static cJSON *
frame_edges_json(const struct search_edge *e, int n)
{
	cJSON *a = cJSON_CreateArray(), *o;
	int i;

	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "kind", e[i].action.kind);
		cJSON_AddNumberToObject(o, "front", e[i].action.front);
		cJSON_AddNumberToObject(o, "draft", e[i].action.draft);
		cJSON_AddNumberToObject(o, "slot", e[i].slot);
		cJSON_AddNumberToObject(o, "visits", (double)e[i].visits);
		cJSON_AddNumberToObject(o, "avail", (double)e[i].avail);
		cJSON_AddNumberToObject(o, "mean", e[i].mean);
		cJSON_AddNumberToObject(o, "reward_mean", e[i].reward_mean);
		cJSON_AddNumberToObject(o, "ci_lo", e[i].ci_lo);
		cJSON_AddNumberToObject(o, "ci_hi", e[i].ci_hi);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

cJSON *
frame_snapshot_json(const struct search_snapshot *s)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "state", s->state);
	cJSON_AddNumberToObject(j, "iterations", (double)s->iterations);
	cJSON_AddNumberToObject(j, "model_calls", (double)s->model_calls);
	cJSON_AddNumberToObject(j, "illegal_proposals",
	    (double)s->illegal_proposals);
	cJSON_AddNumberToObject(j, "model_errors", (double)s->model_errors);
	cJSON_AddNumberToObject(j, "nodes", (double)s->nodes);
	cJSON_AddNumberToObject(j, "elapsed", s->elapsed);
	cJSON_AddNumberToObject(j, "model_seconds", s->model_seconds);
	cJSON_AddNumberToObject(j, "rate", s->rate);
	cJSON_AddNumberToObject(j, "workers", s->workers);
	cJSON_AddItemToObject(j, "root", frame_edges_json(s->root,
	    s->nroot < SNAPSHOT_MAX_CHILDREN ? s->nroot : SNAPSHOT_MAX_CHILDREN));
	cJSON_AddItemToObject(j, "pv", frame_edges_json(s->pv,
	    s->npv < SNAPSHOT_MAX_PV ? s->npv : SNAPSHOT_MAX_PV));
	cJSON_AddStringToObject(j, "error", s->error);
	return j;
}

/* A real number (mean, seconds): absent reads 0; present must be finite. */
static int
frame_real(const cJSON *o, const char *name, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return -1;
	*out = v->valuedouble;
	return 0;
}

/* A whole number in lo..hi (hi below 2^64), as a double that converts to
 * the field's type. */
static int
frame_whole(const cJSON *o, const char *name, double lo, double hi,
    double *out)
{
	if (frame_real(o, name, out) != 0 || *out < lo || *out > hi ||
	    *out != floor(*out))
		return -1;
	return 0;
}

static int
frame_u64(const cJSON *o, const char *name, uint64_t *out)
{
	double v;

	if (frame_whole(o, name, 0, FP_U64_LIMIT, &v) != 0 ||
	    v >= FP_U64_LIMIT)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static int
frame_edge_parse(const cJSON *o, struct search_edge *e)
{
	double kind, front, draft, slot;

	memset(e, 0, sizeof *e);
	if (!cJSON_IsObject(o) ||
	    frame_whole(o, "kind", ACTION_WAIT, ACTION_POST, &kind) != 0 ||
	    frame_whole(o, "front", 0, UINT16_MAX, &front) != 0 ||
	    frame_whole(o, "draft", 0, UINT32_MAX, &draft) != 0 ||
	    frame_whole(o, "slot", 0, INT32_MAX, &slot) != 0 ||
	    frame_u64(o, "visits", &e->visits) != 0 ||
	    frame_u64(o, "avail", &e->avail) != 0 ||
	    frame_real(o, "mean", &e->mean) != 0 ||
	    frame_real(o, "reward_mean", &e->reward_mean) != 0 ||
	    frame_real(o, "ci_lo", &e->ci_lo) != 0 ||
	    frame_real(o, "ci_hi", &e->ci_hi) != 0)
		return -1;
	e->action.kind = (uint16_t)kind;
	e->action.front = (uint16_t)front;
	e->action.draft = (uint32_t)draft;
	e->slot = (int)slot;
	return 0;
}

/* An array of at most max edges; the count, or -1. */
static int
frame_edges_parse(const cJSON *a, struct search_edge *e, int max)
{
	const cJSON *o;
	int n = 0;

	if (!cJSON_IsArray(a))
		return -1;
	cJSON_ArrayForEach(o, a) {
		if (n >= max || frame_edge_parse(o, &e[n]) != 0)
			return -1;
		n++;
	}
	return n;
}

static int
frame_snapshot_fields(const cJSON *j, struct search_snapshot *s)
{
	double state, workers;

	if (frame_whole(j, "state", SEARCH_IDLE, SEARCH_FAILED, &state) != 0 ||
	    frame_u64(j, "iterations", &s->iterations) != 0 ||
	    frame_u64(j, "model_calls", &s->model_calls) != 0 ||
	    frame_u64(j, "illegal_proposals", &s->illegal_proposals) != 0 ||
	    frame_u64(j, "model_errors", &s->model_errors) != 0 ||
	    frame_u64(j, "nodes", &s->nodes) != 0 ||
	    frame_real(j, "elapsed", &s->elapsed) != 0 ||
	    frame_real(j, "model_seconds", &s->model_seconds) != 0 ||
	    frame_real(j, "rate", &s->rate) != 0 ||
	    frame_whole(j, "workers", 0, 65536, &workers) != 0)
		return -1;
	s->state = (enum search_state)state;
	s->workers = (int)workers;
	return 0;
}

int
frame_snapshot_parse(const char *text, struct search_snapshot *s)
{
	const cJSON *e;
	cJSON *j;
	int rc = -1;

	memset(s, 0, sizeof *s);
	if ((j = cJSON_Parse(text)) == NULL || !cJSON_IsObject(j) ||
	    frame_snapshot_fields(j, s) != 0)
		goto out;
	s->nroot = frame_edges_parse(cJSON_GetObjectItemCaseSensitive(j,
	    "root"), s->root, SNAPSHOT_MAX_CHILDREN);
	s->npv = frame_edges_parse(cJSON_GetObjectItemCaseSensitive(j, "pv"),
	    s->pv, SNAPSHOT_MAX_PV);
	e = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (s->nroot < 0 || s->npv < 0 || !cJSON_IsString(e))
		goto out;
	snprintf(s->error, sizeof s->error, "%s", e->valuestring);
	rc = 0;
out:
	if (rc != 0)
		memset(s, 0, sizeof *s);
	cJSON_Delete(j);
	return rc;
}

int
frame_error_parse(const char *text, int *code, char *msg, size_t size)
{
	const cJSON *c, *m;
	cJSON *j;
	double v;
	int rc = -1;

	j = cJSON_Parse(text);
	c = cJSON_GetObjectItemCaseSensitive(j, "code");
	m = cJSON_GetObjectItemCaseSensitive(j, "message");
	if (cJSON_IsObject(j) && cJSON_IsNumber(c) && cJSON_IsString(m) &&
	    frame_whole(j, "code", EXIT_ERROR, EXIT_NETWORK, &v) == 0) {
		*code = (int)v;
		snprintf(msg, size, "%s", m->valuestring);
		rc = 0;
	}
	cJSON_Delete(j);
	return rc;
}

int
frame_syscall_parse(const char *buf, size_t len, int *nr)
{
	const unsigned char *b = (const unsigned char *)buf;
	uint32_t v;

	if (len != 4)
		return -1;
	v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24;
	if (v > INT32_MAX)
		return -1;
	*nr = (int)v;
	return 0;
}
