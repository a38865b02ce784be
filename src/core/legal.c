/*
 * legal — the legality engine (see legal.h). Everything that depends only
 * on the project and the past posts is computed once in legal_new(); the
 * per-path state is a small fixed-size record per front plus one bit per
 * draft × front, so checking an action is a handful of array reads.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/ledger.h"
#include "core/legal.h"
#include "core/legal_int.h"
#include "core/text.h"
#include "core/timeutil.h"

static const char *legal_names[] = {
	"ok", "bad-kind", "unknown-draft", "unknown-front", "not-allowed",
	"too-long", "too-many-links", "too-many-hashtags", "bad-text",
	"no-thread", "no-images", "too-many-images", "image-type",
	"image-size", "image-unreadable", "alt-missing", "alt-too-long",
	"horizon", "posted", "cap", "gap", "quiet", "window", "dropped",
	"pinned"
};

const char *
legal_verdict_name(enum legal_verdict v)
{
	if ((unsigned)v >= sizeof legal_names / sizeof legal_names[0])
		return "unknown";
	return legal_names[v];
}

static bool
legal_is_quiet(const struct limits *l, int hour)
{
	int a = l->quiet_start, b = l->quiet_end;

	if (a == LIMIT_UNSET || b == LIMIT_UNSET || a == b)
		return false;
	if (a < b)
		return hour >= a && hour < b;
	return hour >= a || hour < b;
}

bool
legal_over_links(const struct limits *l, const struct text_measure *m)
{
	return l->max_links != LIMIT_UNSET && m->links > l->max_links;
}

bool
legal_over_hashtags(const struct limits *l, const struct text_measure *m)
{
	return l->max_hashtags != LIMIT_UNSET && m->hashtags > l->max_hashtags;
}

enum legal_verdict
legal_caps(const struct limits *l, const struct text_measure *m)
{
	if (legal_over_links(l, m))
		return LEGAL_TOO_MANY_LINKS;
	if (legal_over_hashtags(l, m))
		return LEGAL_TOO_MANY_HASHTAGS;
	return LEGAL_OK;
}

enum legal_verdict
legal_text(const struct front *f, const char *text, struct text_measure *m)
{
	if (text_measure(text, f->platform, &f->limits, m) != 0)
		return LEGAL_BAD_TEXT;
	if (!m->ok)
		return LEGAL_TOO_LONG;
	return legal_caps(&f->limits, m);
}

enum legal_verdict
legal_measure(const struct project *p, int d, int f)
{
	struct text_measure m;

	if ((p->drafts[d].front_mask & ((uint64_t)1 << f)) == 0)
		return LEGAL_NOT_ALLOWED;
	if (p->drafts[d].body.nparts == 0)	/* built in memory: its text */
		return legal_text(&p->fronts[f], p->drafts[d].text, &m);
	return legal_body(&p->fronts[f], project_draft_body(p, d, f), NULL, 0);
}

/* The effect of one past post on every slot of its front. */
static void
legal_add_past(struct legal *lg, const struct legal_past *pp)
{
	const struct limits *l = &lg->limits[pp->front];
	long pday = time_local_day(pp->at);
	int64_t dt, gap;
	size_t bit;
	int k;

	if (pp->draft > 0 && pp->draft <= lg->ndrafts) {
		bit = (size_t)(pp->draft - 1) * lg->nfronts + pp->front;
		lg->preposted[bit / 8] |= (uint8_t)(1u << (bit % 8));
	}
	if (pp->uncounted)
		return;
	gap = l->min_gap_minutes == LIMIT_UNSET ? 0 :
	    (int64_t)l->min_gap_minutes * 60;
	for (k = 0; k < lg->horizon; k++) {
		size_t i = (size_t)pp->front * lg->horizon + k;

		if (lg->day[k] == pday)
			lg->pastcount[i]++;
		dt = (int64_t)lg->start + (int64_t)k * lg->slot_seconds -
		    (int64_t)pp->at;
		if (dt < 0)
			dt = -dt;
		if (gap > 0 && dt < gap)
			lg->pastgap[i] = 1;
	}
}

