/*
 * project — the operator's project directory: fronts.json, rules.md,
 * history.jsonl and drafts.jsonl, loaded and validated as one unit.
 *
 * A struct project owns every string and array below it; project_free()
 * releases all of it. project_load() either returns a whole project or an
 * error naming file, line and field: nothing is half-loaded.
 */
#ifndef FRONTS_PROJECT_H
#define FRONTS_PROJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/objective.h"
#include "core/topics.h"
#include "core/util.h"

#define PROJECT_MAX_FRONTS 64	/* drafts keep a bit mask of fronts */

enum platform {
	PLATFORM_X,
	PLATFORM_LINKEDIN,
	PLATFORM_BLUESKY,
	PLATFORM_MASTODON,
	PLATFORM_THREADS,
	PLATFORM_REDDIT,
	PLATFORM_COUNT
};

/* "x", "linkedin", …; -1 for an unknown name. */
int		 platform_from_name(const char *);
const char	*platform_name(enum platform);

#define LIMIT_UNSET (-1)

/* Hard limits of one front. Fields are LIMIT_UNSET where limits omits them
 * (max_length then falls back to the platform default). */
struct limits {
	int	max_length;
	int	max_posts_per_day;
	int	min_gap_minutes;
	int	quiet_start;	/* local hour, 0..23 */
	int	quiet_end;
	int	max_links;
	int	max_hashtags;
	/* Not from fronts.json: what a Mastodon instance announces, from
	 * the cache `fronts check` fills (instlimits.h); LIMIT_UNSET (or 0)
	 * means the platform's defaults. max_length still wins over
	 * instance_length. */
	int	instance_length;
	int	url_weight;
	/* limits.alt_required: every image needs alt text (0: optional). */
	int	alt_required;
	/* Not from fronts.json either: a Mastodon instance's media limits
	 * (statuses.max_media_attachments, media_attachments.
	 * image_size_limit, image_matrix_limit, description_limit and the
	 * image types of supported_mime_types, a bit per enum image_type);
	 * 0 means the platform's defaults. */
	int	instance_max_media;
	long	instance_image_bytes;
	long	instance_image_pixels;
	int	instance_alt_length;
	unsigned instance_image_types;
};

/* Limits with nothing set: the platform's defaults everywhere. */
#define LIMITS_UNSET { .max_length = LIMIT_UNSET,			\
	.max_posts_per_day = LIMIT_UNSET, .min_gap_minutes = LIMIT_UNSET,	\
	.quiet_start = LIMIT_UNSET, .quiet_end = LIMIT_UNSET,		\
	.max_links = LIMIT_UNSET, .max_hashtags = LIMIT_UNSET,		\
	.instance_length = LIMIT_UNSET, .url_weight = LIMIT_UNSET }

struct front {
	char		*id;
	enum platform	 platform;
	char		*account;
	struct limits	 limits;
	bool		 keep_metadata;	/* images keep EXIF and XMP */
	cJSON		*raw;	/* the front's whole object (composio, instance…) */
};

struct history_post {
	char	*id;
	int	 front;		/* index into project.fronts */
	time_t	 posted_at;
	char	*posted_at_text;	/* as written in the file */
	char	*text;
	char	**topics;
	int	 ntopics;
	double	 impressions, likes, reposts, replies, clicks;
	unsigned metrics_set;	/* bit i: metric i was given (impressions first) */
	char	*platform_id;	/* the post on the platform; NULL: unknown */
	char	*url;
	bool	 unsettled;	/* "settled": false: the counts may still grow */
	bool	 has_predicted;	/* published by fronts: the plan's prediction */
	double	 predicted, predicted_lo, predicted_hi;
	double	 predicted_sd;	/* spread of one post's reward; NAN: unknown */
	int	 line;		/* in history.jsonl */
};

/* The image types the legality engine knows (a file's own bytes say
 * which, see core/media.h). */
enum image_type {
	IMAGE_UNKNOWN,
	IMAGE_JPEG,
	IMAGE_PNG,
	IMAGE_GIF,
	IMAGE_WEBP,
	IMAGE_NTYPES
};

/* What reading an image found; the legality engine judges these. */
struct image_facts {
	bool		 probed;	/* false: not read (yet) */
	char		*problem;	/* why it could not be read; NULL */
	enum image_type	 type;
	long		 bytes;
	int		 width, height;
	int		 frames;	/* > 1: animated */
};

/* One image of a part. */
struct media {
	char			*path;	/* as written, relative to the project dir */
	char			*alt;	/* NULL: no alt text */
	struct image_facts	 facts;	/* filled by project_probe_media() */
};

/* One post of a thread. */
struct part {
	char		*text;
	struct media	*media;
	int		 nmedia;
};

/* What one front gets of a draft: a post, or a thread of posts. */
struct body {
	struct part	*parts;	/* parts[0]: the first post; nparts >= 1 */
	int		 nparts;
};

/* A body used instead of the default on the fronts its key names. It is
 * whole: a variant inherits no part or image of the default. */
struct variant {
	char		*key;	/* a front id or a platform name */
	struct body	 body;
};

/* The caps drafts.jsonl enforces whatever the platforms allow (the
 * platforms' own limits are legality's, see legal.h). */
#define DRAFT_MAX_PARTS	100
#define DRAFT_MAX_MEDIA	20

