/*
 * history — posts read from the platforms' own exports and APIs, before
 * they become history.jsonl lines: the X archive (tweets.js), a Mastodon
 * outbox (outbox.json) or statuses answer, a Bluesky repository (CAR) or
 * getAuthorFeed answer, LinkedIn's Shares.csv, any CSV with a column
 * mapping, and an X API tweet lookup (what Composio's read tool answers).
 *
 * Parsers never invent a number: a metric the input does not carry stays
 * unknown (its bit in metrics_set is clear). They never print; a refusal
 * names the file and the position (line and column, or byte offset for
 * binary input) and returns -1 with nothing kept.
 */
#ifndef FRONTS_HISTORY_H
#define FRONTS_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/util.h"

/* In history.jsonl's order: bit i of metrics_set is metric i. */
enum hist_metric {
	HIST_IMPRESSIONS,
	HIST_LIKES,
	HIST_REPOSTS,
	HIST_REPLIES,
	HIST_CLICKS,
	HIST_NMETRICS
};

enum hist_format {
	HIST_FMT_X,		/* data/tweets.js */
	HIST_FMT_MASTODON,	/* outbox.json (ActivityStreams) */
	HIST_FMT_MASTODON_API,	/* GET /api/v1/accounts/:id/statuses */
	HIST_FMT_BLUESKY_CAR,	/* com.atproto.sync.getRepo */
	HIST_FMT_BLUESKY_FEED,	/* app.bsky.feed.getAuthorFeed */
	HIST_FMT_LINKEDIN,	/* Shares.csv */
	HIST_FMT_CSV,		/* any CSV, with a hist_csv_map */
	HIST_FMT_X_API,		/* an X API v2 tweet lookup (via Composio) */
	HIST_FMT_COUNT
};

struct hist_item {
	char	*platform_id;	/* NULL when the format has none */
	char	*url;		/* NULL when unknown */
	time_t	 posted_at;
	char	*text;
	double	 metrics[HIST_NMETRICS];
	unsigned metrics_set;
	/* Only for posts fronts published (pull): the history id to use and
	 * the plan's prediction, kept beside the outcome. */
	char	*line_id;
	bool	 has_predicted;
	double	 predicted, predicted_lo, predicted_hi;
	double	 predicted_sd;	/* NAN: unknown */
};

struct hist_skip {
	char	*what;		/* "tweet 1234", "line 7", … */
	char	*reason;
};

/* Why a count the input carries was left unknown. */
enum hist_bad_count {
	HIST_BAD_NEGATIVE,	/* -5 */
	HIST_BAD_NOT_NUMBER,	/* "abc", true, {} */
	HIST_BAD_FRACTION,	/* 3.5 */
	HIST_BAD_NOT_DIGITS,	/* "1e3", "+7", " 5" */
	HIST_BAD_TOO_LARGE,	/* 1e20: above 10^15 */
	HIST_BAD_NREASONS
};

struct hist_batch {
	struct hist_item	*items;
	int			 nitems;
	struct hist_skip	*skips;
	int			 nskips;
	/* Counts left unknown, by reason: reported, never guessed. */
	int			 bad_counts[HIST_BAD_NREASONS];
	/* Paging, for API answers: the cursor or the oldest id seen. */
	char			*next;
};

/* The generic CSV's columns, by header name: time and text are required,
 * the rest optional (NULL). */
struct hist_csv_map {
	const char	*time;
	const char	*text;
	const char	*id;
	const char	*url;
	const char	*metrics[HIST_NMETRICS];
};

/* What a parser needs to know about the front it reads for. */
struct hist_opts {
	const char		*name;		/* file name, for messages */
	const char		*account;	/* the front's account, "@acme" */
	const struct hist_csv_map *csv;		/* HIST_FMT_CSV only */
	/* The command's clock: posts dated after it are skipped with the
	 * reason. 0 leaves dates unchecked (fuzzing). */
	time_t			 now;
	/* Import an outbox whose actor is not the front's account. */
	bool			 force;
};

/* A post dated up to this long after now is kept (clocks differ). */
#define HIST_FUTURE_SLACK	600

extern const char *const hist_metric_names[HIST_NMETRICS];
extern const char *const hist_format_names[HIST_FMT_COUNT];
extern const char *const hist_bad_count_names[HIST_BAD_NREASONS];

/* "x", "mastodon", …, as --format takes them; -1 when unknown. */
int	hist_format_from_name(const char *);
/* The format of data, from its first bytes and the file name. */
int	hist_format_detect(const char *name, const char *data, size_t len,
	    enum hist_format *out, struct error *err);

/* Parses a whole export. On -1 out is empty and err names the position. */
int	hist_parse(enum hist_format, const struct hist_opts *,
	    const char *data, size_t len, struct hist_batch *out,
	    struct error *err);
void	hist_batch_free(struct hist_batch *);
/* Frees what one item owns. */
void	hist_item_clear(struct hist_item *);
/* Moves every item and skip of src to the end of dst; src is emptied
 * (its paging mark is kept). */
void	hist_batch_move(struct hist_batch *dst, struct hist_batch *src);

#endif
