/*
 * termsafe — untrusted text made safe to print or draw (termsafe.h says
 * what is shown how). The UTF-8 decoder is strict (no overlong forms, no
 * surrogates, nothing past U+10FFFF), so what counts as one character here
 * is what a terminal would take as one.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/termsafe.h"
#include "core/util.h"

/* Length of the valid UTF-8 sequence at s, 0 if there is none; *cp gets
 * the code point. */
static size_t
termsafe_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;
		hi = s[0] == 0xed ? 0x9f : 0xbf;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	*cp = c;
	return len;
}

static bool
termsafe_bidi(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 &&
	    cp <= 0x2069);
}

size_t
termsafe_next(const char *s, size_t n, int flags, char out[TERMSAFE_MAX],
    bool *kept)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp = 0;
	size_t len;
	bool json = (flags & TERMSAFE_JSON) != 0;

	if (kept != NULL)
		*kept = false;
	if ((len = termsafe_decode(u, n, &cp)) == 0) {
		snprintf(out, TERMSAFE_MAX, json ? "\\ufffd" : "\\x%02x", u[0]);
		return 1;
	}
	if ((cp < 0x20 && cp != '\t' && (cp != '\n' ||
	    (flags & TERMSAFE_NEWLINE))) || cp == 0x7f) {
		if (json)
			snprintf(out, TERMSAFE_MAX, "\\u%04x", (unsigned)cp);
		else if (cp == '\r' || cp == '\n')
			snprintf(out, TERMSAFE_MAX, "\\%c", cp == '\r' ? 'r' :
			    'n');
		else
			snprintf(out, TERMSAFE_MAX, "\\x%02x", (unsigned)cp);
		return len;
	}
	if ((cp >= 0x80 && cp <= 0x9f) || termsafe_bidi(cp)) {
		snprintf(out, TERMSAFE_MAX, json ? "\\u%04x" : "<U+%04X>",
		    (unsigned)cp);
		return len;
	}
	memcpy(out, s, len);
	out[len] = '\0';
	if (kept != NULL)
		*kept = true;
	return len;
}

bool
termsafe_clean(const char *s, size_t n)
{
	char buf[TERMSAFE_MAX];
	size_t i = 0;
	bool kept;

	while (i < n) {
		i += termsafe_next(s + i, n - i, 0, buf, &kept);
		if (!kept)
			return false;
	}
	return true;
}

/* Calls fn for each piece of s as shown. */
static void
termsafe_each(const char *s, size_t n, int flags,
    void (*fn)(const char *, size_t, void *), void *arg)
{
	char buf[TERMSAFE_MAX];
	size_t i = 0, start = 0, k;
	bool kept;

	while (i < n) {
		k = termsafe_next(s + i, n - i, flags, buf, &kept);
		if (!kept) {
			if (i > start)
				fn(s + start, i - start, arg);
			fn(buf, strlen(buf), arg);
			start = i + k;
		}
		i += k;
	}
	if (n > start)
		fn(s + start, n - start, arg);
}

struct termsafe_buf {
	char	*p;
	size_t	 len, cap;
};

static void
termsafe_append(const char *s, size_t n, void *arg)
{
	struct termsafe_buf *b = arg;

	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

char *
termsafe_ndup(const char *s, size_t n, int flags)
{
	struct termsafe_buf b = { NULL, 0, 0 };

	termsafe_append("", 0, &b);
	termsafe_each(s, n, flags, termsafe_append, &b);
	return b.p;
}

char *
termsafe_dup(const char *s)
{
	return termsafe_ndup(s, strlen(s), 0);
}

static size_t
termsafe_copy_flags(char *dst, size_t size, const char *s, int flags)
{
	char buf[TERMSAFE_MAX];
	size_t i = 0, n = strlen(s), k, need = 0, at = 0, l;

	while (i < n) {
		k = termsafe_next(s + i, n - i, flags, buf, NULL);
		l = strlen(buf);
		if (size > 0 && at + l < size) {
			memcpy(dst + at, buf, l);
			at += l;
		} else
			size = at + 1;	/* full: nothing after a cut */
		need += l;
		i += k;
	}
	if (size > 0)
		dst[at] = '\0';
	return need;
}

size_t
termsafe_copy(char *dst, size_t size, const char *s)
{
	return termsafe_copy_flags(dst, size, s, 0);
}

size_t
termsafe_copy_line(char *dst, size_t size, const char *s)
{
	return termsafe_copy_flags(dst, size, s, TERMSAFE_NEWLINE);
}

static void
termsafe_put(const char *s, size_t n, void *arg)
{
	fwrite(s, 1, n, arg);
}

void
termsafe_fwrite(const char *s, size_t n, FILE *f)
{
	termsafe_each(s, n, 0, termsafe_put, f);
}

void
termsafe_fputs(const char *s, FILE *f)
{
	termsafe_fwrite(s, strlen(s), f);
}

int
termsafe_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	termsafe_fwrite(s, (size_t)n, f);
	free(s);
	return n;
}

void
termsafe_json_fputs(const char *json, FILE *f)
{
	termsafe_each(json, strlen(json), TERMSAFE_JSON, termsafe_put, f);
}

void
termsafe_json_puts(const char *json, FILE *f)
{
	termsafe_json_fputs(json, f);
	fputc('\n', f);
}
