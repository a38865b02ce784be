/*
 * legal_int — the legality engine's tables, shared by legal.c (the rules
 * of caps, gaps and quiet hours) and legal_pins.c (the operator's pins).
 */
#ifndef FRONTS_LEGAL_INT_H
#define FRONTS_LEGAL_INT_H

#include "core/legal.h"

#define NO_POST	INT64_MIN

/* A path's record of one front. */
struct legal_front {
	int64_t	last;		/* seconds after start of the last post */
	long	day;		/* local day the count below belongs to */
	int	count;		/* path posts on that day */
	int	pins;		/* of which pinned posts */
};

struct legal_path {
	int			 slot;
	struct legal_front	*fronts;	/* nfronts */
	uint8_t			*posted;	/* bit per draft × front */
};

struct legal {
	int		 nfronts;
	int		 ndrafts;
	int		 horizon;
	int		 slot_seconds;
	time_t		 start;
	struct limits	*limits;	/* nfronts */
	uint8_t		*verdict;	/* ndrafts × nfronts: static verdict */
	long		*day;		/* horizon: local day of each slot */
	uint8_t		*quiet;		/* nfronts × horizon */
	uint8_t		*pastgap;	/* nfronts × horizon: a past post too near */
	int		*pastcount;	/* nfronts × horizon: past posts that day */
	size_t		 postedbytes;
	uint8_t		*preposted;	/* posted bits every path starts with */
	/* Each draft's window as slots: it may be posted at win_lo ..
	 * win_hi (win_lo > win_hi: never inside the horizon). */
	int		*win_lo, *win_hi;	/* ndrafts */
	/* Pins (legal_pins.c): the slot of each pinned draft × front (-1:
	 * none), the pinned posts by slot, and what they hold back from
	 * the other posts of their front: the slots too near one, and the
	 * number pinned on each slot's day. */
	int		*pinslot;	/* ndrafts × nfronts */
	struct action	*pinact;	/* npinact, by slot then action */
	int		*pinactslot;	/* npinact */
	int		 npinact;
	int		*pinfirst;	/* horizon + 1: first pinact at/after */
	uint8_t		*pingap;	/* nfronts × horizon */
	int		*pinday;	/* nfronts × horizon */
};


/* The static verdict of draft d on front f from its text and fronts. */
enum legal_verdict	legal_measure(const struct project *p, int d, int f);
/* Builds the pin tables of lg from p's pins (legal_new calls it). */
void			legal_pins_build(struct legal *lg,
			    const struct project *p);
void			legal_pins_free(struct legal *lg);
/* The pins' part of a post's verdict at the path's slot (LEGAL_OK or
 * LEGAL_PINNED); *pinned: a is a pinned post due now. */
enum legal_verdict	legal_pins_post(const struct legal *lg,
			    const struct legal_path *lp,
			    const struct action *a, bool *pinned);
/* The pins' part of the verdict of a post on front f of a draft pinned
 * nowhere: the same for every such draft. */
enum legal_verdict	legal_pins_front(const struct legal *lg,
			    const struct legal_path *lp, uint32_t f);
/* LEGAL_PINNED while a pinned post of the path's slot is not made. */
enum legal_verdict	legal_pins_wait(const struct legal *lg,
			    const struct legal_path *lp);
bool			legal_is_posted(const struct legal *lg,
			    const struct legal_path *lp, const struct action *a);

#endif
