/*
 * textw — cell widths, clipping and wrapping of UTF-8 text for the TUI.
 * Decoding goes through utf8proc so malformed input never stops a draw;
 * widths come from wcwidth so they agree with ncursesw's own accounting.
 */
#include <stdbool.h>
#include <string.h>
#include <wchar.h>

#include <utf8proc.h>

#include "ui/textw.h"

#define TEXTW_BAD 0xfffd

/* Next code point at s[*i]; invalid bytes decode as U+FFFD, one byte each. */
static int32_t
textw_next(const char *s, size_t n, size_t *i)
{
	utf8proc_int32_t cp;
	utf8proc_ssize_t k;

	k = utf8proc_iterate((const utf8proc_uint8_t *)s + *i,
	    (utf8proc_ssize_t)(n - *i), &cp);
	if (k <= 0) {
		(*i)++;
		return TEXTW_BAD;
	}
	*i += (size_t)k;
	return cp;
}

/* The character actually drawn for cp and its width in cells. */
static int32_t
textw_shown(int32_t cp, int *w)
{
	int cw;

	if (cp == '\t') {
		*w = TEXTW_TAB;
		return ' ';
	}
	cw = wcwidth((wchar_t)cp);
	if (cw < 0) {
		*w = 1;
		return cp < 0x20 || cp == 0x7f ? '?' : TEXTW_BAD;
	}
	*w = cw;
	return cp;
}

int
textw_width(const char *s, size_t n)
{
	size_t i = 0;
	int w, total = 0;

	while (i < n) {
		textw_shown(textw_next(s, n, &i), &w);
		total += w;
	}
	return total;
}

int
textw_decode(const char *s, size_t n, int maxcols, wchar_t *out, int outmax,
    int *cols, size_t *used)
{
	size_t i = 0, before;
	int32_t ch;
	int w, k, nout = 0, c = 0;

	while (i < n && nout < outmax - 1) {
		before = i;
		ch = textw_shown(textw_next(s, n, &i), &w);
		if (c + w > maxcols || (w == 0 && nout == 0 && maxcols == 0)) {
			i = before;
			break;
		}
		if (w == TEXTW_TAB && ch == ' ' && s[before] == '\t') {
			if (nout + TEXTW_TAB >= outmax) {
				i = before;
				break;
			}
			for (k = 0; k < TEXTW_TAB; k++)
				out[nout++] = L' ';
		} else
			out[nout++] = (wchar_t)ch;
		c += w;
	}
	out[nout] = L'\0';
	if (cols != NULL)
		*cols = c;
	if (used != NULL)
		*used = i;
	return nout;
}

size_t
textw_wrap(const char *s, size_t n, int width, size_t *next)
{
	size_t i = 0, before, brk = 0, nl;
	const char *p;
	int w, c = 0;
	bool brk_seen = false;

	if ((p = memchr(s, '\n', n)) != NULL)
		nl = (size_t)(p - s);
	else
		nl = n;
	while (i < nl) {
		before = i;
		textw_shown(textw_next(s, nl, &i), &w);
		if (s[before] == ' ') {
			brk = before;
			brk_seen = true;
		}
		if (c + w > width) {
			if (brk_seen && brk > 0)
				i = brk;
			else
				i = before > 0 ? before : i;
			*next = i;
			while (*next < n && s[*next] == ' ')
				(*next)++;
			return i;
		}
		c += w;
	}
	*next = nl < n ? nl + 1 : n;
	return nl;
}
