/*
 * topics — fronts.json's "topics": keyword and hashtag rules per topic,
 * {"pricing": ["pricing", "price", "#plans"]}, which tag imported posts
 * and drafts that carry no topics. Deterministic: the same text always
 * gets the same topics, in the order the rules are written.
 *
 * A rule word matches a whole word, ignoring ASCII case; "#plans" matches
 * only the hashtag, "price" matches the word and the hashtag #price.
 */
#ifndef FRONTS_TOPICS_H
#define FRONTS_TOPICS_H

#include <cjson/cJSON.h>

#include "core/util.h"

struct topic_rule {
	char	 *topic;
	char	**words;
	int	  nwords;
};

struct topics {
	struct topic_rule	*rules;
	int			 n;
};

/* Reads the "topics" member of fronts.json's object (absent: no rules);
 * file names fronts.json in errors. */
int	topics_from_json(const cJSON *fronts_json, const char *file,
	    struct topics *out, struct error *err);
void	topics_free(struct topics *);
/* The topics whose rules match text, as a cJSON array of strings. */
cJSON	*topics_tag(const struct topics *, const char *text);
/* Likewise as an array of fresh strings (*out NULL when none); returns
 * the count. */
int	topics_tag_strings(const struct topics *, const char *text,
	    char ***out);

#endif
