/*
 * legal — the legality engine: the one place that decides what may be
 * posted at all (docs/DESIGN.md "Exact rules"). The world model can only narrow
 * the set this engine allows, never widen it.
 *
 * A struct legal is built once per plan from the project and the posts
 * already made (history.jsonl and `sent` ledger entries): everything that
 * does not depend on the simulated path (lengths, link and hashtag counts,
 * quiet hours, local calendar days and the past posts' effect on caps and
 * gaps, per slot) is precomputed there. A struct legal_path is the
 * fixed-size clock and post log of one simulated path; checking an action
 * against it does no allocation and no time-zone work.
 */
#ifndef FRONTS_LEGAL_H
#define FRONTS_LEGAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/model.h"
#include "core/project.h"
#include "core/text.h"
#include "core/util.h"

/* A post already made: it counts toward caps and gaps at the start, and
 * when its draft is known that draft counts as posted on the front. */
struct legal_past {
	int	front;		/* index into project.fronts */
	time_t	at;
	int	draft;		/* index into project.drafts + 1; 0: unknown */
	bool	uncounted;	/* never made (skipped by the operator for
				 * good): it only marks the draft used */
};

enum legal_verdict {
	LEGAL_OK = 0,
	/* Never legal: counted as illegal proposals. */
	LEGAL_BAD_KIND,
	LEGAL_UNKNOWN_DRAFT,
	LEGAL_UNKNOWN_FRONT,
	LEGAL_NOT_ALLOWED,	/* the draft may not go to that front */
	LEGAL_TOO_LONG,
	LEGAL_TOO_MANY_LINKS,
	LEGAL_TOO_MANY_HASHTAGS,
	LEGAL_BAD_TEXT,		/* not valid UTF-8 */
	LEGAL_NO_THREAD,	/* a thread, where the platform takes one post */
	LEGAL_NO_IMAGES,	/* an image, where none can go */
	LEGAL_TOO_MANY_IMAGES,	/* more images on a part than allowed */
	LEGAL_IMAGE_TYPE,	/* a type the platform does not take */
	LEGAL_IMAGE_SIZE,	/* over the platform's bytes or pixels */
	LEGAL_IMAGE_BAD,	/* not read: missing, corrupt, not an image */
	LEGAL_ALT_MISSING,	/* the front's limits require alt text */
	LEGAL_ALT_TOO_LONG,
	/* Blocked at this moment only: filtered without counting. */
	LEGAL_HORIZON,		/* the path reached horizon_slots */
	LEGAL_POSTED,		/* this draft is already posted on that front */
	LEGAL_CAP,		/* daily cap of the front reached */
	LEGAL_GAP,		/* too soon after another post on the front */
	LEGAL_QUIET,		/* inside the front's quiet hours */
	LEGAL_WINDOW,		/* outside the draft's not_before/not_after */
	/* The operator's pins (pins.jsonl), filtered without counting. */
	LEGAL_DROPPED,		/* the draft is dropped from every plan */
	LEGAL_PINNED		/* a pin puts it (or its slot) elsewhere */
};

/* True for the verdicts that count as illegal proposals. */
static inline bool
legal_never(enum legal_verdict v)
{
	return v >= LEGAL_BAD_KIND && v < LEGAL_HORIZON;
}

const char	*legal_verdict_name(enum legal_verdict);	/* "cap", … */

struct legal;
struct legal_path;

/* Builds the engine for p. past may be NULL when npast is 0. Fails (err)
 * when a past post names an unknown front. */
struct legal	*legal_new(const struct project *p,
		    const struct legal_past *past, int npast,
		    struct error *err);
void		 legal_free(struct legal *);

/* Every post of p's history as past posts (caller frees *out). */
int		 legal_past_from_history(const struct project *p,
		    struct legal_past **out);

/* The posts that count at the start of a plan: history.jsonl and the
 * `sent` entries of the publish ledger (.fronts/ledger.jsonl), whose
 * drafts count as posted on their fronts, as do the drafts the operator
 * skipped for good on a front (`fronts run`). Reads files:
 * call it before a sandbox drops the right to. */
int		 legal_past_load(const struct project *p,
		    struct legal_past **out, int *n, struct error *err);

/* The link and hashtag caps of limits l on measured text (links and
 * hashtags as its platform counts them): LEGAL_OK, LEGAL_TOO_MANY_LINKS or
 * LEGAL_TOO_MANY_HASHTAGS. */
enum legal_verdict	legal_caps(const struct limits *l,
			    const struct text_measure *m);
/* Each cap on its own, for reports that name every cap a text breaks. */
bool			legal_over_links(const struct limits *l,
			    const struct text_measure *m);
bool			legal_over_hashtags(const struct limits *l,
			    const struct text_measure *m);
/* The verdict on text against front f's limits, whatever the slot:
 * LEGAL_BAD_TEXT (not UTF-8), LEGAL_TOO_LONG (length or bytes as the
 * platform counts them), then legal_caps(). *m holds the measure unless
 * the text is not UTF-8. */
enum legal_verdict	legal_text(const struct front *f, const char *text,
			    struct text_measure *m);

