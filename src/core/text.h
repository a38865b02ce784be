/*
 * text — post length as each platform counts it (never bytes), and the
 * link and hashtag counts that caps use. Unicode work goes through
 * utf8proc (NFC, grapheme breaks, categories).
 */
#ifndef FRONTS_TEXT_H
#define FRONTS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/project.h"

enum len_unit { UNIT_WEIGHTED, UNIT_GRAPHEMES, UNIT_CHARS };

struct text_measure {
	int		length;		/* in unit */
	int		limit;		/* effective limit, in unit */
	enum len_unit	unit;
	int		bytes;		/* UTF-8 bytes (Bluesky's second limit) */
	int		byte_limit;	/* 0 where the platform has none */
	int		links;		/* as text_extract_links counts them */
	int		hashtags;
	bool		ok;		/* length (and bytes) within limit */
};

const char	*text_unit_name(enum len_unit);	/* "weighted", "graphemes", "chars" */

/* Measures text for platform p under limits l (l may be NULL). -1 when the
 * text is not valid UTF-8. */
int	text_measure(const char *utf8, enum platform p, const struct limits *l,
	    struct text_measure *out);

/* twitter-text 3.1 weighted length (NFC, URLs 23, each match of its
 * twemoji-parser emoji expression 2). */
int	text_weighted_length(const char *utf8);
int	text_grapheme_count(const char *utf8);
int	text_codepoint_count(const char *utf8);

/* A found entity: byte offsets into the input. */
struct text_span { size_t start, end; };
/* Extract URLs (with and without scheme) / hashtags, as twitter-text does.
 * Returns the count; fills up to max spans (spans may be NULL). */
int	text_extract_urls(const char *utf8, struct text_span *spans, int max);
int	text_extract_hashtags(const char *utf8, struct text_span *spans, int max);
/* Links as platform p itself makes them (what link caps count and Bluesky's
 * link facets cover); -1 when the text is not valid UTF-8. */
int	text_extract_links(const char *utf8, enum platform p,
	    struct text_span *spans, int max);

#endif
