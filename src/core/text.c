/*
 * text — post length as each platform counts it, never in bytes: X by the
 * twitter-text v3 rules (NFC, weighted code points, URLs 23, emoji
 * sequences 2), Bluesky and Mastodon in grapheme clusters (Mastodon with
 * its URL and mention concessions), the rest in code points. NFC, grapheme
 * breaks and character properties come from utf8proc.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core/text.h"
#include "core/text_int.h"
#include "core/util.h"

#define X_URL_WEIGHT	23
#define MASTODON_URL_WEIGHT	23	/* characters_reserved_per_url */

/* twitter-text v3 configuration: weights scaled by 100. */
static const struct { int32_t lo, hi; } x_light[] = {
	{ 0, 4351 }, { 8192, 8205 }, { 8208, 8223 }, { 8242, 8247 }
};
#define X_SCALE		100
#define X_LIGHT		100
#define X_HEAVY		200

static const struct {
	int		limit;
	enum len_unit	unit;
	int		byte_limit;
} platform_rule[PLATFORM_COUNT] = {
	[PLATFORM_X] =		{ 280, UNIT_WEIGHTED, 0 },
	[PLATFORM_LINKEDIN] =	{ 3000, UNIT_CHARS, 0 },
	[PLATFORM_BLUESKY] =	{ 300, UNIT_GRAPHEMES, 3000 },
	[PLATFORM_MASTODON] =	{ 500, UNIT_GRAPHEMES, 0 },
	[PLATFORM_THREADS] =	{ 500, UNIT_CHARS, 0 },
	[PLATFORM_REDDIT] =	{ 300, UNIT_CHARS, 0 },
};

const char *
text_unit_name(enum len_unit u)
{
	switch (u) {
	case UNIT_WEIGHTED:
		return "weighted";
	case UNIT_GRAPHEMES:
		return "graphemes";
	case UNIT_CHARS:
		return "chars";
	}
	return "?";
}

int
ustr_decode(const char *s, size_t len, struct ustr *u)
{
	utf8proc_ssize_t n;
	utf8proc_int32_t c;
	size_t off = 0;

	u->cp = xmalloc((len + 1) * sizeof(*u->cp));
	u->off = xmalloc((len + 1) * sizeof(*u->off));
	u->n = 0;
	while (off < len) {
		n = utf8proc_iterate((const utf8proc_uint8_t *)s + off,
		    (utf8proc_ssize_t)(len - off), &c);
		if (n <= 0) {
			ustr_free(u);
			return -1;
		}
		u->cp[u->n] = c;
		u->off[u->n++] = off;
		off += (size_t)n;
	}
	u->off[u->n] = off;
	return 0;
}

void
ustr_free(struct ustr *u)
{
	free(u->cp);
	free(u->off);
	u->cp = NULL;
	u->off = NULL;
	u->n = 0;
}

void
cspans_add(struct cspans *s, size_t start, size_t end)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = (struct cspan){ start, end };
}

size_t
ustr_utf16_len(const struct ustr *u, size_t from, size_t to)
{
	size_t n = 0;

	for (; from < to; from++)
		n += u->cp[from] > 0xffff ? 2 : 1;
	return n;
}

int32_t
text_js_canon(int32_t c)
{
	int32_t up;

	if (c < 0x80)
		return c >= 'a' && c <= 'z' ? c - 32 : c;
	up = utf8proc_toupper(c);
	return up < 0x80 ? c : up;
}

