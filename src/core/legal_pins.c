/*
 * legal_pins — the operator's pins (pins.jsonl) inside the legality
 * engine (see legal.h). A pin is a rule like a cap: the search, the
 * polishing and the plan's re-check all ask legal_check(), so none of
 * them can move a pinned post, offer a dropped draft or leave a pin out.
 * The other posts of a pinned front keep away from what a pin needs (its
 * gap, its room under the day's cap), so every path can make every pin;
 * legal_pins_check() refuses, before any search, a pin no path could make.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/legal.h"
#include "core/legal_int.h"
#include "core/timeutil.h"

#define PIN_PASSED	(-2)	/* before the start: ignored */
#define PIN_OFF_GRID	(-3)	/* between two slots */
#define PIN_BEYOND	(-4)	/* after the horizon */

/* The slot of a timed pin, or one of the PIN_ codes. */
static int
pin_slot(const struct legal *lg, const struct pin *pin)
{
	int64_t d = (int64_t)pin->at - (int64_t)lg->start;

	if (d < 0)
		return PIN_PASSED;
	if (lg->slot_seconds <= 0 || d % lg->slot_seconds != 0)
		return PIN_OFF_GRID;
	if (d / lg->slot_seconds >= lg->horizon)
		return PIN_BEYOND;
	return (int)(d / lg->slot_seconds);
}

static int
pinact_cmp(const void *a, const void *b)
{
	const struct action *x = a, *y = b;

	if (x->draft != y->draft)
		return x->draft < y->draft ? -1 : 1;
	return (x->front > y->front) - (x->front < y->front);
}

/* The pinned posts by slot, each slot's in the search's order. */
static void
pins_order(struct legal *lg)
{
	int i, j, k;

	for (i = 1; i < lg->npinact; i++)
		for (j = i; j > 0 && (lg->pinactslot[j - 1] > lg->pinactslot[j] ||
		    (lg->pinactslot[j - 1] == lg->pinactslot[j] &&
		    pinact_cmp(&lg->pinact[j - 1], &lg->pinact[j]) > 0)); j--) {
			struct action t = lg->pinact[j];
			int ts = lg->pinactslot[j];

			lg->pinact[j] = lg->pinact[j - 1];
			lg->pinactslot[j] = lg->pinactslot[j - 1];
			lg->pinact[j - 1] = t;
			lg->pinactslot[j - 1] = ts;
		}
	for (k = 0, i = 0; k <= lg->horizon; k++) {
		while (i < lg->npinact && lg->pinactslot[i] < k)
			i++;
		lg->pinfirst[k] = i;
	}
}

/* What a timed pin holds back on its front: the slots within its gap,
 * and a place under its day's cap. */
static void
pins_reserve(struct legal *lg, int f, int slot)
{
	const struct limits *l = &lg->limits[f];
	int64_t gap = l->min_gap_minutes == LIMIT_UNSET ? 0 :
	    (int64_t)l->min_gap_minutes * 60;
	int64_t dt;
	int k;

	for (k = 0; k < lg->horizon; k++) {
		size_t i = (size_t)f * lg->horizon + k;

		dt = (int64_t)(k - slot) * lg->slot_seconds;
		if (dt < 0)
			dt = -dt;
		if (dt < gap)
			lg->pingap[i] = 1;
		if (lg->day[k] == lg->day[slot])
			lg->pinday[i]++;
	}
}

/* Keeps draft d off every front its pins leave out (mask), or off all of
 * them (a drop). */
static void
pins_restrict(struct legal *lg, int d, uint64_t mask, bool drop)
{
	uint8_t *v;
	int f;

	for (f = 0; f < lg->nfronts; f++) {
		v = &lg->verdict[(size_t)d * lg->nfronts + f];
		if (*v != LEGAL_OK)
			continue;
		if (drop)
			*v = LEGAL_DROPPED;
		else if ((mask & ((uint64_t)1 << f)) == 0)
			*v = LEGAL_PINNED;
	}
}

