/*
 * text_int — what the text module's files share and nobody else needs:
 * text decoded to code points (with byte offsets back into the input),
 * the character classes twitter-text defines, and the TLD tables.
 */
#ifndef FRONTS_TEXT_INT_H
#define FRONTS_TEXT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Text as code points; off[i] is the byte offset of cp[i] in the UTF-8 it
 * came from, off[n] its length. */
struct ustr {
	int32_t	*cp;
	size_t	*off;
	size_t	 n;
};

/* A found entity in code point indices [start, end). */
struct cspan { size_t start, end; };

/* A growable list of spans; the caller frees v. */
struct cspans {
	struct cspan	*v;
	size_t		 n, cap;
};

int	 ustr_decode(const char *utf8, size_t len, struct ustr *);
void	 ustr_free(struct ustr *);
void	 cspans_add(struct cspans *, size_t start, size_t end);
/* UTF-16 code units of cp[from..to), as JavaScript's String.length counts. */
size_t	 ustr_utf16_len(const struct ustr *, size_t from, size_t to);

/* Case folding of a non-unicode JavaScript /i regular expression. */
int32_t	 text_js_canon(int32_t);

bool	 text_is_space(int32_t);	/* twitter-text spaces */
bool	 text_is_invalid(int32_t);	/* U+FFFE, U+FEFF, U+FFFF */
bool	 text_is_latin_accent(int32_t);

/* URLs as twitter-text's extractor finds them; with_bare also takes URLs
 * without a scheme (which must end in a known TLD). Spans are appended. */
void	 text_urls(const struct ustr *, bool with_bare, struct cspans *);
/* Hashtags as twitter-text extracts them, without those overlapping a URL
 * (urls: text_urls(u, true) of the same text, or NULL to find them). */
void	 text_hashtags(const struct ustr *, const struct cspans *urls,
	    struct cspans *);
/* Mastodon mentions (Account::MENTION_RE); each span's end is after the
 * whole "@user@domain", and *user_end receives where "@user" ends. */
void	 text_mentions(const struct ustr *, struct cspans *, struct cspans *user);

/* TLDs by first letter (in list order), and those not starting in ASCII. */
struct tld_index {
	const char *const	*ascii[26];
	const char *const	*other;
};

/* Generated from tests/data/twitter-text/tlds.json (tools/gen_tlds.py). */
extern const char *const	text_tlds_generic[];
extern const int		text_tlds_generic_count;
extern const char *const	text_tlds_country[];
extern const int		text_tlds_country_count;
extern const struct tld_index	text_tlds_generic_index;
extern const struct tld_index	text_tlds_country_index;

#endif
