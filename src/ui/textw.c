/*
 * textw — cell widths, clipping and wrapping of UTF-8 text for the TUI.
 * Every character goes through termsafe first, so a control, a bidi
 * character or a malformed byte is drawn as its visible form (`\x1b`,
 * `<U+202E>`, `\xff`) and never reaches the terminal; widths come from
 * wcwidth so they agree with ncursesw's own accounting.
 */
#include <stdbool.h>
#include <string.h>
#include <wchar.h>

#include <utf8proc.h>

#include "core/termsafe.h"
#include "ui/textw.h"

#define TEXTW_BAD 0xfffd

/* One character of the input as drawn: its wide characters (a control
 * or bidi character is drawn as its visible form from termsafe), its
 * cells and the bytes of the input it stands for. */
struct textw_unit {
	wchar_t	wc[TERMSAFE_MAX];
	int	nwc;
	int	cells;
	size_t	bytes;
};

static void
textw_unit(const char *s, size_t n, struct textw_unit *u)
{
	char shown[TERMSAFE_MAX];
	utf8proc_int32_t cp;
	bool kept;
	int i, cw;

	u->bytes = termsafe_next(s, n, TERMSAFE_NEWLINE, shown, &kept);
	if (!kept) {
		for (i = 0; shown[i] != '\0'; i++)
			u->wc[i] = (wchar_t)(unsigned char)shown[i];
		u->nwc = u->cells = i;
		return;
	}
	if (utf8proc_iterate((const utf8proc_uint8_t *)s,
	    (utf8proc_ssize_t)u->bytes, &cp) <= 0)
		cp = TEXTW_BAD;
	if (cp == '\t') {
		for (i = 0; i < TEXTW_TAB; i++)
			u->wc[i] = L' ';
		u->nwc = u->cells = TEXTW_TAB;
		return;
	}
	if ((cw = wcwidth((wchar_t)cp)) < 0) {	/* unknown here */
		cp = TEXTW_BAD;
		cw = 1;
	}
	u->wc[0] = (wchar_t)cp;
	u->nwc = 1;
	u->cells = cw;
}

int
textw_width(const char *s, size_t n)
{
	struct textw_unit u;
	size_t i = 0;
	int total = 0;

	while (i < n) {
		textw_unit(s + i, n - i, &u);
		total += u.cells;
		i += u.bytes;
	}
	return total;
}

int
textw_decode(const char *s, size_t n, int maxcols, wchar_t *out, int outmax,
    int *cols, size_t *used)
{
	struct textw_unit u;
	size_t i = 0;
	int k, nout = 0, c = 0;

	while (i < n) {
		textw_unit(s + i, n - i, &u);
		if (c + u.cells > maxcols || nout + u.nwc > outmax - 1 ||
		    (u.cells == 0 && nout == 0 && maxcols == 0))
			break;
		for (k = 0; k < u.nwc; k++)
			out[nout++] = u.wc[k];
		c += u.cells;
		i += u.bytes;
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
	struct textw_unit u;
	size_t i = 0, before, brk = 0;
	int c = 0;
	bool brk_seen = false;

	/* The newline is looked for only as far as the row reaches: a search
	 * of the whole rest for every row would make wrapping a long
	 * paragraph quadratic. */
	while (i < n && s[i] != '\n') {
		before = i;
		textw_unit(s + i, n - i, &u);
		i += u.bytes;
		if (s[before] == ' ') {
			brk = before;
			brk_seen = true;
		}
		if (c + u.cells > width) {
			if (brk_seen && brk > 0)
				i = brk;
			else
				i = before > 0 ? before : i;
			*next = i;
			while (*next < n && s[*next] == ' ')
				(*next)++;
			return i;
		}
		c += u.cells;
	}
	*next = i < n ? i + 1 : n;
	return i;
}
