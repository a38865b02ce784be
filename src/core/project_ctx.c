/*
 * project_ctx — the plain-data ctx of the world-model contract
 * (docs/DESIGN.md): the project as the model sees it, built from the loaded
 * struct project, never from the files.
 */
#include <stdint.h>

#include "core/project_int.h"
#include "core/timeutil.h"

static cJSON *
strings_json(char **v, int n)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static void
add_limit(cJSON *o, const char *key, int v)
{
	if (v != LIMIT_UNSET)
		cJSON_AddNumberToObject(o, key, v);
}

/* The limits fronts.json sets, as written there. */
static cJSON *
limits_json(const struct limits *l)
{
	cJSON *o = cJSON_CreateObject(), *q;

	add_limit(o, "max_length", l->max_length);
	add_limit(o, "max_posts_per_day", l->max_posts_per_day);
	add_limit(o, "min_gap_minutes", l->min_gap_minutes);
	if (l->quiet_start != LIMIT_UNSET) {
		q = cJSON_AddArrayToObject(o, "quiet_hours");
		cJSON_AddItemToArray(q, cJSON_CreateNumber(l->quiet_start));
		cJSON_AddItemToArray(q, cJSON_CreateNumber(l->quiet_end));
	}
	add_limit(o, "max_links", l->max_links);
	add_limit(o, "max_hashtags", l->max_hashtags);
	return o;
}

static cJSON *
history_json(const struct history_post *h, const struct project *p)
{
	const double v[PROJECT_NMETRICS] = { h->impressions, h->likes, h->reposts,
	    h->replies, h->clicks };
	cJSON *o = cJSON_CreateObject(), *m;
	int i;

	cJSON_AddStringToObject(o, "id", h->id);
	cJSON_AddStringToObject(o, "front", p->fronts[h->front].id);
	cJSON_AddStringToObject(o, "posted_at", h->posted_at_text);
	cJSON_AddStringToObject(o, "text", h->text);
	cJSON_AddItemToObject(o, "topics", strings_json(h->topics, h->ntopics));
	m = cJSON_AddObjectToObject(o, "metrics");
	for (i = 0; i < PROJECT_NMETRICS; i++)
		if (h->metrics_set & (1u << i))
			cJSON_AddNumberToObject(m, project_metric_names[i], v[i]);
	if (h->unsettled)
		cJSON_AddFalseToObject(o, "settled");
	return o;
}

/* A body's parts: each text and its images, of which the model sees the
 * alt text only (never the file, its path or its bytes). */
static cJSON *
parts_json(const struct body *b)
{
	cJSON *a = cJSON_CreateArray(), *pt, *ims, *im;
	int i, j;

	for (i = 0; i < b->nparts; i++) {
		pt = cJSON_CreateObject();
		cJSON_AddStringToObject(pt, "text", b->parts[i].text);
		ims = cJSON_AddArrayToObject(pt, "images");
		for (j = 0; j < b->parts[i].nmedia; j++) {
			im = cJSON_CreateObject();
			if (b->parts[i].media[j].alt != NULL)
				cJSON_AddStringToObject(im, "alt",
				    b->parts[i].media[j].alt);
			else
				cJSON_AddNullToObject(im, "alt");
			cJSON_AddItemToArray(ims, im);
		}
		cJSON_AddItemToArray(a, pt);
	}
	return a;
}

/* "variants": what each front that does not get the default gets, by
 * front id (a platform key already resolved), so the model reads the
 * parts a front is given without knowing the rule. */
static void
variants_json(cJSON *o, const struct project *p, int d)
{
	cJSON *v = NULL, *e;
	int f, vi;

	for (f = 0; f < p->nfronts; f++) {
		if (!project_draft_allows(p, d, f) ||
		    (vi = project_draft_variant(p, d, f)) < 0)
			continue;
		if (v == NULL)
			v = cJSON_AddObjectToObject(o, "variants");
		e = cJSON_AddObjectToObject(v, p->fronts[f].id);
		cJSON_AddStringToObject(e, "key", p->drafts[d].variants[vi].key);
		cJSON_AddItemToObject(e, "parts",
		    parts_json(&p->drafts[d].variants[vi].body));
	}
}

void
project_draft_window_json(cJSON *o, const struct draft *d)
{
	char t[64];

	if (d->has_not_before) {
		time_format_local(d->not_before, t, sizeof t);
		cJSON_AddStringToObject(o, "not_before", t);
	}
	if (d->has_not_after) {
		time_format_local(d->not_after, t, sizeof t);
		cJSON_AddStringToObject(o, "not_after", t);
	}
}

static cJSON *
draft_json(const struct project *p, int d)
{
	const struct draft *dr = &p->drafts[d];
	cJSON *o = cJSON_CreateObject(), *f;
	int i;

	cJSON_AddStringToObject(o, "id", dr->id);
	cJSON_AddStringToObject(o, "text", dr->text);
	cJSON_AddItemToObject(o, "topics", strings_json(dr->topics,
	    dr->ntopics));
	f = cJSON_AddArrayToObject(o, "fronts");
	for (i = 0; i < p->nfronts; i++)
		if (dr->front_mask & (UINT64_C(1) << i))
			cJSON_AddItemToArray(f, cJSON_CreateString(p->fronts[i].id));
	if (dr->body.nparts > 0)
		cJSON_AddItemToObject(o, "parts", parts_json(&dr->body));
	variants_json(o, p, d);
	project_draft_window_json(o, dr);
	return o;
}

/* Every metric with its weight, 0 included: the model need not know
 * the default. */
static cJSON *
objective_json(const struct objective *obj)
{
	cJSON *o = cJSON_CreateObject();
	int i;

	for (i = 0; i < METRIC_COUNT; i++)
		cJSON_AddNumberToObject(o, objective_metric_names[i],
		    obj->weight[i]);
	return o;
}

cJSON *
project_ctx_json(const struct project *p)
{
	cJSON *ctx = cJSON_CreateObject(), *a, *f;
	char now[64];
	int i;

	time_format_local(p->start, now, sizeof now);
	cJSON_AddStringToObject(ctx, "now", now);
	cJSON_AddStringToObject(ctx, "timezone", p->timezone);
	cJSON_AddNumberToObject(ctx, "slot_minutes", p->slot_minutes);
	cJSON_AddNumberToObject(ctx, "horizon_slots", p->horizon_slots);
	cJSON_AddItemToObject(ctx, "objective", objective_json(objective_of(p)));
	a = cJSON_AddArrayToObject(ctx, "fronts");
	for (i = 0; i < p->nfronts; i++) {
		f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "id", p->fronts[i].id);
		cJSON_AddStringToObject(f, "platform",
		    platform_name(p->fronts[i].platform));
		cJSON_AddItemToObject(f, "limits", limits_json(&p->fronts[i].limits));
		/* the default differs by front: what its history gives */
		if (!p->objective.given)
			cJSON_AddItemToObject(f, "objective",
			    objective_json(objective_front(p, i)));
		cJSON_AddItemToArray(a, f);
	}
	a = cJSON_AddArrayToObject(ctx, "drafts");
	for (i = 0; i < p->ndrafts; i++)
		cJSON_AddItemToArray(a, draft_json(p, i));
	a = cJSON_AddArrayToObject(ctx, "history");
	for (i = 0; i < p->nhistory; i++)
		cJSON_AddItemToArray(a, history_json(&p->history[i], p));
	return ctx;
}
