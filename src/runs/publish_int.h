/*
 * publish_int — the parts of a thread, for publish.c: what each part of
 * a planned post is (its text, its images read and cleaned), its ledger
 * entry, and the channel call that sends it replying to the part before.
 */
#ifndef FRONTS_PUBLISH_INT_H
#define FRONTS_PUBLISH_INT_H

#include "runs/publish.h"

/* The images of one part, read, checked and cleaned. */
struct publish_images {
	struct channel_image	 im[CHANNEL_MAX_IMAGES];
	unsigned char		*bytes[CHANNEL_MAX_IMAGES];
	int			 n;
};

/* The body front f gets of post i's draft; its part 0 is the plan's text
 * (which may be edited), the others the draft's. */
const struct body *publish_body(const struct publish *, int i);
const char	*publish_part_text(const struct publish *, int i, int k);
/* The ledger entry id of part k (0-based) of post i. */
void	publish_part_entry(const struct publish *, int i, int k,
	    char out[LEDGER_ID_LEN]);
/* How many leading parts of post i the ledger says were sent; *stuck
 * gets the first part with an attempt but no known outcome (-1: none). */
int	publish_parts_sent(const struct publish *, int i, int *stuck);
/* The ledger entry of post i's part after the sent ones when it was
 * skipped (the thread's window closed), or NULL. */
const struct ledger_entry *publish_rest_skipped(const struct publish *,
	    int i, int sent);
/* Builds the call of part k, replying to reply (NULL: none); images
 * are loaded into imgs (publish_images_free() them). */
int	publish_part_open(struct publish *, int i, int k,
	    const struct channel_reply *reply, time_t now,
	    struct publish_images *imgs, struct channel_call *c,
	    struct error *err);
void	publish_images_free(struct publish_images *);
/* What every part of post i sends, in order, from part `from` on. */
char	*publish_parts_describe(struct publish *, int i, int from, time_t now,
	    struct error *err);

#endif
