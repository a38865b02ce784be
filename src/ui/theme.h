/*
 * theme — the TUI's colours: one style (foreground, background,
 * attributes) per role, read from a themes/NAME.theme file of
 * `role = FG [on BG] [ATTR…]` lines (format in themes/README.md). Roles a
 * file leaves out keep the built-in default. Parsing is separate from
 * curses so it can be tested; ui.c turns styles into colour pairs, mapping
 * 256-colour values down on 8-colour terminals and dropping colour (not
 * attributes) on monochrome ones or when NO_COLOR is set.
 */
#ifndef FRONTS_UI_THEME_H
#define FRONTS_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

enum theme_role {
	THEME_NORMAL, THEME_BORDER, THEME_BORDER_FOCUS, THEME_TITLE,
	THEME_TITLE_FOCUS, THEME_LINENO, THEME_VERDICT, THEME_VERDICT_MSG,
	THEME_PY_KEYWORD, THEME_PY_BUILTIN, THEME_PY_STRING, THEME_PY_COMMENT,
	THEME_PY_NUMBER, THEME_HEADING, THEME_BAR, THEME_SELECTED,
	THEME_STATUS, THEME_DRYRUN, THEME_LIVE, THEME_OK, THEME_WARN,
	THEME_ERROR, THEME_DIM, THEME_DIALOG,
	THEME_COUNT
};

enum theme_attr {
	THEME_A_BOLD = 1, THEME_A_DIM = 2, THEME_A_UNDERLINE = 4,
	THEME_A_REVERSE = 8, THEME_A_STANDOUT = 16
};

#define THEME_DEFAULT_COLOR (-1)

struct theme_style {
	short	fg, bg;		/* 0..255 or THEME_DEFAULT_COLOR */
	int	attrs;		/* enum theme_attr bits */
};

struct theme {
	char			name[64];
	struct theme_style	style[THEME_COUNT];
};

/* The built-in default theme. */
void		 theme_default(struct theme *);
/* "normal", "border.focus", …; NULL when out of range. */
const char	*theme_role_name(enum theme_role);
/* Parses a theme file's text over the theme's current styles; errors name
 * file and line. Nothing is changed on error. */
int		 theme_parse(struct theme *, const char *text, const char *file,
		    struct error *err);
/* Finds NAME.theme (or a path when name contains '/') and parses it over
 * the default theme. */
int		 theme_load(struct theme *, const char *name, struct error *err);
/* The colour a terminal with ncolors colours can show for c. */
short		 theme_color_fit(short c, int ncolors);
/* Names of the installed themes, sorted, NULL-terminated (caller frees
 * each and the array). */
char		**theme_list(void);

#endif