void
legal_pins_build(struct legal *lg, const struct project *p)
{
	size_t nh = (size_t)lg->nfronts * lg->horizon + 1;
	const struct pin *pin;
	uint64_t *mask;
	bool *pinned, *dropped;
	int i, d, slot;

	lg->pinslot = xcalloc((size_t)lg->ndrafts * lg->nfronts + 1,
	    sizeof *lg->pinslot);
	for (i = 0; i < lg->ndrafts * lg->nfronts; i++)
		lg->pinslot[i] = -1;
	lg->pinact = xcalloc(p->npins + 1, sizeof *lg->pinact);
	lg->pinactslot = xcalloc(p->npins + 1, sizeof *lg->pinactslot);
	lg->pinfirst = xcalloc(lg->horizon + 2, sizeof *lg->pinfirst);
	lg->pingap = xcalloc(nh, 1);
	lg->pinday = xcalloc(nh, sizeof *lg->pinday);
	mask = xcalloc(lg->ndrafts + 1, sizeof *mask);
	pinned = xcalloc(lg->ndrafts + 1, sizeof *pinned);
	dropped = xcalloc(lg->ndrafts + 1, sizeof *dropped);
	for (i = 0; i < p->npins; i++) {
		pin = &p->pins[i];
		if (pin->draft < 0 || pin->draft >= lg->ndrafts)
			continue;
		if (pin->drop) {
			dropped[pin->draft] = true;
			continue;
		}
		slot = pin->has_at ? pin_slot(lg, pin) : -1;
		if (slot == PIN_PASSED)
			continue;
		pinned[pin->draft] = true;
		mask[pin->draft] |= (uint64_t)1 << pin->front;
		/* Only a pin that can be made there is forced: the planner
		 * refuses the others first (legal_pins_check). */
		if (slot < 0 || lg->verdict[(size_t)pin->draft * lg->nfronts +
		    pin->front] != LEGAL_OK ||
		    lg->quiet[(size_t)pin->front * lg->horizon + slot] ||
		    slot < lg->win_lo[pin->draft] ||
		    slot > lg->win_hi[pin->draft])
			continue;
		lg->pinslot[(size_t)pin->draft * lg->nfronts + pin->front] =
		    slot;
		lg->pinact[lg->npinact] = (struct action){ ACTION_POST,
		    (uint16_t)pin->front, (uint32_t)pin->draft };
		lg->pinactslot[lg->npinact++] = slot;
		pins_reserve(lg, pin->front, slot);
	}
	for (d = 0; d < lg->ndrafts; d++)
		if (dropped[d] || pinned[d])
			pins_restrict(lg, d, mask[d], dropped[d]);
	pins_order(lg);
	free(mask);
	free(pinned);
	free(dropped);
}

void
legal_pins_free(struct legal *lg)
{
	free(lg->pinslot);
	free(lg->pinact);
	free(lg->pinactslot);
	free(lg->pinfirst);
	free(lg->pingap);
	free(lg->pinday);
}

int
legal_pins_due(const struct legal *lg, const struct legal_path *lp,
    struct action *out)
{
	int i, n = 0;

	if (lp->slot < 0 || lp->slot >= lg->horizon)
		return 0;
	for (i = lg->pinfirst[lp->slot]; i < lg->pinfirst[lp->slot + 1]; i++)
		if (!legal_is_posted(lg, lp, &lg->pinact[i]))
			out[n++] = lg->pinact[i];
	return n;
}

static bool
pins_pending(const struct legal *lg, const struct legal_path *lp)
{
	int i;

	for (i = lg->pinfirst[lp->slot]; i < lg->pinfirst[lp->slot + 1]; i++)
		if (!legal_is_posted(lg, lp, &lg->pinact[i]))
			return true;
	return false;
}

enum legal_verdict
legal_pins_wait(const struct legal *lg, const struct legal_path *lp)
{
	return pins_pending(lg, lp) ? LEGAL_PINNED : LEGAL_OK;
}