/*
 * Bodies and images (legal_media.c): what each platform can carry, as its
 * own documentation, lexicon or server source says (README "Threads,
 * images and variants"), narrowed by a Mastodon instance's announced
 * limits and the front's limits.
 */
/* The verdict on one image of a part (facts as reading it found them):
 * LEGAL_IMAGE_BAD, LEGAL_IMAGE_TYPE, LEGAL_IMAGE_SIZE, LEGAL_ALT_MISSING,
 * LEGAL_ALT_TOO_LONG or LEGAL_OK; why (may be NULL) says what in words. */
enum legal_verdict	legal_image(const struct front *f,
			    const struct media *m, char *why, size_t len);
/* The verdict on what front f gets of a draft, whatever the slot: the
 * thread, then each part's text (legal_text), its number of images and
 * each image; why names the part and the image of the first rule
 * broken ("part 2: …"). */
enum legal_verdict	legal_body(const struct front *f,
			    const struct body *b, char *why, size_t len);
/* How many images one post on f may carry (0: none) and whether f's
 * platform can carry a thread. */
int			legal_max_images(const struct front *f);
bool			legal_threads(const struct front *f);
/* The longest alt text f takes, in characters (0: no limit). */
int			legal_max_alt(const struct front *f);
/* "not_before T, not_after T" (times in the project's zone; the ends
 * a draft sets) into buf. */
void			legal_window_text(const struct draft *d, char *buf,
			    size_t len);
/* Is time t inside draft d's window (not_before <= t <= not_after)? */
bool			legal_in_window(const struct draft *d, time_t t);

/* The verdict of an action regardless of any path (never-legal reasons). */
enum legal_verdict	legal_static(const struct legal *, const struct action *);

/*
 * Pins (project.pins): a dropped draft is never legal (LEGAL_DROPPED); a
 * draft pinned to some fronts is legal on those only, and one pinned to a
 * time only at that slot (LEGAL_PINNED). At a slot that holds a pinned
 * post the only legal actions are its pinned posts until they are made
 * (the wait too is refused), and the other posts of a pinned front keep
 * off the pins' gaps and leave their day's cap room for them, so a path
 * can always make every pin. A pin whose time is before the start is
 * ignored; one that is not on a slot of the horizon, or that the text or
 * the quiet hours rule out there, is not forced (the planner refuses it
 * first: legal_pins_check).
 */
/* The pinned posts due at the path's slot and not yet made, in the
 * search's (draft, front) order; returns the count (at most
 * legal_max_actions()). */
int		 legal_pins_due(const struct legal *,
		    const struct legal_path *, struct action *out);
/* Is a pinned (to a time) at slot? */
bool		 legal_pinned_at(const struct legal *, const struct action *a,
		    int slot);
/* Every pin of p against the rules, with the posts already made: the
 * first one refused is an error (EXIT_REFUSED) naming pins.jsonl, its
 * line and the rule. */
int		 legal_pins_check(const struct project *p,
		    const struct legal_past *past, int npast,
		    struct error *err);

/* legal_pins_check() against the posts already made (history and the
 * ledger, as the planner counts them). */
int		 legal_pins_verify(const struct project *p,
		    struct error *err);

/* Paths: allocated once, reset at the start of every simulated path. */
struct legal_path	*legal_path_new(const struct legal *);
void			 legal_path_free(struct legal_path *);
void			 legal_path_reset(const struct legal *,
			    struct legal_path *);
void			 legal_path_copy(const struct legal *,
			    struct legal_path *dst, const struct legal_path *src);
int			 legal_path_slot(const struct legal_path *);
bool			 legal_path_done(const struct legal *,
			    const struct legal_path *);

/* The verdict of an action on this path now. */
enum legal_verdict	legal_check(const struct legal *,
			    const struct legal_path *, const struct action *);
/*
 * legal_check in two parts, for many posts at one moment: the part of a
 * post's verdict that does not depend on its draft, per front, and with
 * it the verdict of a post whose static verdict is LEGAL_OK. Equal to
 * legal_check's verdict; one legal_front_now per front then serves every
 * proposal of a long list.
 */
enum legal_verdict	legal_front_now(const struct legal *,
			    const struct legal_path *, uint32_t front);
enum legal_verdict	legal_check_now(const struct legal *,
			    const struct legal_path *, const struct action *,
			    enum legal_verdict front);
/* Records an action on the path (the caller checked it). A wait moves the
 * clock one slot forward; a post happens at the current slot. */
void			legal_apply(const struct legal *, struct legal_path *,
			    const struct action *);
/* Every action legal on this path now, wait first; returns the count
 * (at most legal_max_actions()). */
int			legal_enumerate(const struct legal *,
			    const struct legal_path *, struct action *out);
int			legal_max_actions(const struct legal *);

/* The precomputed tables as JSON (for an outside peer of the engine, such
 * as the benchmark's pure-Python planner): static verdicts, local day and
 * quiet flags per slot, the past posts' gap and cap effects, the limits. */
cJSON		*legal_tables_json(const struct legal *);

/* Slot geometry, precomputed. */
int		 legal_horizon(const struct legal *);
time_t		 legal_slot_time(const struct legal *, int slot);

#endif
