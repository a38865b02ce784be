/*
 * text — post length as each platform counts it, never in bytes: X by the
 * twitter-text v3 rules (NFC, weighted code units, URLs 23, twemoji-parser's
 * emoji 2), Bluesky and Mastodon in grapheme clusters (Mastodon with its URL
 * and mention concessions), the rest in code points. NFC, grapheme breaks
 * and character properties come from utf8proc, with the Indic conjunct rule
 * it lacks.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core/text.h"
#include "core/text_int.h"
#include "core/util.h"

/* Whether c is in one of n sorted ranges [lo, hi]. */
static bool	text_in_ranges(int32_t c, const int32_t (*r)[2], int n);

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

static void
ustr_free(struct ustr *u)
{
	free(u->cp);
	free(u->off);
	u->cp = NULL;
	u->off = NULL;
	u->n = 0;
}

static int
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

/*
 * X's weighted length works in UTF-16 code units, as parseTweet does in
 * JavaScript: the text is NFC, URLs weigh 23, every match of twemoji-parser's
 * emoji expression weighs 2 (whatever Unicode now says is one emoji), and
 * any other code point weighs by the v3 ranges of its first unit (so a
 * character outside the BMP weighs as its low surrogate, 2).
 */
struct u16 {
	uint16_t	*v;
	size_t		 n;
	size_t		*cp;	/* unit index of each code point, and n */
};

static void
u16_from(const struct ustr *u, struct u16 *w)
{
	size_t i;

	w->v = xmalloc((2 * u->n + 1) * sizeof(*w->v));
	w->cp = xmalloc((u->n + 1) * sizeof(*w->cp));
	w->n = 0;
	for (i = 0; i < u->n; i++) {
		w->cp[i] = w->n;
		if (u->cp[i] > 0xffff) {
			w->v[w->n++] = 0xd800 + ((u->cp[i] - 0x10000) >> 10);
			w->v[w->n++] = 0xdc00 + ((u->cp[i] - 0x10000) & 0x3ff);
		} else
			w->v[w->n++] = (uint16_t)u->cp[i];
	}
	w->cp[u->n] = w->n;
}

static void
u16_free(struct u16 *w)
{
	free(w->v);
	free(w->cp);
}

static bool
emoji_class(const struct emoji_inst *in, uint16_t c)
{
	int i;

	for (i = in->a; i < in->a + in->b; i++)
		if (c >= text_emoji_ranges[i][0] && c <= text_emoji_ranges[i][1])
			return true;
	return false;
}

struct emoji_frame { int pc; size_t pos; };

/* The end of the emoji expression's first match at pos, or pos when there
 * is none. The expression has no loops, so plain backtracking ends; stack
 * holds text_emoji_prog_len frames. */
static size_t
emoji_match(const struct u16 *w, size_t pos, struct emoji_frame *stack)
{
	const struct emoji_inst *in;
	size_t n = 0;
	struct emoji_frame f;

	stack[n++] = (struct emoji_frame){ 0, pos };
	while (n > 0) {
		f = stack[--n];
		for (;;) {
			in = &text_emoji_prog[f.pc];
			if (in->op == EMOJI_MATCH)
				return f.pos;
			if (in->op == EMOJI_JMP) {
				f.pc = in->a;
				continue;
			}
			if (in->op == EMOJI_SPLIT) {
				stack[n++] = (struct emoji_frame){ in->b, f.pos };
				f.pc = in->a;
				continue;
			}
			if (in->op == EMOJI_NOTNEXT) {
				if (f.pos < w->n && w->v[f.pos] == in->a)
					break;
				f.pc++;
				continue;
			}
			if (f.pos >= w->n || (in->op == EMOJI_UNIT ?
			    w->v[f.pos] != in->a : !emoji_class(in, w->v[f.pos])))
				break;
			f.pc++;
			f.pos++;
		}
	}
	return pos;
}

/* twemoji-parser's scan: emoji[i] is the end of the emoji starting at unit
 * i, or 0. */
static size_t *
emoji_scan(const struct u16 *w)
{
	struct emoji_frame *stack;
	size_t *emoji, i, e;

	emoji = xcalloc(w->n + 1, sizeof(*emoji));
	stack = xmalloc((size_t)text_emoji_prog_len * sizeof(*stack));
	for (i = 0; i < w->n;) {
		if (text_in_ranges(w->v[i], text_emoji_first,
		    text_emoji_first_count) &&
		    (e = emoji_match(w, i, stack)) > i) {
			emoji[i] = e;
			i = e;
		} else
			i++;
	}
	free(stack);
	return emoji;
}

static int
x_weight(uint16_t c)
{
	size_t i;

	for (i = 0; i < sizeof(x_light) / sizeof(x_light[0]); i++)
		if (c >= x_light[i].lo && c <= x_light[i].hi)
			return X_LIGHT;
	return X_HEAVY;
}

static bool
x_surrogate_pair(const struct u16 *w, size_t i)
{
	return i + 1 < w->n && w->v[i] >= 0xd800 && w->v[i] <= 0xdbff &&
	    w->v[i + 1] >= 0xdc00 && w->v[i + 1] <= 0xdfff;
}

