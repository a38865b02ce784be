/*
 * pyhl — Python syntax colouring for the Model pane: splits one source
 * line into spans (keyword, builtin, string, comment, number). Strings
 * spanning lines (triple quotes) carry over in *state.
 */
#ifndef FRONTS_UI_PYHL_H
#define FRONTS_UI_PYHL_H

#include <stddef.h>

enum pyhl_kind { PYHL_PLAIN, PYHL_KEYWORD, PYHL_BUILTIN, PYHL_STRING,
	PYHL_COMMENT, PYHL_NUMBER };

struct pyhl_span {
	size_t		start, end;	/* byte offsets into the line */
	enum pyhl_kind	kind;
};

/* Fills up to max spans covering line[0..n) in order; returns the count.
 * *state is 0 at the top of a file. */
int	pyhl_line(const char *line, size_t n, int *state,
	    struct pyhl_span *spans, int max);

#endif