bool
legal_pinned_at(const struct legal *lg, const struct action *a, int slot)
{
	return a->kind == ACTION_POST && a->draft < (uint32_t)lg->ndrafts &&
	    a->front < (uint32_t)lg->nfronts &&
	    lg->pinslot[(size_t)a->draft * lg->nfronts + a->front] == slot;
}

enum legal_verdict
legal_pins_post(const struct legal *lg, const struct legal_path *lp,
    const struct action *a, bool *pinned)
{
	int ps = lg->pinslot[(size_t)a->draft * lg->nfronts + a->front];

	*pinned = ps == lp->slot;
	if (ps >= 0)
		return *pinned ? LEGAL_OK : LEGAL_PINNED;
	return legal_pins_front(lg, lp, a->front);
}

enum legal_verdict
legal_pins_front(const struct legal *lg, const struct legal_path *lp,
    uint32_t f)
{
	const struct legal_front *fs = &lp->fronts[f];
	const struct limits *l = &lg->limits[f];
	size_t i = (size_t)f * lg->horizon + lp->slot;
	int count, made;

	if (pins_pending(lg, lp) || lg->pingap[i])
		return LEGAL_PINNED;
	if (lg->pinday[i] == 0 || l->max_posts_per_day == LIMIT_UNSET)
		return LEGAL_OK;
	count = lg->pastcount[i];
	made = 0;
	if (fs->day == lg->day[lp->slot]) {
		count += fs->count;
		made = fs->pins;
	}
	if (count + lg->pinday[i] - made + 1 > l->max_posts_per_day)
		return LEGAL_PINNED;
	return LEGAL_OK;
}

/* Why a draft may never go to a front, in the operator's words. */
static const char *
pins_static_why(enum legal_verdict v)
{
	switch (v) {
	case LEGAL_NOT_ALLOWED:
		return "the draft's \"fronts\" leave this front out";
	case LEGAL_TOO_LONG:
		return "the text is too long for the front (max_length)";
	case LEGAL_TOO_MANY_LINKS:
		return "the text has more links than the front allows "
		    "(max_links)";
	case LEGAL_TOO_MANY_HASHTAGS:
		return "the text has more hashtags than the front allows "
		    "(max_hashtags)";
	case LEGAL_BAD_TEXT:
		return "the text is not valid UTF-8";
	default:
		return "its thread or images cannot go there (see `fronts "
		    "drafts`)";
	}
}

/* "outside the draft's window (not_before …, not_after …)". */
static void
pins_window_why(const struct draft *d, char *why, size_t len)
{
	char w[100];

	legal_window_text(d, w, sizeof w);
	snprintf(why, len, "outside the draft's window (%s)", w);
}

/* The rule a timed pin at slot k breaks on its own ("" if none). */
static void
pins_slot_why(const struct legal *lg, const struct project *p,
    const struct pin *pin, int k, char *why, size_t len)
{
	const struct limits *l = &lg->limits[pin->front];
	size_t i = (size_t)pin->front * lg->horizon + k;
	const struct pin *o;
	int j, n, ok;

	why[0] = '\0';
	if (lg->quiet[i]) {
		snprintf(why, len, "inside the front's quiet hours "
		    "(quiet_hours [%d, %d])", l->quiet_start, l->quiet_end);
		return;
	}
	if (l->min_gap_minutes != LIMIT_UNSET && lg->pastgap[i]) {
		snprintf(why, len, "within min_gap_minutes (%d) of a post "
		    "already made on the front", l->min_gap_minutes);
		return;
	}
	n = lg->pastcount[i] + 1;
	for (j = 0; j < p->npins && &p->pins[j] != pin; j++) {
		o = &p->pins[j];
		if (o->drop || !o->has_at || o->front != pin->front ||
		    (ok = pin_slot(lg, o)) < 0)
			continue;
		if (l->min_gap_minutes != LIMIT_UNSET &&
		    (int64_t)abs(ok - k) * lg->slot_seconds <
		    (int64_t)l->min_gap_minutes * 60) {
			snprintf(why, len, "within min_gap_minutes (%d) of the "
			    "pin on line %d", l->min_gap_minutes, o->line);
			return;
		}
		n += lg->day[ok] == lg->day[k];
	}
	if (l->max_posts_per_day != LIMIT_UNSET && n > l->max_posts_per_day)
		snprintf(why, len, "over the front's max_posts_per_day (%d) "
		    "that day, with the posts already made and the pins before "
		    "it", l->max_posts_per_day);
}

