/*
 * json — typed reading of cJSON values, and checked readers whose errors
 * name the file, the line and the field path.
 *
 * Two levels. The lookups (json_str, json_number, …) answer whether a
 * member is there and of the wanted type, and leave the wording of any
 * error to the caller. The checked readers (json_get_*) take a struct
 * json_loc and fail with "FILE:LINE: field "a.b[2]": expected …, got …",
 * so every operator-written file reports its problems the same way.
 */
#ifndef FRONTS_JSON_H
#define FRONTS_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/util.h"

/* What a lookup found. */
enum json_found {
	JSON_OK,
	JSON_ABSENT,
	JSON_WRONG_TYPE
};

/* The member's string, or NULL when absent or not a string. */
const char	*json_str(const cJSON *o, const char *key);
/* Likewise, and NULL for an empty string too. */
const char	*json_str_nonempty(const cJSON *o, const char *key);
/* The member's number, or dflt when absent or not a number. */
double		 json_num_or(const cJSON *o, const char *key,
		     double dflt);
/* A finite number member into *out. */
enum json_found	 json_number(const cJSON *o, const char *key,
		     double *out);
/* A string member into *out (borrowed from o). */
enum json_found	 json_string(const cJSON *o, const char *key,
		     const char **out);
bool		 json_finite(const cJSON *v);
/* Whether v is a whole number in lo..hi (into *out if so). */
bool		 json_int_in(const cJSON *v, long lo, long hi, long *out);
bool		 json_utf8_valid(const char *s, size_t len);

/* Where a checked read is: the file, its line (0 for a whole JSON file),
 * the error to fill, and where warnings go (both NULL: dropped). */
struct json_loc {
	const char	  *file;
	int		   line;
	struct error	  *err;
	char		***warnings;
	int		  *nwarnings;
};

/* "FILE:LINE: field "F": WHAT, got JSON" (no field part for a NULL or
 * empty field, no "got" for a NULL got). Returns -1. */
int	json_fail(const struct json_loc *, const char *field,
	    const cJSON *got, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Appends "FILE:LINE: WHAT" to the warnings. */
void	json_warn(const struct json_loc *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Warns about every key of obj not in known (NULL-terminated). */
void	json_warn_unknown(const struct json_loc *, const cJSON *obj,
	    const char *prefix, const char *const *known);
/* The field path "prefix.key", or "key" for an empty or NULL prefix. */
void	json_path(char *buf, size_t len, const char *prefix,
	    const char *key);

/* Parses one JSON text (a whole file, or one line when loc->line > 0)
 * that must be an object; NULL after json_fail. */
cJSON	*json_parse_object(const struct json_loc *, const char *text,
	    size_t len);
/* Calls fn for each non-blank line of text parsed as an object, with
 * loc->line set to its number; stops at the first failure. */
int	json_each_line(struct json_loc *, const char *text, size_t len,
	    int (*fn)(const struct json_loc *, const cJSON *, void *),
	    void *arg);

#define JSON_REQUIRED	0x1
#define JSON_NONEMPTY	0x2
#define JSON_FILLED	(JSON_REQUIRED | JSON_NONEMPTY)

/* A string member of valid UTF-8, copied into *out; *out stays NULL when
 * it is optional and absent. */
int	json_get_string(const struct json_loc *, const cJSON *obj,
	    const char *prefix, const char *key, int flags, char **out);
/* An integer member in lo..hi; *out keeps its value when optional and
 * absent. */
int	json_get_int(const struct json_loc *, const cJSON *obj,
	    const char *prefix, const char *key, bool required, long lo,
	    long hi, int *out);
/* An optional array of non-empty strings (*out NULL-terminated, owned by
 * the caller; free with json_strings_free even after a failure). */
int	json_get_strings(const struct json_loc *, const cJSON *obj,
	    const char *key, char ***out, int *n);
void	json_strings_free(char **v, int n);

#endif
