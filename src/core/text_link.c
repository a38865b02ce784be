/*
 * text_link — what counts as a link on each platform: the one definition
 * that link caps (the legality engine, `fronts drafts`, the re-check of a
 * plan) and Bluesky's link facets use. A link is what the platform itself
 * turns into one, so a cap counts what readers will see:
 *
 *   X         twitter-text's extractor (with and without a scheme; the TLD
 *             must be known), which also decides the 23-character weight
 *   Bluesky   the official client's facet detection (@atproto/api
 *             detectFacets): every http(s):// URL whatever its host, and a
 *             bare domain only when its TLD is in the IANA list
 *   Mastodon  every URL with a scheme, whatever its host: its server's
 *             extractor (a scheme it knows on a domain with a known TLD,
 *             which alone decides the 23-character weight) and every
 *             http(s):// URL besides, since clients link those and a cap
 *             must not be beaten by a host name; never a bare domain
 *   others    either of the X and Bluesky rules (overlaps counted once),
 *             since their linkers take bare domains and any http(s) host
 */
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "core/text_int.h"
#include "core/util.h"

/* JavaScript's \s (WhiteSpace and LineTerminator). */
static bool
js_space(int32_t c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0xa0 ||
	    c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
	    c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 ||
	    c == 0xfeff;
}

/* ^ under JavaScript's m flag. */
static bool
js_line_start(const struct ustr *u, size_t p)
{
	int32_t c;

	if (p == 0)
		return true;
	c = u->cp[p - 1];
	return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029;
}