/* Why a timed pin has no slot ("" when it has one, or has passed). */
static void
pins_time_why(const struct legal *lg, const struct pin *pin, char *why,
    size_t len)
{
	char a[40], b[40];
	time_t lo;

	why[0] = '\0';
	switch (pin_slot(lg, pin)) {
	case PIN_OFF_GRID:
		lo = lg->start + ((pin->at - lg->start) / lg->slot_seconds) *
		    lg->slot_seconds;
		time_format_local(lo, a, sizeof a);
		time_format_local(lo + lg->slot_seconds, b, sizeof b);
		snprintf(why, len, "not on a slot boundary (slots are %d "
		    "minutes apart; the nearest are %s and %s)",
		    lg->slot_seconds / 60, a, b);
		break;
	case PIN_BEYOND:
		time_format_local(legal_slot_time(lg, lg->horizon - 1), a,
		    sizeof a);
		snprintf(why, len, "after the plan's horizon (its last slot "
		    "is %s)", a);
		break;
	}
}

int
legal_pins_check(const struct project *p, const struct legal_past *past,
    int npast, struct error *err)
{
	struct legal *lg;
	const struct pin *pin;
	enum legal_verdict v;
	char why[256], *path;
	int i, k;

	if (p->npins == 0)
		return 0;
	if ((lg = legal_new(p, past, npast, err)) == NULL)
		return -1;
	for (i = 0; i < p->npins; i++) {
		pin = &p->pins[i];
		if (pin->drop)
			continue;
		why[0] = '\0';
		if ((v = legal_measure(p, pin->draft, pin->front)) != LEGAL_OK)
			snprintf(why, sizeof why, "%s", pins_static_why(v));
		else if (pin->has_at) {
			pins_time_why(lg, pin, why, sizeof why);
			if (why[0] == '\0' && pin_slot(lg, pin) != PIN_PASSED &&
			    !legal_in_window(&p->drafts[pin->draft], pin->at))
				pins_window_why(&p->drafts[pin->draft], why,
				    sizeof why);
			if (why[0] == '\0' && (k = pin_slot(lg, pin)) >= 0)
				pins_slot_why(lg, p, pin, k, why, sizeof why);
		} else if (lg->win_lo[pin->draft] > lg->win_hi[pin->draft] &&
		    lg->horizon > 0) {
			pins_window_why(&p->drafts[pin->draft], why, sizeof why);
			snprintf(why + strlen(why), sizeof why - strlen(why),
			    ": no slot of the plan's horizon is inside it");
		}
		if (why[0] == '\0')
			continue;
		path = path_join(p->dir, "pins.jsonl");
		error_set(err, EXIT_REFUSED, "%s:%d: pin of %s on %s%s%s "
		    "refused: %s", path, pin->line, p->drafts[pin->draft].id,
		    p->fronts[pin->front].id, pin->has_at ? " at " : "",
		    pin->has_at ? pin->at_text : "", why);
		free(path);
		legal_free(lg);
		return -1;
	}
	legal_free(lg);
	return 0;
}

int
legal_pins_verify(const struct project *p, struct error *err)
{
	struct legal_past *past;
	int npast, rc;

	if (legal_past_load(p, &past, &npast, err) != 0)
		return -1;
	rc = legal_pins_check(p, past, npast, err);
	free(past);
	return rc;
}