bool
text_is_space(int32_t c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 ||
	    c == 0xa0 || c == 0x1680 || c == 0x180e ||
	    (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
	    c == 0x202f || c == 0x205f || c == 0x3000;
}

bool
text_is_invalid(int32_t c)
{
	return c == 0xfffe || c == 0xfeff || c == 0xffff;
}

bool
text_is_latin_accent(int32_t c)
{
	return (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) ||
	    (c >= 0xf8 && c <= 0xff) || (c >= 0x100 && c <= 0x24f) ||
	    c == 0x253 || c == 0x254 || c == 0x256 || c == 0x257 ||
	    c == 0x259 || c == 0x25b || c == 0x263 || c == 0x268 ||
	    c == 0x26f || c == 0x272 || c == 0x289 || c == 0x28b ||
	    c == 0x2bb || (c >= 0x300 && c <= 0x36f) ||
	    (c >= 0x1e00 && c <= 0x1eff);
}

/* Decodes utf8 (after NFC when nfc is set). */
static int
decode(const char *utf8, bool nfc, struct ustr *u)
{
	utf8proc_uint8_t *norm = NULL;
	int rc;

	if (nfc) {
		if (utf8proc_map((const utf8proc_uint8_t *)utf8, 0, &norm,
		    UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE) < 0)
			return -1;
		utf8 = (const char *)norm;
	}
	rc = ustr_decode(utf8, strlen(utf8), u);
	free(norm);
	return rc;
}

/* Emoji sequences (UTS #51): the Unicode data is utf8proc's
 * Extended_Pictographic and Regional_Indicator; the joiners, selectors,
 * keycap, tag and modifier code points are fixed by the standard's syntax. */
static bool
is_pictographic(int32_t c)
{
	int b = utf8proc_get_property(c)->boundclass;

	return b == UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC ||
	    b == UTF8PROC_BOUNDCLASS_E_BASE || b == UTF8PROC_BOUNDCLASS_E_BASE_GAZ ||
	    b == UTF8PROC_BOUNDCLASS_GLUE_AFTER_ZWJ || b == UTF8PROC_BOUNDCLASS_E_ZWG;
}

static bool
is_regional(int32_t c)
{
	return utf8proc_get_property(c)->boundclass ==
	    UTF8PROC_BOUNDCLASS_REGIONAL_INDICATOR;
}

static bool
is_modifier(int32_t c)
{
	return c >= 0x1f3fb && c <= 0x1f3ff;
}

/* Emoji presentation by default: every Emoji_Presentation character is
 * East Asian Wide (UAX #11), which utf8proc's character width carries. */
static bool
is_wide(int32_t c)
{
	return utf8proc_charwidth(c) == 2;
}

/*
 * Whether U+FE0F belongs to c's emoji, which is whether Unicode defines the
 * variation sequence (emoji-variation-sequences.txt, data utf8proc 2.6 does
 * not carry): it does for text-style pictographs and for most emoji-style
 * ones in the BMP, not for emoji-style ones above it. The exceptions to
 * that pattern are listed; elsewhere twitter-text counts U+FE0F on its own.
 */
static bool
takes_vs16(int32_t c)
{
	static const int32_t astral_with[] = {
		0x1f004, 0x1f202, 0x1f21a, 0x1f22f, 0x1f237
	};
	static const int32_t bmp_without[] = {
		0x23e9, 0x23ea, 0x23eb, 0x23ec, 0x23f0, 0x23f3, 0x26ce, 0x2705,
		0x270a, 0x270b, 0x2728, 0x274c, 0x274e, 0x2753, 0x2754, 0x2755,
		0x2795, 0x2796, 0x2797, 0x27b0, 0x27bf
	};
	size_t i;

	if (!is_wide(c))
		return true;
	if (c < 0x10000) {
		for (i = 0; i < sizeof(bmp_without) / sizeof(bmp_without[0]); i++)
			if (c == bmp_without[i])
				return false;
		return true;
	}
	for (i = 0; i < sizeof(astral_with) / sizeof(astral_with[0]); i++)
		if (c == astral_with[i])
			return true;
	return false;
}

/* One pictograph with its presentation selector, modifier and tags; *shown
 * tells whether it is presented as emoji (wide, or with U+FE0F), which a
 * ZWJ sequence needs of its parts. */
static size_t
emoji_element(const struct ustr *u, size_t i, bool *shown)
{
	int32_t c;

	if (i >= u->n || !is_pictographic(u->cp[i]))
		return i;
	c = u->cp[i++];
	*shown = is_wide(c);
	if (i < u->n && u->cp[i] == 0xfe0f && takes_vs16(c)) {
		*shown = true;
		i++;
	}
	if (i < u->n && is_modifier(u->cp[i]))
		i++;
	while (i < u->n && u->cp[i] >= 0xe0020 && u->cp[i] <= 0xe007e)
		i++;
	if (i < u->n && u->cp[i] == 0xe007f)
		i++;
	return i;
}

/* The end of the emoji sequence starting at i, or i when none does. A
 * lone pictograph is not a sequence: it weighs as its code point, as
 * twitter-text's list leaves text-style (C) and (R) alone. */
static size_t
emoji_sequence(const struct ustr *u, size_t i)
{
	size_t e, next;
	int32_t c = u->cp[i];
	bool shown, next_shown;

	if (is_regional(c) && i + 1 < u->n && is_regional(u->cp[i + 1]))
		return i + 2;
	if ((c == '#' || c == '*' || (c >= '0' && c <= '9'))) {
		e = i + 1;
		if (e < u->n && u->cp[e] == 0xfe0f)
			e++;
		return e < u->n && u->cp[e] == 0x20e3 ? e + 1 : i;
	}
	if ((e = emoji_element(u, i, &shown)) == i)
		return i;
	while (shown && e + 1 < u->n && u->cp[e] == 0x200d &&
	    (next = emoji_element(u, e + 1, &next_shown)) > e + 1 &&
	    next_shown)
		e = next;
	return e - i >= 2 ? e : i;
}

static int
x_weight(int32_t c)
{
	size_t i;

	for (i = 0; i < sizeof(x_light) / sizeof(x_light[0]); i++)
		if (c >= x_light[i].lo && c <= x_light[i].hi)
			return X_LIGHT;
	return X_HEAVY;
}

/* parseTweet's loop over the NFC text u with its URLs; *valid as
 * twitter-text's. */
static int
x_weighted(const struct ustr *u, const struct cspans *urls, bool *valid)
{
	size_t i, k = 0, e;
	long w = 0;
	bool ok = true;

	for (i = 0; i < u->n; i++) {
		while (k < urls->n && urls->v[k].start < i)
			k++;
		if (k < urls->n && urls->v[k].start == i) {
			w += X_URL_WEIGHT * X_SCALE;
			i = urls->v[k].end - 1;
		} else if ((e = emoji_sequence(u, i)) > i) {
			w += X_HEAVY;
			i = e - 1;
		} else
			w += x_weight(u->cp[i]);
		ok &= !text_is_invalid(u->cp[i]);
	}
	if (valid != NULL)
		*valid = ok && w > 0;
	return (int)(w / X_SCALE);
}

static int
graphemes(const struct ustr *u)
{
	utf8proc_int32_t state = 0;
	size_t i;
	int n;

	if (u->n == 0)
		return 0;
	for (i = 1, n = 1; i < u->n; i++)
		if (utf8proc_grapheme_break_stateful(u->cp[i - 1], u->cp[i],
		    &state))
			n++;
	return n;
}

int
text_weighted_length(const char *utf8)
{
	struct cspans urls = { 0 };
	struct ustr u;
	int n;

	if (decode(utf8, true, &u) == -1)
		return -1;
	text_urls(&u, true, &urls);
	n = x_weighted(&u, &urls, NULL);
	free(urls.v);
	ustr_free(&u);
	return n;
}

int
text_grapheme_count(const char *utf8)
{
	struct ustr u;
	int n;

	if (decode(utf8, false, &u) == -1)
		return -1;
	n = graphemes(&u);
	ustr_free(&u);
	return n;
}

int
text_codepoint_count(const char *utf8)
{
	struct ustr u;
	int n;

	if (decode(utf8, false, &u) == -1)
		return -1;
	n = (int)u.n;
	ustr_free(&u);
	return n;
}

/* Mastodon's countable text: URLs with a scheme become url_weight (the
 * instance's characters_reserved_per_url, 23 by default) characters,
 * "@user@domain" becomes "@user" (overlaps removed, the earlier entity
 * kept); then grapheme clusters. */
static int
mastodon_length(const char *utf8, const struct ustr *u, int url_weight)
{
	struct cspans ents = { 0 }, users = { 0 };
	struct ustr r;
	char *buf;
	size_t i, j, best, nurl, at = 0, len = 0;
	int n;

	text_urls(u, false, &ents);
	nurl = ents.n;
	text_mentions(u, &ents, &users);
	buf = xmalloc(u->off[u->n] + (size_t)url_weight * nurl + 1);
	for (;;) {
		best = (size_t)-1;
		for (j = 0; j < ents.n; j++)
			if (ents.v[j].start >= at && (best == (size_t)-1 ||
			    ents.v[j].start < ents.v[best].start))
				best = j;
		if (best == (size_t)-1)
			break;
		i = ents.v[best].start;
		memcpy(buf + len, utf8 + u->off[at], u->off[i] - u->off[at]);
		len += u->off[i] - u->off[at];
		if (best < nurl) {
			memset(buf + len, 'x', (size_t)url_weight);
			len += (size_t)url_weight;
		} else {
			j = users.v[best - nurl].end;
			memcpy(buf + len, utf8 + u->off[i], u->off[j] - u->off[i]);
			len += u->off[j] - u->off[i];
		}
		at = ents.v[best].end;
	}
	memcpy(buf + len, utf8 + u->off[at], u->off[u->n] - u->off[at]);
	len += u->off[u->n] - u->off[at];
	n = ustr_decode(buf, len, &r) == 0 ? graphemes(&r) : -1;
	ustr_free(&r);
	free(buf);
	free(ents.v);
	free(users.v);
	return n;
}

int
text_measure(const char *utf8, enum platform p, const struct limits *l,
    struct text_measure *out)
{
	struct cspans links = { 0 }, tags = { 0 };
	struct ustr u, nfc;
	bool valid = true;

	memset(out, 0, sizeof(*out));
	if ((unsigned)p >= PLATFORM_COUNT || decode(utf8, false, &u) == -1)
		return -1;
	if (decode(utf8, true, &nfc) == -1) {
		ustr_free(&u);
		return -1;
	}
	out->unit = platform_rule[p].unit;
	out->limit = l != NULL && l->max_length != LIMIT_UNSET ?
	    l->max_length : l != NULL && l->instance_length > 0 ?
	    l->instance_length : platform_rule[p].limit;
	out->byte_limit = platform_rule[p].byte_limit;
	out->bytes = (int)u.off[u.n];
	text_urls(&nfc, true, &links);
	text_hashtags(&nfc, &links, &tags);
	switch (p) {
	case PLATFORM_X:
		out->length = x_weighted(&nfc, &links, &valid);
		break;
	case PLATFORM_BLUESKY:
		out->length = graphemes(&u);
		break;
	case PLATFORM_MASTODON:
		out->length = mastodon_length(utf8, &u, l != NULL &&
		    l->url_weight > 0 ? l->url_weight :
		    MASTODON_URL_WEIGHT);
		break;
	default:
		out->length = (int)u.n;
		break;
	}
	out->links = (int)links.n;
	out->hashtags = (int)tags.n;
	out->ok = valid && out->length <= out->limit &&
	    (out->byte_limit == 0 || out->bytes <= out->byte_limit);
	free(links.v);
	free(tags.v);
	ustr_free(&nfc);
	ustr_free(&u);
	return 0;
}

/* Copies code point spans out as byte spans. */
static int
spans_out(const struct ustr *u, const struct cspans *c,
    struct text_span *spans, int max)
{
	size_t i;

	for (i = 0; spans != NULL && i < c->n && (int)i < max; i++) {
		spans[i].start = u->off[c->v[i].start];
		spans[i].end = u->off[c->v[i].end];
	}
	return (int)c->n;
}

int
text_extract_urls(const char *utf8, struct text_span *spans, int max)
{
	struct cspans c = { 0 };
	struct ustr u;
	int n;

	if (decode(utf8, false, &u) == -1)
		return -1;
	text_urls(&u, true, &c);
	n = spans_out(&u, &c, spans, max);
	free(c.v);
	ustr_free(&u);
	return n;
}

int
text_extract_hashtags(const char *utf8, struct text_span *spans, int max)
{
	struct cspans c = { 0 };
	struct ustr u;
	int n;

	if (decode(utf8, false, &u) == -1)
		return -1;
	text_hashtags(&u, NULL, &c);
	n = spans_out(&u, &c, spans, max);
	free(c.v);
	ustr_free(&u);
	return n;
}
