/*
 * instlimits — the limits a Mastodon instance itself announces
 * (/api/v2/instance: configuration.statuses.max_characters and
 * characters_reserved_per_url, and its media limits), cached in .fronts/instance-limits.json
 * with the time they were read, so that drafts, the legality engine and
 * publishing count against the instance's real limits instead of
 * Mastodon's defaults (500 and 23). `fronts check` reads and stores them;
 * project_load applies the cache to every Mastodon front. A front's own
 * limits.max_length still wins.
 */
#ifndef FRONTS_INSTLIMITS_H
#define FRONTS_INSTLIMITS_H

#include <time.h>

#include "core/project.h"
#include "core/util.h"

struct instlimits {
	int	max_characters;
	int	url_characters;
	time_t	read_at;
	/* Media, where the instance announces them (0: it did not, and
	 * Mastodon's defaults hold): statuses.max_media_attachments,
	 * media_attachments.image_size_limit, image_matrix_limit,
	 * description_limit, and the image types of supported_mime_types
	 * (a bit per enum image_type). */
	int		max_media;
	long		image_bytes;
	long		image_pixels;
	int		alt_length;
	unsigned	image_types;
};

/* The bit of enum image_type a MIME type names ("image/png"); 0 for
 * one the legality engine does not know. */
unsigned	instlimits_mime_bit(const char *mime);

/* Records instance's limits (read at l->read_at) in DIR/.fronts/
 * instance-limits.json, keeping the other instances' entries (a cache
 * that cannot be read is replaced); written whole (temp file, fsync,
 * rename). */
int	instlimits_store(const char *project_dir, const char *instance,
	    const struct instlimits *l, struct error *err);
/* The cached limits of instance; -1 when the cache has none. */
int	instlimits_find(const char *project_dir, const char *instance,
	    struct instlimits *out, struct error *err);
/* Sets limits.instance_length and limits.url_weight of each Mastodon front
 * whose instance the cache knows. An unreadable cache is not fatal: the
 * defaults stay, and *warning (caller frees) says why. */
void	instlimits_apply(struct project *, char **warning);

#endif
