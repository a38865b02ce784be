/*
 * fixture_project — a struct project built in memory for the planner's unit
 * tests (legality, search, plan), without files: fronts f0…, drafts d0…,
 * every limit unset until a test sets it.
 */
#ifndef FRONTS_FIXTURE_PROJECT_H
#define FRONTS_FIXTURE_PROJECT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/project.h"
#include "core/timeutil.h"
#include "core/util.h"

static inline struct project *
fx_project(const char *tz, const char *start, int slot_minutes, int horizon,
    int nfronts, int ndrafts)
{
	struct project *p = xcalloc(1, sizeof *p);
	char buf[32];
	int i;

	if (timeutil_set_zone(tz) != 0 || time_parse_iso(start, &p->start) != 0)
		abort();
	p->dir = xstrdup(".");
	p->name = xstrdup("fixture");
	p->timezone = xstrdup(tz);
	p->slot_minutes = slot_minutes;
	p->horizon_slots = horizon;
	p->nfronts = nfronts;
	p->fronts = xcalloc(nfronts, sizeof *p->fronts);
	for (i = 0; i < nfronts; i++) {
		snprintf(buf, sizeof buf, "f%d", i);
		p->fronts[i].id = xstrdup(buf);
		p->fronts[i].platform = PLATFORM_LINKEDIN;
		p->fronts[i].account = xstrdup(buf);
		p->fronts[i].limits = (struct limits)LIMITS_UNSET;
	}
	p->ndrafts = ndrafts;
	p->drafts = xcalloc(ndrafts, sizeof *p->drafts);
	for (i = 0; i < ndrafts; i++) {
		snprintf(buf, sizeof buf, "d%d", i);
		p->drafts[i].id = xstrdup(buf);
		snprintf(buf, sizeof buf, "draft number %d", i);
		project_draft_set_text(&p->drafts[i], buf);
		p->drafts[i].front_mask = nfronts >= 64 ? ~0ULL :
		    ((1ULL << nfronts) - 1);
	}
	return p;
}

static inline void
fx_set_text(struct project *p, int d, const char *text)
{
	project_draft_set_text(&p->drafts[d], text);
}

/* Appends a part of text to body b. */
static inline struct part *
fx_part(struct body *b, const char *text)
{
	struct part *pt;

	b->parts = xrealloc(b->parts, (b->nparts + 1) * sizeof *b->parts);
	pt = &b->parts[b->nparts++];
	memset(pt, 0, sizeof *pt);
	pt->text = xstrdup(text);
	return pt;
}

/* Appends an image, as probing found it, to part pt (alt NULL: none). */
static inline struct media *
fx_image(struct part *pt, const char *path, const char *alt,
    enum image_type type, long bytes, int w, int h)
{
	struct media *m;

	pt->media = xrealloc(pt->media, (pt->nmedia + 1) * sizeof *m);
	m = &pt->media[pt->nmedia++];
	memset(m, 0, sizeof *m);
	m->path = xstrdup(path);
	m->alt = alt != NULL ? xstrdup(alt) : NULL;
	m->facts.probed = true;
	m->facts.type = type;
	m->facts.bytes = bytes;
	m->facts.width = w;
	m->facts.height = h;
	m->facts.frames = 1;
	return m;
}

/* Adds a variant of draft d keyed by key, one part of text. */
static inline struct body *
fx_variant(struct project *p, int d, const char *key, const char *text)
{
	struct draft *dr = &p->drafts[d];
	struct variant *v;

	dr->variants = xrealloc(dr->variants, (dr->nvariants + 1) * sizeof *v);
	v = &dr->variants[dr->nvariants++];
	memset(v, 0, sizeof *v);
	v->key = xstrdup(key);
	fx_part(&v->body, text);
	return &v->body;
}

/* Adds a history post on front f at the ISO time at. */
static inline void
fx_history(struct project *p, int f, const char *at)
{
	struct history_post *h;
	char buf[32];

	p->history = xrealloc(p->history, (p->nhistory + 1) * sizeof *h);
	h = &p->history[p->nhistory];
	memset(h, 0, sizeof *h);
	snprintf(buf, sizeof buf, "h%d", p->nhistory);
	h->id = xstrdup(buf);
	h->front = f;
	if (time_parse_iso(at, &h->posted_at) != 0)
		abort();
	h->posted_at_text = xstrdup(at);
	h->text = xstrdup("past post");
	p->nhistory++;
}

/* Adds a pin of draft d: on front f (-1: a drop), at the ISO time at
 * (NULL: whenever), as line npins + 1 of pins.jsonl. */
static inline void
fx_pin(struct project *p, int d, int f, const char *at)
{
	struct pin *pin;

	p->pins = xrealloc(p->pins, (p->npins + 1) * sizeof *pin);
	pin = &p->pins[p->npins];
	memset(pin, 0, sizeof *pin);
	pin->draft = d;
	pin->front = f;
	pin->drop = f < 0;
	if (at != NULL) {
		pin->has_at = true;
		pin->at_text = xstrdup(at);
		if (time_parse_iso(at, &pin->at) != 0)
			abort();
	}
	pin->line = ++p->npins;
}

static inline void
fx_free(struct project *p)
{
	int i;

	for (i = 0; i < p->nfronts; i++) {
		free(p->fronts[i].id);
		free(p->fronts[i].account);
	}
	for (i = 0; i < p->ndrafts; i++) {
		while (p->drafts[i].ntopics > 0)
			free(p->drafts[i].topics[--p->drafts[i].ntopics]);
		free(p->drafts[i].topics);
		free(p->drafts[i].id);
		free(p->drafts[i].text);
		project_body_free(&p->drafts[i].body);
		while (p->drafts[i].nvariants > 0) {
			struct variant *v =
			    &p->drafts[i].variants[--p->drafts[i].nvariants];

			free(v->key);
			project_body_free(&v->body);
		}
		free(p->drafts[i].variants);
	}
	for (i = 0; i < p->nhistory; i++) {
		while (p->history[i].ntopics > 0)
			free(p->history[i].topics[--p->history[i].ntopics]);
		free(p->history[i].topics);
		free(p->history[i].id);
		free(p->history[i].posted_at_text);
		free(p->history[i].text);
	}
	for (i = 0; i < p->npins; i++)
		free(p->pins[i].at_text);
	free(p->pins);
	free(p->history);
	free(p->fronts);
	free(p->front_objective);
	free(p->drafts);
	free(p->dir);
	free(p->name);
	free(p->timezone);
	free(p);
}

#endif
