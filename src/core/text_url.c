/*
 * text_url — URL extraction as twitter-text (v3.1) does it, so that a URL
 * counts as X, Mastodon and the link caps see it. twitter-text describes
 * URLs with one JavaScript regular expression; this file restates it:
 * domains (labels, then a TLD from the generated list, tried in list
 * order), an optional port, a path (matched by a small backtracking
 * program with JavaScript's leftmost-first priority, memoised so that no
 * input can make it exponential) and a query. The checks twitter-text
 * applies after matching (URL and label lengths, punycode, t.co slugs,
 * ASCII-only domains for URLs without a scheme) follow.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core/text_int.h"
#include "core/util.h"

#define URL_MAX_LENGTH		4096
#define URL_MAX_LABEL		63
#define URL_MAX_TCO_SLUG	40

/* twitter-text's character classes. */

static bool
is_punct(int32_t c)
{
	/* twitter-text's punct: ASCII punctuation except '"' and '`'. */
	return c < 0x80 && c != '"' && c != '`' && strchr(
	    "!'#%&()*+,\\-./:;<=>?@[]^_{|}~$", c) != NULL && c != 0;
}

static bool
is_directional(int32_t c)
{
	return (c >= 0x202a && c <= 0x202e) || c == 0x061c || c == 0x200e ||
	    c == 0x200f || (c >= 0x2066 && c <= 0x2069);
}

static bool
is_domain_char(int32_t c)
{
	return !is_punct(c) && !text_is_space(c) && !text_is_invalid(c) &&
	    !is_directional(c);
}

static bool
is_preceding_char(int32_t c)
{
	if (is_directional(c))
		return true;
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9'))
		return false;
	return c != '@' && c != 0xff20 && c != '$' && c != '#' &&
	    c != 0xff03 && !text_is_invalid(c);
}

