/*
 * history_int — what the export parsers (history_*.c) share: building a
 * batch, JSON with positions in errors, HTML and entity decoding, metrics
 * from numbers or numeric strings.
 */
#ifndef FRONTS_HISTORY_INT_H
#define FRONTS_HISTORY_INT_H

#include <cjson/cJSON.h>

#include "core/history.h"
#include "core/json.h"

/* A new zeroed item at the end of b. */
struct hist_item *hist_item_add(struct hist_batch *b);
void	hist_skip_add(struct hist_batch *b, const char *what,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The export being read, for positions in errors about values cJSON
 * hands over without their offsets. */
struct hist_src {
	const char	*data;
	size_t		 len;
};

/* Refuses the time value of field (an impossible or malformed date),
 * naming where it is written in src; returns -1. */
int	hist_bad_time(const struct hist_opts *, const struct hist_src *,
	    const char *where, const char *field, const char *value,
	    struct error *err);

/* Parses data[start..len) as JSON; on failure names the file, line and
 * column (counted from data). */
cJSON	*hist_json_parse(const struct hist_opts *, const char *data,
	    size_t len, size_t start, struct error *err);
/* "line L, column C" of byte offset off in data. */
void	hist_position(const char *data, size_t off, char *buf, size_t size);
/* The position of the first occurrence of the JSON string s (quoted)
 * in data, for a value cJSON gives without its offset; "(position
 * unknown)" when it is not found as written. */
void	hist_locate(const char *data, size_t len, const char *s, char *buf,
	    size_t size);

/* A metric from a JSON number or a string of digits (the X archive);
 * anything else leaves it unknown and is counted in b->bad_counts. */
void	hist_metric_json(struct hist_batch *b, struct hist_item *,
	    enum hist_metric, const cJSON *v);
void	hist_metric_set(struct hist_item *, enum hist_metric, double v);
/* Text with &amp; &lt; &#39; &#x1F600; … decoded; caller frees. */
char	*hist_entities_decode(const char *s, size_t len);
/* HTML as plain text: paragraphs and <br> become newlines, every other
 * tag is dropped (a link's or a hashtag's text stays), entities decoded;
 * caller frees. */
char	*hist_html_text(const char *html);
/* A link whose shown text text[start..end) stands for uri (Bluesky's
 * link facets: clients shorten the text, the facet keeps the URL). */
struct hist_link {
	size_t		 start, end;	/* byte offsets */
	const char	*uri;
};

/* text with each link's bytes replaced by its uri; links that overlap,
 * run past the text or cut a character are left as they are. Caller
 * frees. */
char	*hist_expand_links(const char *text, struct hist_link *links, int n);
/* The last path segment of a URL or an at:// URI, copied. */
char	*hist_last_segment(const char *uri);
/* The account without its "@" and without an "@domain" tail. */
char	*hist_account_user(const char *account);

int	hist_parse_x(const struct hist_opts *, const char *, size_t,
	    struct hist_batch *, struct error *);
int	hist_parse_mastodon(const struct hist_opts *, const char *, size_t,
	    struct hist_batch *, struct error *);
int	hist_parse_mastodon_api(const struct hist_opts *, const char *,
	    size_t, struct hist_batch *, struct error *);
int	hist_parse_bluesky_car(const struct hist_opts *, const char *,
	    size_t, struct hist_batch *, struct error *);
int	hist_parse_bluesky_feed(const struct hist_opts *, const char *,
	    size_t, struct hist_batch *, struct error *);
int	hist_parse_linkedin(const struct hist_opts *, const char *, size_t,
	    struct hist_batch *, struct error *);
int	hist_parse_x_api(const struct hist_opts *, const char *, size_t,
	    struct hist_batch *, struct error *);
int	hist_parse_csv(const struct hist_opts *, const char *, size_t,
	    struct hist_batch *, struct error *);

#endif