/* parseTweet's loop over the NFC text u with its URLs; *valid as
 * twitter-text's. */
static int
x_weighted(const struct ustr *u, const struct cspans *urls, bool *valid)
{
	struct u16 w;
	size_t *url, *emoji, i, k;
	long total = 0;
	bool ok = true;

	u16_from(u, &w);
	url = xcalloc(w.n + 1, sizeof(*url));
	for (k = 0; k < urls->n; k++)
		url[w.cp[urls->v[k].start]] = w.cp[urls->v[k].end];
	emoji = emoji_scan(&w);
	for (i = 0; i < w.n; i++) {
		if (url[i] > i) {
			total += X_URL_WEIGHT * X_SCALE;
			i = url[i] - 1;
		} else if (emoji[i] > i) {
			total += X_HEAVY;
			i = emoji[i] - 1;
		} else {
			i += x_surrogate_pair(&w, i);
			total += x_weight(w.v[i]);
		}
		ok &= !text_is_invalid(w.v[i]);
	}
	free(url);
	free(emoji);
	u16_free(&w);
	if (valid != NULL)
		*valid = ok && total > 0;
	return (int)(total / X_SCALE);
}

static bool
text_in_ranges(int32_t c, const int32_t (*r)[2], int n)
{
	int lo = 0, hi = n - 1, mid;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if (c < r[mid][0])
			hi = mid - 1;
		else if (c > r[mid][1])
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

enum incb { INCB_NONE, INCB_CONSONANT, INCB_LINKER, INCB_EXTEND };

static enum incb
incb(int32_t c)
{
	if (c < text_incb_extend[0][0] && c < text_incb_consonant[0][0] &&
	    c < text_incb_linker[0][0])		/* Latin-1 and more: fast */
		return INCB_NONE;
	if (text_in_ranges(c, text_incb_consonant, text_incb_consonant_count))
		return INCB_CONSONANT;
	if (text_in_ranges(c, text_incb_linker, text_incb_linker_count))
		return INCB_LINKER;
	if (text_in_ranges(c, text_incb_extend, text_incb_extend_count))
		return INCB_EXTEND;
	return INCB_NONE;
}

static bool
is_control(int32_t c)
{
	int b = utf8proc_get_property(c)->boundclass;

	return b == UTF8PROC_BOUNDCLASS_CR || b == UTF8PROC_BOUNDCLASS_LF ||
	    b == UTF8PROC_BOUNDCLASS_CONTROL;
}

/*
 * Grapheme clusters: utf8proc's rules brought to the Unicode of the
 * Indic_Conjunct_Break table. Its version here (Unicode 15.0) predates
 * rule GB9c: no break before a consonant when a consonant, then only
 * extenders and linkers with at least one linker, come before it, so that
 * a conjunct such as "ksha" is one cluster (conj is 1 after a consonant, 2
 * once a linker followed it). It also breaks before combining marks newer
 * than its data; every extender and linker of the table is one (GB9), and
 * only a control before it (GB4) allows a break.
 */
static int
graphemes(const struct ustr *u)
{
	utf8proc_int32_t state = 0;
	enum incb k;
	size_t i;
	int n, conj;
	bool brk;

	if (u->n == 0)
		return 0;
	conj = incb(u->cp[0]) == INCB_CONSONANT;
	for (i = 1, n = 1; i < u->n; i++) {
		k = incb(u->cp[i]);
		brk = utf8proc_grapheme_break_stateful(u->cp[i - 1], u->cp[i],
		    &state);
		if ((k == INCB_EXTEND || k == INCB_LINKER) &&
		    !is_control(u->cp[i - 1]))
			brk = false;
		if (k == INCB_CONSONANT && conj == 2)
			brk = false;
		n += brk;
		if (k == INCB_CONSONANT)
			conj = 1;
		else if (k == INCB_LINKER)
			conj = conj ? 2 : 0;
		else if (k != INCB_EXTEND)
			conj = 0;
	}
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
	text_urls(&u, URL_ANY, &urls);
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

	text_urls(u, URL_MASTODON, &ents);
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
	struct cspans urls = { 0 }, links = { 0 }, tags = { 0 };
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
	text_urls(&nfc, URL_ANY, &urls);
	text_hashtags(&nfc, &urls, &tags);
	/* X's links are the URLs its length weighs, found in the NFC text. */
	text_links(p == PLATFORM_X ? &nfc : &u, p, &links);
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
	free(urls.v);
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
	text_urls(&u, URL_ANY, &c);
	n = spans_out(&u, &c, spans, max);
	free(c.v);
	ustr_free(&u);
	return n;
}

int
text_extract_links(const char *utf8, enum platform p, struct text_span *spans,
    int max)
{
	struct cspans c = { 0 };
	struct ustr u;
	int n;

	if ((unsigned)p >= PLATFORM_COUNT || decode(utf8, false, &u) == -1)
		return -1;
	text_links(&u, p, &c);
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