/* The slots of each draft's window. */
static void
legal_windows(struct legal *lg, const struct project *p)
{
	const struct draft *d;
	int i, lo, hi;

	lg->win_lo = xcalloc(lg->ndrafts + 1, sizeof *lg->win_lo);
	lg->win_hi = xcalloc(lg->ndrafts + 1, sizeof *lg->win_hi);
	for (i = 0; i < lg->ndrafts; i++) {
		d = &p->drafts[i];
		lo = 0;
		hi = lg->horizon - 1;
		while (lo < lg->horizon && !legal_in_window(d,
		    legal_slot_time(lg, lo)))
			lo++;
		while (hi >= lo && !legal_in_window(d, legal_slot_time(lg, hi)))
			hi--;
		lg->win_lo[i] = lo;
		lg->win_hi[i] = hi;
	}
}

struct legal *
legal_new(const struct project *p, const struct legal_past *past, int npast,
    struct error *err)
{
	struct legal *lg;
	int d, f, k, i;

	for (i = 0; i < npast; i++)
		if (past[i].front < 0 || past[i].front >= p->nfronts) {
			error_set(err, EXIT_ERROR, "past post %d: unknown front "
			    "index %d", i, past[i].front);
			return NULL;
		}
	lg = xcalloc(1, sizeof *lg);
	lg->nfronts = p->nfronts;
	lg->ndrafts = p->ndrafts;
	lg->horizon = p->horizon_slots > 0 ? p->horizon_slots : 0;
	lg->slot_seconds = p->slot_minutes * 60;
	lg->start = p->start;
	lg->limits = xcalloc(p->nfronts + 1, sizeof *lg->limits);
	for (f = 0; f < p->nfronts; f++)
		lg->limits[f] = p->fronts[f].limits;
	lg->verdict = xcalloc((size_t)p->ndrafts * p->nfronts + 1, 1);
	for (d = 0; d < p->ndrafts; d++)
		for (f = 0; f < p->nfronts; f++)
			lg->verdict[(size_t)d * p->nfronts + f] =
			    legal_measure(p, d, f);
	lg->day = xcalloc(lg->horizon + 1, sizeof *lg->day);
	lg->quiet = xcalloc((size_t)p->nfronts * lg->horizon + 1, 1);
	lg->pastgap = xcalloc((size_t)p->nfronts * lg->horizon + 1, 1);
	lg->pastcount = xcalloc((size_t)p->nfronts * lg->horizon + 1,
	    sizeof *lg->pastcount);
	for (k = 0; k < lg->horizon; k++) {
		time_t t = legal_slot_time(lg, k);
		int hour = time_local_hour(t);

		lg->day[k] = time_local_day(t);
		for (f = 0; f < p->nfronts; f++)
			lg->quiet[(size_t)f * lg->horizon + k] =
			    legal_is_quiet(&lg->limits[f], hour);
	}
	legal_windows(lg, p);
	lg->postedbytes = ((size_t)p->ndrafts * p->nfronts + 7) / 8 + 1;
	lg->preposted = xcalloc(lg->postedbytes, 1);
	for (i = 0; i < npast; i++)
		legal_add_past(lg, &past[i]);
	legal_pins_build(lg, p);
	return lg;
}

void
legal_free(struct legal *lg)
{
	if (lg == NULL)
		return;
	free(lg->limits);
	free(lg->verdict);
	free(lg->day);
	free(lg->quiet);
	free(lg->pastgap);
	free(lg->pastcount);
	legal_pins_free(lg);
	free(lg->win_lo);
	free(lg->win_hi);
	free(lg->preposted);
	free(lg);
}

int
legal_past_from_history(const struct project *p, struct legal_past **out)
{
	int i;

	*out = xcalloc(p->nhistory + 1, sizeof **out);
	for (i = 0; i < p->nhistory; i++) {
		(*out)[i].front = p->history[i].front;
		(*out)[i].at = p->history[i].posted_at;
	}
	return p->nhistory;
}

