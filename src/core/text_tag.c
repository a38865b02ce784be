/*
 * text_tag — hashtags as twitter-text extracts them (they feed the
 * hashtag caps) and mentions as Mastodon finds them (`@user@domain`
 * counts as `@user` there). Letters, marks and digits come from utf8proc's
 * categories; the few extra characters are the ones each project lists.
 */
#include <stdlib.h>

#include <utf8proc.h>

#include "core/text_int.h"

static bool
is_letter_or_mark(int32_t c)
{
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
		return true;
	default:
		return false;
	}
}

static bool
is_digit(int32_t c)
{
	return utf8proc_category(c) == UTF8PROC_CATEGORY_ND;
}

/* twitter-text's hashtagSpecialChars. */
static bool
is_hashtag_special(int32_t c)
{
	static const int32_t special[] = { '_', 0x200c, 0x200d, 0xa67e,
	    0x05be, 0x05f3, 0x05f4, 0xff5e, 0x301c, 0x309b, 0x309c, 0x30a0,
	    0x30fb, 0x3003, 0x0f0b, 0x0f0c, 0xb7 };
	size_t i;

	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (c == special[i])
			return true;
	return false;
}

static bool
hashtag_alnum(int32_t c)
{
	return is_letter_or_mark(c) || is_digit(c) || is_hashtag_special(c);
}

static bool
is_hash(int32_t c)
{
	return c == '#' || c == 0xff03;
}

/* #tag at h: the end of the tag, or 0 when there is none. */
static size_t
hashtag_at(const struct ustr *u, size_t h)
{
	size_t e;
	bool alpha = false;

	if (h + 1 >= u->n || !is_hash(u->cp[h]) || u->cp[h + 1] == 0xfe0f ||
	    u->cp[h + 1] == 0x20e3)
		return 0;
	for (e = h + 1; e < u->n && hashtag_alnum(u->cp[e]); e++)
		alpha |= is_letter_or_mark(u->cp[e]);
	return alpha ? e : 0;
}

/* (boundary)(#)(tag) at scan position s; *h receives the hash. */
static size_t
hashtag_match(const struct ustr *u, size_t s, size_t *h)
{
	size_t e;
	int32_t c = u->cp[s];

	if (s == 0 && (e = hashtag_at(u, 0)) > 0) {
		*h = 0;
		return e;
	}
	if (c == 0xfe0e || c == 0xfe0f || (!hashtag_alnum(c) && c != '&')) {
		*h = s + 1;
		return hashtag_at(u, s + 1);
	}
	return 0;
}

static bool
starts_with_scheme_sep(const struct ustr *u, size_t p)
{
	return p + 2 < u->n && u->cp[p] == ':' && u->cp[p + 1] == '/' &&
	    u->cp[p + 2] == '/';
}

static int
span_cmp(const void *a, const void *b)
{
	const struct cspan *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* Drops hashtags that overlap a URL, as removeOverlappingEntities does
 * (the earlier entity wins; on a tie the hashtag, listed first). */
static void
hashtags_drop_urls(const struct cspans *urls, struct cspans *tags,
    size_t first)
{
	struct cspan *all, prev;
	size_t n, i, j, k;
	bool *is_tag;

	if (urls->n == 0 || tags->n == first)
		return;
	n = tags->n - first + urls->n;
	all = calloc(n, sizeof(*all));
	is_tag = calloc(n, sizeof(*is_tag));
	if (all == NULL || is_tag == NULL)
		abort();
	for (i = first, k = 0; i < tags->n; i++, k++)
		all[k] = tags->v[i];
	for (j = 0; j < urls->n; j++)
		all[k + j] = urls->v[j];
	/* Mark tags by start (tags and URLs never share a start index). */
	qsort(all, n, sizeof(*all), span_cmp);
	for (i = 0; i < n; i++)
		for (j = first; j < tags->n; j++)
			if (tags->v[j].start == all[i].start)
				is_tag[i] = true;
	tags->n = first;
	prev = all[0];
	if (is_tag[0])
		cspans_add(tags, all[0].start, all[0].end);
	for (i = 1; i < n; i++) {
		if (prev.end > all[i].start)
			continue;
		prev = all[i];
		if (is_tag[i])
			cspans_add(tags, all[i].start, all[i].end);
	}
	free(is_tag);
	free(all);
}

void
text_hashtags(const struct ustr *u, const struct cspans *urls,
    struct cspans *out)
{
	struct cspans own = { 0 };
	size_t s, e, h, first = out->n, i;

	for (i = 0; i < u->n && !is_hash(u->cp[i]); i++)
		;
	if (i == u->n)
		return;
	for (s = 0; s < u->n;) {
		if ((e = hashtag_match(u, s, &h)) == 0) {
			s++;
			continue;
		}
		s = e;
		if (e < u->n && (is_hash(u->cp[e]) ||
		    starts_with_scheme_sep(u, e)))
			continue;
		cspans_add(out, h, e);
	}
	if (urls == NULL && out->n > first) {
		text_urls(u, URL_ANY, &own);
		urls = &own;
	}
	if (urls != NULL)
		hashtags_drop_urls(urls, out, first);
	free(own.v);
}

/* Ruby's [[:word:]]: letters, marks, decimal digits, connectors. */
static bool
is_word(int32_t c)
{
	return is_letter_or_mark(c) || is_digit(c) ||
	    utf8proc_category(c) == UTF8PROC_CATEGORY_PC;
}

static bool
is_username_char(int32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* X+ ([.-]+ X+)* from p, greedy: the end, or p when X does not match. */
static size_t
dotted_run(const struct ustr *u, size_t p, bool (*cls)(int32_t))
{
	size_t e = p, q;

	while (e < u->n && cls(u->cp[e]))
		e++;
	if (e == p)
		return p;
	for (;;) {
		for (q = e; q < u->n && (u->cp[q] == '.' || u->cp[q] == '-'); q++)
			;
		if (q == e || q >= u->n || !cls(u->cp[q]))
			return e;
		for (e = q; e < u->n && cls(u->cp[e]); e++)
			;
	}
}

/* twitter-text's end_mention_match: an at sign, a Latin accent or "://"
 * right after a mention voids it. */
static bool
mention_voided(const struct ustr *u, size_t p)
{
	if (p >= u->n)
		return false;
	return u->cp[p] == '@' || u->cp[p] == 0xff20 ||
	    text_is_latin_accent(u->cp[p]) || starts_with_scheme_sep(u, p);
}

void
text_mentions(const struct ustr *u, struct cspans *out, struct cspans *user)
{
	size_t i, e, d, ue;
	int32_t b;

	for (i = 0; i < u->n; i++) {
		if (u->cp[i] != '@')
			continue;
		if (i > 0 && ((b = u->cp[i - 1]) == '=' || b == '/' ||
		    is_word(b)))
			continue;
		if ((ue = dotted_run(u, i + 1, is_username_char)) == i + 1)
			continue;
		e = ue;
		if (e < u->n && u->cp[e] == '@' &&
		    (d = dotted_run(u, e + 1, is_word)) > e + 1)
			e = d;
		if (!mention_voided(u, e)) {
			cspans_add(out, i, e);
			cspans_add(user, i, ue);
		}
		i = e - 1;
	}
}
