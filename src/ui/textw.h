/*
 * textw — terminal cell widths of UTF-8 text, as the wide-character curses
 * functions will lay it out (wcwidth: CJK and emoji take two cells,
 * combining marks none), and clipping and word wrapping by cells rather
 * than bytes. Needs a UTF-8 LC_CTYPE (the TUI sets it from the
 * environment).
 */
#ifndef FRONTS_UI_TEXTW_H
#define FRONTS_UI_TEXTW_H

#include <stddef.h>
#include <wchar.h>

/* Cells needed for s (n bytes). Control and bidi characters and invalid
 * bytes are shown as termsafe's visible forms (`\x1b` is four cells), a
 * newline as `\n`, a tab as TEXTW_TAB cells. */
#define TEXTW_TAB 4
int	textw_width(const char *s, size_t n);
/* Converts the longest prefix of s that fits in maxcols cells into wide
 * characters for mvwaddnwstr (at most outmax - 1 of them, NUL-terminated),
 * keeping combining marks with their base. Returns the count; *cols gets
 * the cells used and *used (if not NULL) the bytes consumed. */
int	textw_decode(const char *s, size_t n, int maxcols, wchar_t *out,
	    int outmax, int *cols, size_t *used);
/* One line of a word wrap at width cells: returns the bytes of s to show
 * on this line; *next is where the following line starts (spaces at the
 * break are skipped). A word wider than the line is broken by cells. */
size_t	textw_wrap(const char *s, size_t n, int width, size_t *next);

#endif