struct draft {
	char		*id;
	char		*text;		/* a copy of body.parts[0].text */
	char		**topics;
	int		 ntopics;
	uint64_t	 front_mask;	/* bit i: may go to project.fronts[i] */
	int		 line;		/* in drafts.jsonl */
	struct body	 body;		/* the default */
	struct variant	*variants;
	int		 nvariants;
	bool		 has_not_before, has_not_after;
	time_t		 not_before, not_after;	/* may be posted only inside */
};

/* A line of pins.jsonl: the operator's fixed decisions, which every plan
 * honours. A drop keeps the draft out of every plan; a pin without a time
 * keeps the draft on that front (whenever the plan likes); a pin with a
 * time puts it there then. A draft may be pinned to several fronts. */
struct pin {
	int	 draft;		/* index into project.drafts */
	int	 front;		/* index into project.fronts; -1 for a drop */
	bool	 drop;
	bool	 has_at;
	time_t	 at;
	char	*at_text;	/* as written; NULL without a time */
	int	 line;		/* in pins.jsonl */
};

struct project {
	char			*dir;
	char			*name;
	char			*timezone;	/* IANA name */
	time_t			 start;		/* slot 0 */
	bool			 start_now;	/* "start": "now" (rounded up) */
	int			 slot_minutes;
	int			 horizon_slots;
	char			*provider_name;
	char			*provider_model;
	struct objective	 objective;	/* given: from fronts.json */
	/* Without a given one: each front's default, then their union
	 * (objective_derive); NULL until derived. */
	struct objective	*front_objective;
	struct front		*fronts;
	int			 nfronts;
	char			*rules;		/* rules.md, whole */
	struct history_post	*history;
	int			 nhistory;
	struct draft		*drafts;
	int			 ndrafts;
	struct pin		*pins;		/* pins.jsonl (optional) */
	int			 npins;
	time_t			 start_passed;	/* moved from here; 0: not */
	struct topics		 topics;	/* fronts.json "topics" */
	char			**warnings;	/* unknown fields and the like */
	int			 nwarnings;
};

/* Loads DIR (fronts.json, rules.md, history.jsonl, drafts.jsonl and, when
 * there, pins.jsonl). Sets the process time zone to the project's (see
 * timeutil.h). */
int	project_load(const char *dir, struct project **out, struct error *err);
void	project_free(struct project *);

int	project_front_index(const struct project *, const char *id);
int	project_draft_index(const struct project *, const char *id);
/* What front f gets of draft d: the variant keyed by the front's id,
 * else by its platform, else the default. Never NULL. */
const struct body *project_draft_body(const struct project *, int d, int f);
/* The first post front f gets of draft d (its variant's, or the
 * default's): the text a plan carries for that post. */
const char *project_draft_text(const struct project *, int d, int f);
/* The variant of draft d front f gets; -1: the default. */
int	project_draft_variant(const struct project *, int d, int f);
/* Sets a draft's default body to one part of text (no images), and its
 * text to a copy: for drafts built in memory. */
void	project_draft_set_text(struct draft *, const char *text);
/* Writes what a draft holds beyond its text (parts, images, variants,
 * window) in a fixed form, for a plan's fingerprint of the drafts;
 * nothing for a draft that is one text. */
void	project_draft_shape_print(FILE *, const struct draft *);
/* Checks one drafts.jsonl object by every rule the loader applies (its
 * fronts against p's); errors name file and line as given. */
int	project_draft_check(const struct project *, const char *file,
	    int line, const cJSON *obj, struct error *err);
/* Frees what a body owns (not the body itself). */
void	project_body_free(struct body *);
/* May draft d go to front f (indices)? */
bool	project_draft_allows(const struct project *, int d, int f);
/* A plan's start that lies before now moves to the first slot of its grid
 * at or after now (the horizon keeps its length); start_passed keeps the
 * old one. Returns whether it moved. Called where plans are made, never by
 * project_load (publishing reads an old plan against its own start). */
bool	project_start_at(struct project *, time_t now);
/* The first slot at or after now on the grid of slots from start. */
time_t	project_next_slot(const struct project *, time_t start, time_t now);
/* "the plan's start, WAS, has passed: the next slot from now is NEXT"
 * (times in the project's zone): what `plan` and `publish` warn. */
void	project_passed_text(time_t was, time_t next, char *buf, size_t len);
/* The pins of draft d (indices into p->pins, at most max). */
int	project_draft_pins(const struct project *, int d, int *out, int max);
/* Edits of p->pins in memory, which keep the file's invariants: a draft's
 * pin to a front replaces its earlier pin there and any drop of it; a
 * drop replaces every pin of the draft; a clear removes them. at_text NULL:
 * no time. Lines are renumbered as project_pins_save() writes them. */
void	project_pin_set(struct project *, int d, int f, const char *at_text,
	    time_t at);
void	project_pin_drop(struct project *, int d);
void	project_pin_clear(struct project *, int d);
/* A pin as its pins.jsonl object (caller frees). */
cJSON	*project_pin_json(const struct project *, const struct pin *);
/* Reads DIR/pins.jsonl again in place of p->pins (an edit undone); on an
 * error p keeps no pins. */
int	project_reload_pins(struct project *, struct error *err);
/* Writes p->pins to DIR/pins.jsonl (temp file, fsync, rename). */
int	project_pins_save(const struct project *, struct error *err);
/* Start of slot k. */
time_t	project_slot_time(const struct project *, int slot);
/* Adds a draft's not_before / not_after (those it sets) to o, as
 * ISO-8601 in the project's zone. */
void	project_draft_window_json(cJSON *o, const struct draft *);
/* The plain-data ctx of the world-model contract, as JSON (caller frees). */
cJSON	*project_ctx_json(const struct project *);

#endif