static bool
is_alnum_i(int32_t c)
{
	c = text_js_canon(c);
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool
is_cyrillic(int32_t c)
{
	return c >= 0x400 && c <= 0x4ff;
}

/* A character class under /i: c matches when it or its case partner does. */
static bool
in_class_i(int32_t c, bool (*cls)(int32_t))
{
	int32_t u = text_js_canon(c);
	int32_t l = utf8proc_tolower(c);

	return cls(c) || cls(u) || cls(l);
}

static bool
path_char_cs(int32_t c)
{
	return is_alnum_i(c) || is_cyrillic(c) || text_is_latin_accent(c) ||
	    c == 0x2013 || (c < 0x80 && c != 0 &&
	    strchr("!*';:=+,.$/%#[]-_~@|&", c) != NULL);
}

static bool
path_char(int32_t c)
{
	return in_class_i(c, path_char_cs);
}

static bool
path_end_cs(int32_t c)
{
	return is_alnum_i(c) || is_cyrillic(c) || text_is_latin_accent(c) ||
	    (c < 0x80 && c != 0 && strchr("+-=_#/", c) != NULL);
}

static bool
path_end_char(int32_t c)
{
	return in_class_i(c, path_end_cs);
}

static bool
query_char(int32_t c)
{
	return is_alnum_i(c) ||
	    (c < 0x80 && c != 0 && strchr("!?*'@();:&=+$/%#[]-_.,~|", c) != NULL);
}

static bool
query_end_char(int32_t c)
{
	return is_alnum_i(c) || (c < 0x80 && c != 0 && strchr("-_&=#/", c) != NULL);
}

/*
 * A backtracking program for the URL path, run with a visited set over
 * (instruction, position): the first match found is the one JavaScript's
 * backtracking finds, in time linear in program size times input.
 */
enum rx_op { RX_CLASS, RX_CHAR, RX_SPLIT, RX_JMP, RX_MATCH };

struct rx_inst {
	enum rx_op	  op;
	bool		(*cls)(int32_t);
	int32_t		  ch;
	int		  x, y;		/* SPLIT: x first, y second; JMP: x */
};

#define RX_MAX 64

struct rx {
	struct rx_inst	in[RX_MAX];
	int		n;
};

static int
rx_emit(struct rx *r, enum rx_op op, bool (*cls)(int32_t), int32_t ch)
{
	struct rx_inst *i = &r->in[r->n];

	i->op = op;
	i->cls = cls;
	i->ch = ch;
	i->x = i->y = -1;
	return r->n++;
}

static void
rx_split(struct rx *r, int at, int x, int y)
{
	r->in[at].x = x;
	r->in[at].y = y;
}

/* G* : a greedy loop over path characters, continuing at the returned
 * split's y (to be patched by the caller). */
static int
rx_star(struct rx *r, bool (*cls)(int32_t))
{
	int s = rx_emit(r, RX_SPLIT, NULL, 0);

	rx_emit(r, RX_CLASS, cls, 0);
	r->in[rx_emit(r, RX_JMP, NULL, 0)].x = s;
	r->in[s].x = s + 1;
	return s;
}

/* G+ : returns the split whose y the caller patches. */
static int
rx_plus(struct rx *r, bool (*cls)(int32_t))
{
	int c = rx_emit(r, RX_CLASS, cls, 0);
	int s = rx_emit(r, RX_SPLIT, NULL, 0);

	r->in[s].x = c;
	return s;
}

/* \( (?: G+ | G* \( G+ \) G* ) \) */
static void
rx_balanced(struct rx *r)
{
	int alt, a, b, q, rr, close;

	rx_emit(r, RX_CHAR, NULL, '(');
	alt = rx_emit(r, RX_SPLIT, NULL, 0);
	a = rx_plus(r, path_char);
	b = rx_star(r, path_char);
	r->in[b].y = rx_emit(r, RX_CHAR, NULL, '(');
	q = rx_plus(r, path_char);
	r->in[q].y = rx_emit(r, RX_CHAR, NULL, ')');
	rr = rx_star(r, path_char);
	close = rx_emit(r, RX_CHAR, NULL, ')');
	r->in[a].y = close;
	r->in[rr].y = close;
	rx_split(r, alt, alt + 1, b);
}

/* (?: G* (?: B G* )* E | @ G+ / )* */
static void
rx_path(struct rx *r)
{
	int top, x, g1, bl, g2, ee, at, a1, jmp, end;
	int tops[3], ntops = 0;

	top = rx_emit(r, RX_SPLIT, NULL, 0);
	x = rx_emit(r, RX_SPLIT, NULL, 0);
	g1 = rx_star(r, path_char);
	bl = rx_emit(r, RX_SPLIT, NULL, 0);
	r->in[g1].y = bl;
	rx_balanced(r);
	g2 = rx_star(r, path_char);
	r->in[g2].y = bl;
	ee = rx_emit(r, RX_SPLIT, NULL, 0);
	r->in[bl].x = bl + 1;
	r->in[bl].y = ee;
	r->in[ee].x = rx_emit(r, RX_CLASS, path_end_char, 0);
	tops[ntops++] = rx_emit(r, RX_JMP, NULL, 0);
	r->in[ee].y = r->n;
	rx_balanced(r);
	tops[ntops++] = rx_emit(r, RX_JMP, NULL, 0);
	at = rx_emit(r, RX_CHAR, NULL, '@');
	a1 = rx_plus(r, path_char);
	r->in[a1].y = rx_emit(r, RX_CHAR, NULL, '/');
	tops[ntops++] = rx_emit(r, RX_JMP, NULL, 0);
	end = rx_emit(r, RX_MATCH, NULL, 0);
	for (jmp = 0; jmp < ntops; jmp++)
		r->in[tops[jmp]].x = top;
	rx_split(r, top, x, end);
	rx_split(r, x, g1, at);
}

struct rx_frame { int pc; size_t pos; };

/* Runs r on cp[start..limit); returns the end of the first match or
 * (size_t)-1. */
static size_t
rx_run(const struct rx *r, const int32_t *cp, size_t start, size_t limit)
{
	size_t span = limit - start + 1, nbits = (size_t)r->n * span;
	unsigned char *seen = xcalloc(nbits / 8 + 1, 1);
	struct rx_frame *stack;
	size_t nstack = 0, cap = 64, result = (size_t)-1;

	stack = xmalloc(cap * sizeof(*stack));
	stack[nstack++] = (struct rx_frame){ 0, start };
	while (nstack > 0 && result == (size_t)-1) {
		struct rx_frame f = stack[--nstack];

		for (;;) {
			size_t bit = (size_t)f.pc * span + (f.pos - start);
			const struct rx_inst *in = &r->in[f.pc];

			if (seen[bit / 8] & (1u << (bit % 8)))
				break;
			seen[bit / 8] |= 1u << (bit % 8);
			if (in->op == RX_MATCH) {
				result = f.pos;
				break;
			}
			if (in->op == RX_JMP) {
				f.pc = in->x;
				continue;
			}
			if (in->op == RX_SPLIT) {
				if (nstack == cap) {
					cap *= 2;
					stack = xrealloc(stack, cap * sizeof(*stack));
				}
				stack[nstack++] = (struct rx_frame){ in->y, f.pos };
				f.pc = in->x;
				continue;
			}
			if (f.pos >= limit)
				break;
			if (in->op == RX_CHAR ? cp[f.pos] != in->ch :
			    !in->cls(cp[f.pos]))
				break;
			f.pc++;
			f.pos++;
		}
	}
	free(stack);
	free(seen);
	return result;
}

/* TLDs, tried in twitter-text's order. */

static int32_t
utf8_next(const char **s)
{
	utf8proc_int32_t c;
	utf8proc_ssize_t n;

	n = utf8proc_iterate((const utf8proc_uint8_t *)*s, -1, &c);
	*s += n > 0 ? n : 1;
	return c;
}

/* Length in code points of tld matched at cp[p..], or 0. */
static size_t
tld_at(const struct ustr *u, size_t p, size_t end, const char *tld)
{
	size_t q = p;

	while (*tld != '\0') {
		int32_t t = (unsigned char)*tld < 0x80 ? *tld++ : utf8_next(&tld);

		if (q >= end || text_js_canon(u->cp[q]) != text_js_canon(t))
			return 0;
		q++;
	}
	/* (?=[^0-9a-zA-Z@+-]|$) */
	if (q < end && (is_alnum_i(u->cp[q]) || u->cp[q] == '@' ||
	    u->cp[q] == '+' || u->cp[q] == '-'))
		return 0;
	return q - p;
}

static size_t
tld_list(const struct ustr *u, size_t p, size_t end,
    const struct tld_index *idx)
{
	const char *s;
	int32_t first;
	size_t n;
	int g, i;

	if (p >= end)
		return 0;
	first = text_js_canon(u->cp[p]);
	if (first >= 'A' && first <= 'Z')
		g = first - 'A';
	else if (u->cp[p] >= 0x80)
		g = TLD_GROUP_OTHER;
	else
		return 0;
	for (i = idx->start[g]; i < idx->start[g + 1]; i++) {
		s = idx->names[i];
		if (u->cp[p] >= 0x80 && text_js_canon(utf8_next(&s)) != first)
			continue;
		if ((n = tld_at(u, p, end, idx->names[i])) > 0)
			return n;
	}
	return 0;
}

static bool
punycode_char(int32_t c)
{
	return c == '-' || is_alnum_i(c);
}

/* GTLD | CCTLD | xn--[-0-9a-z]+ ; returns the end or 0. */
static size_t
tld_match(const struct ustr *u, size_t p, size_t end)
{
	size_t n, q;

	if ((n = tld_list(u, p, end, &text_tlds_generic)) > 0 ||
	    (n = tld_list(u, p, end, &text_tlds_country)) > 0)
		return p + n;
	if (p + 5 > end || text_js_canon(u->cp[p]) != 'X' ||
	    text_js_canon(u->cp[p + 1]) != 'N' || u->cp[p + 2] != '-' ||
	    u->cp[p + 3] != '-' || !punycode_char(u->cp[p + 4]))
		return 0;
	for (q = p + 4; q < end && punycode_char(u->cp[q]); q++)
		;
	return q;
}

/* TLD results by position for one end, so that label chains such as
 * "a.a.a.…" cost a TLD search per position, not per position and start. */
struct tld_memo {
	size_t	 end;
	size_t	 base;
	size_t	*v;	/* 0 unknown, 1 none, else end + 2 */
	size_t	*lab;	/* label at p: 0 unknown, 1 none, else its end (coded) */
	size_t	*dom;	/* domain from a label chain at p: as v */
};

static void
tld_memo_init(struct tld_memo *m, size_t base, size_t end)
{
	m->base = base;
	m->end = end;
	m->v = xcalloc(end - base + 1, sizeof(*m->v));
	m->lab = xcalloc(end - base + 1, sizeof(*m->lab));
	m->dom = xcalloc(end - base + 1, sizeof(*m->dom));
}

static void
tld_memo_free(struct tld_memo *m)
{
	free(m->v);
	free(m->lab);
	free(m->dom);
}

static size_t
tld_memo_match(const struct ustr *u, struct tld_memo *m, size_t p)
{
	size_t *slot = &m->v[p - m->base], e;

	if (*slot == 0) {
		e = tld_match(u, p, m->end);
		*slot = e == 0 ? 1 : e + 2;
	}
	return *slot == 1 ? 0 : *slot - 2;
}

/* Domains: labels (a run of label characters ending in a dot), then a TLD;
 * greedy over labels, backing off one label at a time as the regular
 * expression does. */

struct label { size_t start, end; bool underscore; };

struct labels {
	struct label	*v;
	size_t		 n, cap;
};

static void
labels_add(struct labels *l, struct label x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = x;
}

/* The subdomain label at q (ending before a dot), remembered in memo:
 * false when there is none. */
static bool
domain_label_at(const struct ustr *u, struct tld_memo *memo, size_t q,
    struct label *x)
{
	size_t *slot = &memo->lab[q - memo->base], r;
	bool underscore = false;

	if (*slot == 0) {
		for (r = q; r < u->n && (is_domain_char(u->cp[r]) ||
		    u->cp[r] == '_' || u->cp[r] == '-'); r++)
			underscore |= u->cp[r] == '_';
		if (r == q || r >= u->n || u->cp[r] != '.' ||
		    !is_domain_char(u->cp[q]) || !is_domain_char(u->cp[r - 1]))
			*slot = 1;
		else
			*slot = ((r + 2) << 1) | underscore;
	}
	if (*slot == 1)
		return false;
	*x = (struct label){ q, (*slot >> 1) - 2, *slot & 1 };
	return true;
}

typedef bool (*label_fn)(const struct ustr *, struct tld_memo *, size_t,
    struct label *);

/*
 * labels* NAME TLD at p: the regular expression takes as many labels as it
 * can and backs off one at a time, so the domain is the one ending at the
 * last label (no underscore) that a TLD follows. That is the answer for
 * the chain after p's label if it has one, else p's own label: remembered
 * per position, which keeps long dotted runs linear.
 */
static size_t
chain_domain(const struct ustr *u, struct tld_memo *memo, label_fn label,
    size_t p)
{
	struct labels l = { 0 };
	struct label x;
	size_t q = p, res = 0, j, *slot;

	while (q < memo->end && memo->dom[q - memo->base] == 0) {
		if (!label(u, memo, q, &x)) {
			memo->dom[q - memo->base] = 1;
			break;
		}
		labels_add(&l, x);
		q = x.end + 1;
	}
	if (q < memo->end && memo->dom[q - memo->base] > 1)
		res = memo->dom[q - memo->base] - 2;
	for (j = l.n; j > 0; j--) {
		x = l.v[j - 1];
		if (res == 0 && !x.underscore)
			res = tld_memo_match(u, memo, x.end + 1);
		memo->dom[x.start - memo->base] = res == 0 ? 1 : res + 2;
	}
	free(l.v);
	if (p >= memo->end)
		return 0;
	slot = &memo->dom[p - memo->base];
	return *slot > 1 ? *slot - 2 : 0;
}

static size_t
url_domain(const struct ustr *u, struct tld_memo *memo, size_t p)
{
	return chain_domain(u, memo, domain_label_at, p);
}

/* ASCII-only domains inside d[start, end), as twitter-text's
 * validAsciiDomain finds them. */
static bool
ascii_label_char(int32_t c)
{
	return c == '-' || is_alnum_i(c) || in_class_i(c, text_is_latin_accent);
}

/* The ASCII label at q (before a dot); memoised. */
static bool
ascii_label_at(const struct ustr *u, struct tld_memo *memo, size_t q,
    struct label *x)
{
	size_t *slot = &memo->lab[q - memo->base], r;

	if (*slot == 0) {
		for (r = q; r < memo->end && ascii_label_char(u->cp[r]); r++)
			;
		*slot = r == q || r >= memo->end || u->cp[r] != '.' ? 1 : r + 2;
	}
	if (*slot == 1)
		return false;
	*x = (struct label){ q, *slot - 2, false };
	return true;
}

static size_t
ascii_domain_at(const struct ustr *u, struct tld_memo *memo, size_t s)
{
	return chain_domain(u, memo, ascii_label_at, s);
}

/* Punycode (RFC 3492) output length of one label, as punycode.js's
 * toASCII writes it; -1 on overflow (punycode.js throws). */
static int
puny_adapt(uint64_t delta, uint64_t npoints, bool first)
{
	uint64_t k = 0;

	delta = first ? delta / 700 : delta / 2;
	delta += delta / npoints;
	while (delta > ((36 - 1) * 26) / 2) {
		delta /= 36 - 1;
		k += 36;
	}
	return (int)(k + (36 - 1 + 1) * delta / (delta + 38));
}

static long
puny_len(const int32_t *cp, size_t n)
{
	const uint64_t maxint = 0x7fffffff;
	uint64_t delta = 0, bias = 72, nn = 128, m, q, k, t, h, b = 0;
	long out = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (cp[i] < 0x80)
			b++;
	out = (long)b + (b > 0);
	for (h = b; h < n; delta++, nn++) {
		m = maxint + 1;
		for (i = 0; i < n; i++)
			if ((uint64_t)cp[i] >= nn && (uint64_t)cp[i] < m)
				m = (uint64_t)cp[i];
		if (m - nn > (maxint - delta) / (h + 1))
			return -1;
		delta += (m - nn) * (h + 1);
		nn = m;
		for (i = 0; i < n; i++) {
			if ((uint64_t)cp[i] < nn && ++delta > maxint)
				return -1;
			if ((uint64_t)cp[i] != nn)
				continue;
			for (q = delta, k = 36;; k += 36) {
				t = k <= bias ? 1 : (k >= bias + 26 ? 26 : k - bias);
				if (q < t)
					break;
				out++;
				q = (q - t) / (36 - t);
			}
			out++;
			bias = puny_adapt(delta, h + 1, h == b);
			delta = 0;
			h++;
		}
	}
	return out;
}

static bool
puny_separator(int32_t c)
{
	return c == '.' || c == 0x3002 || c == 0xff0e || c == 0xff61;
}

/* punycode.toASCII(label).length, which also splits at the ideographic
 * full stops punycode.js treats as dots; -1 when it would throw. */
static long
puny_label_len(const int32_t *cp, size_t n)
{
	size_t i, from = 0;
	long total = 0, part;
	bool ascii = true;

	for (i = 0; i <= n; i++) {
		if (i < n && !puny_separator(cp[i])) {
			ascii &= cp[i] < 0x80;
			continue;
		}
		if (ascii)
			part = (long)(i - from);
		else if ((part = puny_len(cp + from, i - from)) < 0)
			return -1;
		else
			part += 4;
		total += part + (i < n);
		from = i + 1;
		ascii = true;
	}
	return total;
}

/* twitter-text's isValidUrl: total length, and every label 1..63 long
 * once punycoded. */
static bool
url_valid(const struct ustr *u, size_t start, size_t end, size_t proto_len,
    size_t ds, size_t de, struct tld_memo *dm)
{
	size_t i, from = ds;
	long n;

	if (proto_len + ustr_utf16_len(u, start, end) > URL_MAX_LENGTH)
		return false;
	if (de - ds >= 4 && u->cp[ds] == 'x' && u->cp[ds + 1] == 'n' &&
	    u->cp[ds + 2] == '-' && u->cp[ds + 3] == '-') {
		for (i = ds; i < de; i++)
			if (ascii_domain_at(u, dm, i) > 0)
				break;
		if (i == de)
			return false;
	}
	for (i = ds; i <= de; i++) {
		if (i < de && u->cp[i] != '.')
			continue;
		n = puny_label_len(u->cp + from, i - from);
		if (n < 1 || n > URL_MAX_LABEL)
			return false;
		from = i + 1;
	}
	return true;
}

/* Mastodon's valid_url takes these schemes besides http and https. */
static const char *const mastodon_schemes[] = {
	"DAT", "DWEB", "IPFS", "IPNS", "SSB", "GOPHER", "GEMINI", NULL
};

/* The length of name (upper case) at p, case-insensitively, or 0. */
static size_t
word_at(const struct ustr *u, size_t p, const char *name)
{
	size_t q = p;

	for (; *name != '\0'; name++, q++)
		if (q >= u->n || text_js_canon(u->cp[q]) != *name)
			return 0;
	return q - p;
}

/* https?:// (and Mastodon's other schemes for URL_MASTODON): the length,
 * or 0. */
static size_t
proto_len(const struct ustr *u, size_t p, enum url_kind kind)
{
	const char *const *s;
	size_t q;

	if ((q = word_at(u, p, "HTTP")) > 0) {
		if (p + q < u->n && text_js_canon(u->cp[p + q]) == 'S')
			q++;
	} else if (kind == URL_MASTODON) {
		for (s = mastodon_schemes; *s != NULL; s++)
			if ((q = word_at(u, p, *s)) > 0)
				break;
	}
	if (q == 0 || p + q + 3 > u->n || u->cp[p + q] != ':' ||
	    u->cp[p + q + 1] != '/' || u->cp[p + q + 2] != '/')
		return 0;
	return q + 3;
}

/* (?:\?Q*QE)? from p: the end, or p when there is no query. */
static size_t
url_query(const struct ustr *u, size_t p)
{
	size_t q, last = p;

	if (p >= u->n || u->cp[p] != '?')
		return p;
	for (q = p + 1; q < u->n && query_char(u->cp[q]); q++)
		if (query_end_char(u->cp[q]))
			last = q + 1;
	return last;
}

/* The extent a path can possibly reach, which bounds the visited set. */
static size_t
path_limit(const struct ustr *u, size_t p)
{
	while (p < u->n && (path_char(u->cp[p]) || u->cp[p] == '(' ||
	    u->cp[p] == ')'))
		p++;
	return p;
}

struct url_match {
	size_t	before;		/* preceding character, or (size_t)-1 */
	size_t	start, end;	/* the URL */
	size_t	proto;		/* length of the scheme and "://", 0 if none */
	size_t	ds, de;		/* the domain */
	bool	path;		/* a path ("/…") was matched */
};

static bool
url_body(const struct ustr *u, struct tld_memo *memo, size_t q,
    enum url_kind kind, struct url_match *m)
{
	struct rx r;
	size_t plen, e, d;

	plen = proto_len(u, q, kind);
	if (plen > 0 && (e = url_domain(u, memo, q + plen)) > 0)
		m->proto = plen;
	else if ((e = url_domain(u, memo, q)) > 0)
		m->proto = plen = 0;
	else
		return false;
	m->start = q;
	m->ds = q + plen;
	m->de = e;
	if (e + 1 < u->n && u->cp[e] == ':' && u->cp[e + 1] >= '0' &&
	    u->cp[e + 1] <= '9')
		for (e++; e < u->n && u->cp[e] >= '0' && u->cp[e] <= '9'; e++)
			;
	m->path = e < u->n && u->cp[e] == '/';
	if (m->path) {
		r.n = 0;
		rx_path(&r);
		d = rx_run(&r, u->cp, e + 1, path_limit(u, e + 1));
		e = d == (size_t)-1 ? e + 1 : d;
	}
	m->end = url_query(u, e);
	return true;
}

static bool
url_match_at(const struct ustr *u, struct tld_memo *memo, size_t s,
    enum url_kind kind, struct url_match *m)
{
	if (is_preceding_char(u->cp[s]) && url_body(u, memo, s + 1, kind, m)) {
		m->before = s;
		return true;
	}
	if (s == 0 && url_body(u, memo, 0, kind, m)) {
		m->before = (size_t)-1;
		return true;
	}
	return false;
}

/* ^https?://t\.co/([a-z0-9]+)(?:\?Q*QE)? : the slug length and the end. */
static bool
url_tco(const struct ustr *u, const struct url_match *m, size_t *slug,
    size_t *end)
{
	size_t p = m->start + m->proto, q;

	if (m->de - m->ds != 4 || text_js_canon(u->cp[m->ds]) != 'T' ||
	    u->cp[m->ds + 1] != '.' || text_js_canon(u->cp[m->ds + 2]) != 'C' ||
	    text_js_canon(u->cp[m->ds + 3]) != 'O')
		return false;
	p = m->de;
	if (p + 1 >= m->end || u->cp[p] != '/' || !is_alnum_i(u->cp[p + 1]))
		return false;
	for (q = p + 1; q < m->end && is_alnum_i(u->cp[q]); q++)
		;
	*slug = q - p - 1;
	*end = url_query(u, q);
	if (*end > m->end)
		*end = m->end;
	return true;
}

/* A URL without a scheme: each ASCII-only domain inside it, the last one
 * extended by the path, unless the preceding character rules it out. */
static void
url_accept_bare(const struct ustr *u, const struct url_match *m,
    bool with_bare, struct tld_memo *dm, struct cspans *out)
{
	size_t i, e, first = out->n;
	int32_t b;

	if (!with_bare)
		return;
	if (m->before != (size_t)-1) {
		b = u->cp[m->before];
		if (b == '-' || b == '_' || b == '.' || b == '/')
			return;
	}
	for (i = m->ds; i < m->de;) {
		if ((e = ascii_domain_at(u, dm, i)) == 0) {
			i++;
			continue;
		}
		cspans_add(out, i, e);
		i = e;
	}
	if (out->n > first && m->path)
		out->v[out->n - 1].end = m->end;
}

static void
url_accept(const struct ustr *u, const struct url_match *m, bool with_bare,
    struct cspans *out)
{
	struct tld_memo dm;
	size_t slug, end;
	bool valid;

	tld_memo_init(&dm, m->ds, m->de);
	valid = url_valid(u, m->start, m->end, m->proto ? m->proto : 8, m->ds,
	    m->de, &dm);
	if (valid && m->proto == 0)
		url_accept_bare(u, m, with_bare, &dm, out);
	else if (valid) {
		end = m->end;
		if (!url_tco(u, m, &slug, &end) || slug <= URL_MAX_TCO_SLUG)
			cspans_add(out, m->start, end);
	}
	tld_memo_free(&dm);
}

void
text_urls(const struct ustr *u, enum url_kind kind, struct cspans *out)
{
	struct tld_memo memo;
	struct url_match m;
	bool with_bare = kind == URL_ANY;
	size_t s, i;

	for (i = 0; i < u->n && u->cp[i] != (with_bare ? '.' : ':'); i++)
		;
	if (i == u->n)
		return;
	tld_memo_init(&memo, 0, u->n);
	for (s = 0; s < u->n;) {
		if (!url_match_at(u, &memo, s, kind, &m)) {
			s++;
			continue;
		}
		s = m.end;
		url_accept(u, &m, with_bare, out);
	}
	tld_memo_free(&memo);
}