/* The drafts the operator skipped for good on a front: used, not made. */
static void
legal_past_skipped(const struct project *p, const struct ledger *l,
    struct legal_past *out, int *n)
{
	const struct ledger_entry *e;
	int i, f;

	for (i = 0; i < l->nentries; i++) {
		e = &l->entries[i];
		if (e->state != LEDGER_SKIPPED || e->reason == NULL ||
		    strcmp(e->reason, "operator") != 0 ||
		    (f = project_front_index(p, e->front)) < 0)
			continue;
		memset(&out[*n], 0, sizeof *out);
		out[*n].front = f;
		out[*n].at = e->at;
		out[*n].draft = project_draft_index(p, e->draft) + 1;
		out[*n].uncounted = true;
		(*n)++;
	}
}

/* History plus the ledger's posts. Entries whose outcome is unknown count
 * as posted: they may be online, and counting them can only make the caps
 * stricter. A damaged ledger is an error, not a shorter history. */
int
legal_past_load(const struct project *p, struct legal_past **out, int *n,
    struct error *err)
{
	struct ledger l;
	struct ledger_sent *sent;
	int ns, i, f;

	*n = legal_past_from_history(p, out);
	if (ledger_open(p->dir, &l, err) != 0)
		goto fail;
	if (l.nproblems > 0) {
		error_set(err, EXIT_ERROR, "%s", l.problems[0]);
		ledger_free(&l);
		goto fail;
	}
	ns = ledger_sent_posts(&l, true, &sent);
	*out = xrealloc(*out, (size_t)(*n + ns + l.nentries + 1) *
	    sizeof **out);
	for (i = 0; i < ns; i++) {
		if ((f = project_front_index(p, sent[i].front)) < 0)
			continue;	/* a front no longer in fronts.json */
		memset(&(*out)[*n], 0, sizeof **out);
		(*out)[*n].front = f;
		(*out)[*n].at = sent[i].at;
		(*out)[*n].draft = project_draft_index(p, sent[i].draft) + 1;
		(*n)++;
	}
	free(sent);
	legal_past_skipped(p, &l, *out, n);
	ledger_free(&l);
	return 0;
fail:
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

int
legal_horizon(const struct legal *lg)
{
	return lg->horizon;
}

time_t
legal_slot_time(const struct legal *lg, int slot)
{
	return lg->start + (time_t)slot * lg->slot_seconds;
}

int
legal_max_actions(const struct legal *lg)
{
	return lg->ndrafts * lg->nfronts + 1;
}

enum legal_verdict
legal_static(const struct legal *lg, const struct action *a)
{
	if (a->kind == ACTION_WAIT)
		return LEGAL_OK;
	if (a->kind != ACTION_POST)
		return LEGAL_BAD_KIND;
	if (a->draft >= (uint32_t)lg->ndrafts)
		return LEGAL_UNKNOWN_DRAFT;
	if (a->front >= (uint32_t)lg->nfronts)
		return LEGAL_UNKNOWN_FRONT;
	return lg->verdict[(size_t)a->draft * lg->nfronts + a->front];
}

struct legal_path *
legal_path_new(const struct legal *lg)
{
	struct legal_path *lp;

	lp = xcalloc(1, sizeof *lp);
	lp->fronts = xcalloc(lg->nfronts + 1, sizeof *lp->fronts);
	lp->posted = xcalloc(lg->postedbytes, 1);
	legal_path_reset(lg, lp);
	return lp;
}

void
legal_path_free(struct legal_path *lp)
{
	if (lp == NULL)
		return;
	free(lp->fronts);
	free(lp->posted);
	free(lp);
}

void
legal_path_reset(const struct legal *lg, struct legal_path *lp)
{
	int f;

	lp->slot = 0;
	for (f = 0; f < lg->nfronts; f++) {
		lp->fronts[f].last = NO_POST;
		lp->fronts[f].day = LONG_MIN;
		lp->fronts[f].count = 0;
		lp->fronts[f].pins = 0;
	}
	memcpy(lp->posted, lg->preposted, lg->postedbytes);
}

void
legal_path_copy(const struct legal *lg, struct legal_path *dst,
    const struct legal_path *src)
{
	dst->slot = src->slot;
	memcpy(dst->fronts, src->fronts, lg->nfronts * sizeof *dst->fronts);
	memcpy(dst->posted, src->posted, lg->postedbytes);
}

int
legal_path_slot(const struct legal_path *lp)
{
	return lp->slot;
}

bool
legal_path_done(const struct legal *lg, const struct legal_path *lp)
{
	return lp->slot >= lg->horizon;
}

bool
legal_is_posted(const struct legal *lg, const struct legal_path *lp,
    const struct action *a)
{
	size_t bit = (size_t)a->draft * lg->nfronts + a->front;

	return (lp->posted[bit / 8] >> (bit % 8)) & 1;
}

/* Quiet hours, the gap and the cap of front f now: the same for every
 * draft. */
static enum legal_verdict
legal_moment(const struct legal *lg, const struct legal_path *lp, uint32_t f)
{
	const struct limits *l = &lg->limits[f];
	const struct legal_front *fs = &lp->fronts[f];
	size_t i = (size_t)f * lg->horizon + lp->slot;
	int64_t now = (int64_t)lp->slot * lg->slot_seconds;
	int count;

	if (lg->quiet[i])
		return LEGAL_QUIET;
	if (l->min_gap_minutes != LIMIT_UNSET) {
		if (lg->pastgap[i])
			return LEGAL_GAP;
		if (fs->last != NO_POST &&
		    now - fs->last < (int64_t)l->min_gap_minutes * 60)
			return LEGAL_GAP;
	}
	if (l->max_posts_per_day != LIMIT_UNSET) {
		count = lg->pastcount[i];
		if (fs->day == lg->day[lp->slot])
			count += fs->count;
		if (count >= l->max_posts_per_day)
			return LEGAL_CAP;
	}
	return LEGAL_OK;
}

/* The moment's checks of a post whose static verdict is LEGAL_OK. */
static enum legal_verdict
legal_check_post(const struct legal *lg, const struct legal_path *lp,
    const struct action *a)
{
	enum legal_verdict v;
	bool pinned;

	if (legal_is_posted(lg, lp, a))
		return LEGAL_POSTED;
	if (lp->slot < lg->win_lo[a->draft] || lp->slot > lg->win_hi[a->draft])
		return LEGAL_WINDOW;
	if ((v = legal_pins_post(lg, lp, a, &pinned)) != LEGAL_OK)
		return v;
	return legal_moment(lg, lp, a->front);
}

enum legal_verdict
legal_front_now(const struct legal *lg, const struct legal_path *lp,
    uint32_t f)
{
	enum legal_verdict v;

	if (lp->slot >= lg->horizon)
		return LEGAL_HORIZON;
	if ((v = legal_pins_front(lg, lp, f)) != LEGAL_OK)
		return v;
	return legal_moment(lg, lp, f);
}

enum legal_verdict
legal_check_now(const struct legal *lg, const struct legal_path *lp,
    const struct action *a, enum legal_verdict front)
{
	if (front == LEGAL_HORIZON)
		return front;
	if (legal_is_posted(lg, lp, a))
		return LEGAL_POSTED;
	if (lp->slot < lg->win_lo[a->draft] || lp->slot > lg->win_hi[a->draft])
		return LEGAL_WINDOW;
	if (lg->pinslot[(size_t)a->draft * lg->nfronts + a->front] >= 0)
		return legal_check_post(lg, lp, a);
	return front;
}

enum legal_verdict
legal_check(const struct legal *lg, const struct legal_path *lp,
    const struct action *a)
{
	enum legal_verdict v;

	v = legal_static(lg, a);
	if (v != LEGAL_OK)
		return v;
	if (lp->slot >= lg->horizon)
		return LEGAL_HORIZON;
	if (a->kind == ACTION_WAIT)
		return legal_pins_wait(lg, lp);
	return legal_check_post(lg, lp, a);
}

void
legal_apply(const struct legal *lg, struct legal_path *lp,
    const struct action *a)
{
	struct legal_front *fs;
	size_t bit;
	long day;

	if (a->kind == ACTION_WAIT) {
		lp->slot++;
		return;
	}
	fs = &lp->fronts[a->front];
	day = lg->day[lp->slot];
	if (fs->day != day) {
		fs->day = day;
		fs->count = 0;
		fs->pins = 0;
	}
	fs->count++;
	if (lg->pinslot[(size_t)a->draft * lg->nfronts + a->front] ==
	    lp->slot)
		fs->pins++;
	fs->last = (int64_t)lp->slot * lg->slot_seconds;
	bit = (size_t)a->draft * lg->nfronts + a->front;
	lp->posted[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

int
legal_enumerate(const struct legal *lg, const struct legal_path *lp,
    struct action *out)
{
	struct action a;
	int n = 0, d, f;

	if (lp->slot >= lg->horizon)
		return 0;
	out[n].kind = ACTION_WAIT;
	out[n].front = 0;
	out[n].draft = 0;
	n += legal_pins_wait(lg, lp) == LEGAL_OK;
	for (d = 0; d < lg->ndrafts; d++)
		for (f = 0; f < lg->nfronts; f++) {
			a.kind = ACTION_POST;
			a.draft = d;
			a.front = f;
			if (legal_check(lg, lp, &a) == LEGAL_OK)
				out[n++] = a;
		}
	return n;
}

static cJSON *
legal_ints(const void *a, int n, int size)
{
	cJSON *arr = cJSON_CreateArray();
	double v;
	int i;

	for (i = 0; i < n; i++) {
		if (size == 1)
			v = ((const uint8_t *)a)[i];
		else if (size == (int)sizeof(int))
			v = ((const int *)a)[i];
		else
			v = (double)((const long *)a)[i];
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(v));
	}
	return arr;
}

cJSON *
legal_tables_json(const struct legal *lg)
{
	cJSON *o = cJSON_CreateObject(), *gap, *cap;
	int nfh = lg->nfronts * lg->horizon, f;

	cJSON_AddNumberToObject(o, "horizon", lg->horizon);
	cJSON_AddNumberToObject(o, "slot_seconds", lg->slot_seconds);
	cJSON_AddNumberToObject(o, "nfronts", lg->nfronts);
	cJSON_AddNumberToObject(o, "ndrafts", lg->ndrafts);
	cJSON_AddItemToObject(o, "verdict", legal_ints(lg->verdict,
	    lg->ndrafts * lg->nfronts, 1));
	cJSON_AddItemToObject(o, "window_lo", legal_ints(lg->win_lo,
	    lg->ndrafts, sizeof(int)));
	cJSON_AddItemToObject(o, "window_hi", legal_ints(lg->win_hi,
	    lg->ndrafts, sizeof(int)));
	cJSON_AddItemToObject(o, "day", legal_ints(lg->day, lg->horizon,
	    sizeof(long)));
	cJSON_AddItemToObject(o, "quiet", legal_ints(lg->quiet, nfh, 1));
	cJSON_AddItemToObject(o, "pastgap", legal_ints(lg->pastgap, nfh, 1));
	cJSON_AddItemToObject(o, "pastcount", legal_ints(lg->pastcount, nfh,
	    sizeof(int)));
	gap = cJSON_AddArrayToObject(o, "gap_seconds");
	cap = cJSON_AddArrayToObject(o, "cap");
	for (f = 0; f < lg->nfronts; f++) {
		cJSON_AddItemToArray(gap, cJSON_CreateNumber(
		    lg->limits[f].min_gap_minutes == LIMIT_UNSET ? -1 :
		    lg->limits[f].min_gap_minutes * 60.0));
		cJSON_AddItemToArray(cap, cJSON_CreateNumber(
		    lg->limits[f].max_posts_per_day));
	}
	return o;
}