/* [a-z] and [a-z0-9] under the i flag (without u, only ASCII folds). */
static bool
ascii_alpha(int32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
ascii_alnum(int32_t c)
{
	return ascii_alpha(c) || (c >= '0' && c <= '9');
}

static size_t
nonspace_end(const struct ustr *u, size_t p)
{
	while (p < u->n && !js_space(u->cp[p]))
		p++;
	return p;
}

static bool
lower_at(const struct ustr *u, size_t p, const char *s, bool fold)
{
	for (; *s != '\0'; s++, p++)
		if (p >= u->n || (fold ? (u->cp[p] | 0x20) : u->cp[p]) != *s)
			return false;
	return true;
}

/* One match of the client's URL expression, past its leading character. */
struct bsky_match {
	size_t	start, end;	/* the URL (before punctuation is stripped) */
	size_t	domain_end;	/* end of the domain when it has no scheme, or 0 */
};

/* (https?://\S+)|([a-z][a-z0-9]*(\.[a-z0-9]+)+\S*) at b, case-folded. */
static bool
bsky_body(const struct ustr *u, size_t b, struct bsky_match *m)
{
	size_t q = b + 4;
	bool dotted = false;

	m->start = b;
	if (lower_at(u, b, "http", true)) {
		if (q < u->n && (u->cp[q] | 0x20) == 's')
			q++;
		if (lower_at(u, q, "://", false) && q + 3 < u->n &&
		    !js_space(u->cp[q + 3])) {
			m->end = nonspace_end(u, q + 3);
			m->domain_end = 0;
			return true;
		}
	}
	if (b >= u->n || !ascii_alpha(u->cp[b]))
		return false;
	for (q = b + 1; q < u->n && ascii_alnum(u->cp[q]); q++)
		;
	while (q + 1 < u->n && u->cp[q] == '.' && ascii_alnum(u->cp[q + 1])) {
		for (q += 2; q < u->n && ascii_alnum(u->cp[q]); q++)
			;
		dotted = true;
	}
	if (!dotted)
		return false;
	m->domain_end = q;
	m->end = nonspace_end(u, q);
	return true;
}

/* (^|\s|\() then the body, at p. */
static bool
bsky_match_at(const struct ustr *u, size_t p, struct bsky_match *m)
{
	if (js_line_start(u, p) && bsky_body(u, p, m))
		return true;
	return p < u->n && (js_space(u->cp[p]) || u->cp[p] == '(') &&
	    bsky_body(u, p + 1, m);
}

static int
tld_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* isValidDomain: the last label is a TLD of the list, case as written. */
static bool
bsky_valid_domain(const struct ustr *u, size_t start, size_t end)
{
	char label[64];
	size_t p = end, i;

	while (p > start && u->cp[p - 1] != '.')
		p--;
	if (end - p >= sizeof(label))
		return false;
	for (i = 0; p + i < end; i++)
		label[i] = (char)u->cp[p + i];
	label[i] = '\0';
	return bsearch(label, text_tlds_bsky, (size_t)text_tlds_bsky_count,
	    sizeof(text_tlds_bsky[0]), tld_cmp) != NULL;
}

/* What the client links of a match, after it strips one trailing
 * punctuation mark and then an unbalanced ')'; false when it links
 * nothing (the scheme must be lower case, a bare domain's TLD known). */
static bool
bsky_accept(const struct ustr *u, const struct bsky_match *m, struct cspan *out)
{
	size_t end = m->end, i;
	bool open = false;

	if (!lower_at(u, m->start, "http", false) && (m->domain_end == 0 ||
	    !bsky_valid_domain(u, m->start, m->domain_end)))
		return false;
	if (u->cp[end - 1] < 0x80 && u->cp[end - 1] != 0 &&
	    strchr(".,;:!?", u->cp[end - 1]) != NULL)
		end--;
	for (i = m->start; i < end; i++)
		open |= u->cp[i] == '(';
	if (end > m->start && u->cp[end - 1] == ')' && !open)
		end--;
	*out = (struct cspan){ m->start, end };
	return true;
}

static void
text_links_bluesky(const struct ustr *u, struct cspans *out)
{
	struct bsky_match m;
	struct cspan s;
	size_t p = 0;

	while (p < u->n) {
		if (!bsky_match_at(u, p, &m)) {
			p++;
			continue;
		}
		if (bsky_accept(u, &m, &s))
			cspans_add(out, s.start, s.end);
		p = m.end;
	}
}

/* Spans that either list has, overlapping ones merged (both are sorted). */
static void
links_union(const struct cspans *a, const struct cspans *b,
    struct cspans *out)
{
	size_t i = 0, j = 0;
	struct cspan next;

	while (i < a->n || j < b->n) {
		if (j >= b->n || (i < a->n && a->v[i].start <= b->v[j].start))
			next = a->v[i++];
		else
			next = b->v[j++];
		if (out->n > 0 && next.start < out->v[out->n - 1].end) {
			if (next.end > out->v[out->n - 1].end)
				out->v[out->n - 1].end = next.end;
		} else
			cspans_add(out, next.start, next.end);
	}
}

/* The http(s):// URLs of Bluesky's rule, whatever the host, with the
 * server extractor's own links. */
static void
text_links_mastodon(const struct ustr *u, struct cspans *out)
{
	struct cspans known = { 0 }, any = { 0 }, schemed = { 0 };
	size_t i;

	text_urls(u, URL_MASTODON, &known);
	text_links_bluesky(u, &any);
	for (i = 0; i < any.n; i++)
		if (lower_at(u, any.v[i].start, "http://", true) ||
		    lower_at(u, any.v[i].start, "https://", true))
			cspans_add(&schemed, any.v[i].start, any.v[i].end);
	links_union(&known, &schemed, out);
	free(known.v);
	free(any.v);
	free(schemed.v);
}

void
text_links(const struct ustr *u, enum platform p, struct cspans *out)
{
	struct cspans x = { 0 }, bsky = { 0 };

	switch (p) {
	case PLATFORM_X:
		text_urls(u, URL_ANY, out);
		break;
	case PLATFORM_BLUESKY:
		text_links_bluesky(u, out);
		break;
	case PLATFORM_MASTODON:
		text_links_mastodon(u, out);
		break;
	default:
		text_urls(u, URL_ANY, &x);
		text_links_bluesky(u, &bsky);
		links_union(&x, &bsky, out);
		free(x.v);
		free(bsky.v);
		break;
	}
}
