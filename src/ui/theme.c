/*
 * theme — theme files: parsing, lookup in the theme directories, and the
 * colour fallback for terminals with fewer colours.
 */
#include <ctype.h>
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/theme.h"

static const char *theme_roles[THEME_COUNT] = {
	"normal", "border", "border.focus", "title", "title.focus", "lineno",
	"verdict", "verdict.message", "py.keyword", "py.builtin", "py.string",
	"py.comment", "py.number", "heading", "bar", "selected", "status",
	"dry-run", "live", "ok", "warn", "error", "dim", "dialog"
};

static const char *theme_colors[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow",
	"bright-blue", "bright-magenta", "bright-cyan", "bright-white"
};

static const struct { const char *name; int bit; } theme_attrs[] = {
	{ "bold", THEME_A_BOLD }, { "dim", THEME_A_DIM },
	{ "underline", THEME_A_UNDERLINE }, { "reverse", THEME_A_REVERSE },
	{ "standout", THEME_A_STANDOUT }
};

#define D THEME_DEFAULT_COLOR
static const struct theme_style theme_builtin[THEME_COUNT] = {
	[THEME_NORMAL] = { D, D, 0 },
	[THEME_BORDER] = { 8, D, 0 },
	[THEME_BORDER_FOCUS] = { 6, D, THEME_A_BOLD },
	[THEME_TITLE] = { 7, D, 0 },
	[THEME_TITLE_FOCUS] = { 6, D, THEME_A_BOLD | THEME_A_REVERSE },
	[THEME_LINENO] = { 8, D, 0 },
	[THEME_VERDICT] = { 15, 1, THEME_A_BOLD },
	[THEME_VERDICT_MSG] = { 9, D, THEME_A_BOLD },
	[THEME_PY_KEYWORD] = { 5, D, THEME_A_BOLD },
	[THEME_PY_BUILTIN] = { 6, D, 0 },
	[THEME_PY_STRING] = { 2, D, 0 },
	[THEME_PY_COMMENT] = { 8, D, 0 },
	[THEME_PY_NUMBER] = { 3, D, 0 },
	[THEME_HEADING] = { 4, D, THEME_A_BOLD },
	[THEME_BAR] = { 6, D, 0 },
	[THEME_SELECTED] = { D, D, THEME_A_REVERSE },
	[THEME_STATUS] = { 15, 4, 0 },
	[THEME_DRYRUN] = { 0, 2, THEME_A_BOLD },
	[THEME_LIVE] = { 15, 1, THEME_A_BOLD | THEME_A_REVERSE },
	[THEME_OK] = { 2, D, THEME_A_BOLD },
	[THEME_WARN] = { 3, D, THEME_A_BOLD },
	[THEME_ERROR] = { 1, D, THEME_A_BOLD },
	[THEME_DIM] = { 8, D, 0 },
	[THEME_DIALOG] = { D, D, 0 },
};
#undef D

void
theme_default(struct theme *t)
{
	snprintf(t->name, sizeof t->name, "default");
	memcpy(t->style, theme_builtin, sizeof t->style);
}

const char *
theme_role_name(enum theme_role r)
{
	return (int)r >= 0 && r < THEME_COUNT ? theme_roles[r] : NULL;
}

/* "red", "bright-red", "default", "208", "color208" -> colour; -2 if bad. */
static int
theme_color_parse(const char *s)
{
	char *end;
	long n;
	int i;

	if (strcmp(s, "default") == 0)
		return THEME_DEFAULT_COLOR;
	for (i = 0; i < 16; i++)
		if (strcmp(s, theme_colors[i]) == 0)
			return i;
	if (strncmp(s, "color", 5) == 0)
		s += 5;
	if (!isdigit((unsigned char)*s))
		return -2;
	n = strtol(s, &end, 10);
	if (*end != '\0' || n < 0 || n > 255)
		return -2;
	return (int)n;
}

static int
theme_attr_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof theme_attrs / sizeof theme_attrs[0]; i++)
		if (strcmp(s, theme_attrs[i].name) == 0)
			return theme_attrs[i].bit;
	return 0;
}

/* Parses "FG [on BG] [ATTR…]" (already split into words). */
static int
theme_style_parse(char **w, int nw, struct theme_style *st, const char *file,
    int line, struct error *err)
{
	int i, c, a;

	*st = (struct theme_style){ THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0 };
	for (i = 0; i < nw; i++) {
		if (strcmp(w[i], "on") == 0) {
			if (i + 1 >= nw || (c = theme_color_parse(w[i + 1])) == -2)
				return error_set(err, EXIT_ERROR, "%s:%d: 'on' "
				    "needs a colour", file, line);
			st->bg = (short)c;
			i++;
		} else if ((a = theme_attr_parse(w[i])) != 0)
			st->attrs |= a;
		else if (i == 0 && (c = theme_color_parse(w[i])) != -2)
			st->fg = (short)c;
		else
			return error_set(err, EXIT_ERROR, "%s:%d: unknown colour "
			    "or attribute '%s'", file, line, w[i]);
	}
	return 0;
}

static char *
theme_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int
theme_role_find(const char *key)
{
	int i;

	for (i = 0; i < THEME_COUNT; i++)
		if (strcmp(key, theme_roles[i]) == 0)
			return i;
	return -1;
}

static int
theme_line(struct theme *t, char *s, const char *file, int line,
    struct error *err)
{
	char *eq, *key, *w[16], *save = NULL, *tok;
	int role, nw = 0;

	if ((eq = strchr(s, '#')) != NULL)
		*eq = '\0';
	s = theme_trim(s);
	if (*s == '\0')
		return 0;
	if ((eq = strchr(s, '=')) == NULL)
		return error_set(err, EXIT_ERROR, "%s:%d: expected 'role = "
		    "colour', got '%s'", file, line, s);
	*eq = '\0';
	key = theme_trim(s);
	if ((role = theme_role_find(key)) < 0)
		return error_set(err, EXIT_ERROR, "%s:%d: unknown role '%s'",
		    file, line, key);
	for (tok = strtok_r(eq + 1, " \t", &save); tok != NULL && nw < 16;
	    tok = strtok_r(NULL, " \t", &save))
		w[nw++] = tok;
	if (nw == 0)
		return error_set(err, EXIT_ERROR, "%s:%d: '%s' has no value",
		    file, line, key);
	return theme_style_parse(w, nw, &t->style[role], file, line, err);
}

int
theme_parse(struct theme *t, const char *text, const char *file,
    struct error *err)
{
	struct theme tmp = *t;
	char *copy, *line, *save = NULL;
	int lineno = 1, rc = 0;

	copy = xstrdup(text);
	line = copy;
	for (; rc == 0 && line != NULL; lineno++) {
		save = strchr(line, '\n');
		if (save != NULL)
			*save++ = '\0';
		rc = theme_line(&tmp, line, file, lineno, err);
		line = save;
	}
	free(copy);
	if (rc == 0)
		*t = tmp;
	return rc;
}

static bool
theme_name_ok(const char *name)
{
	const char *p;

	if (*name == '\0' || strlen(name) > 48)
		return false;
	for (p = name; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	return true;
}

/* The theme directories in search order; *n of them. */
static int
theme_dirs(char dirs[][PATH_MAX], int max)
{
	const char *env = getenv("FRONTS_THEMES"), *self = self_exe_path();
	char buf[PATH_MAX], *d;
	int n = 0;

	if (env != NULL && *env != '\0' && n < max)
		snprintf(dirs[n++], PATH_MAX, "%s", env);
	if (self != NULL && n + 1 < max) {
		snprintf(buf, sizeof buf, "%s", self);
		d = dirname(buf);
		snprintf(dirs[n++], PATH_MAX, "%s/../themes", d);
		snprintf(dirs[n++], PATH_MAX, "%s/../share/fronts/themes", d);
	}
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%s/themes", FRONTS_SHAREDIR);
	return n;
}

int
theme_load(struct theme *t, const char *name, struct error *err)
{
	char dirs[4][PATH_MAX], path[PATH_MAX + 64], *text = NULL;
	struct theme tmp;
	size_t len;
	int i, n;

	theme_default(&tmp);
	if (strchr(name, '/') != NULL) {
		if (file_read(name, &text, &len, err) != 0)
			return error_wrap(err, "theme");
		snprintf(path, sizeof path, "%s", name);
	} else {
		if (!theme_name_ok(name))
			return error_set(err, EXIT_ERROR, "theme: bad name '%s'",
			    name);
		n = theme_dirs(dirs, 4);
		for (i = 0; i < n && text == NULL; i++) {
			snprintf(path, sizeof path, "%s/%s.theme", dirs[i], name);
			if (access(path, R_OK) == 0 &&
			    file_read(path, &text, &len, err) != 0)
				return error_wrap(err, "theme");
		}
		if (text == NULL)
			return error_set(err, EXIT_ERROR, "theme: no theme named "
			    "'%s' (see :theme for the list)", name);
	}
	if (theme_parse(&tmp, text, path, err) != 0) {
		free(text);
		return -1;
	}
	free(text);
	snprintf(tmp.name, sizeof tmp.name, "%s", name);
	*t = tmp;
	return 0;
}

/* A 256-colour value as one of the 8 basic colours. */
static short
theme_color_basic(short c)
{
	int r, g, b, lvl;

	if (c < 8)
		return c;
	if (c < 16)
		return (short)(c - 8);
	if (c >= 232) {
		lvl = c - 232;
		return lvl < 8 ? 0 : 7;
	}
	c = (short)(c - 16);
	r = c / 36, g = (c / 6) % 6, b = c % 6;
	return (short)((r >= 3) | (g >= 3) << 1 | (b >= 3) << 2);
}

short
theme_color_fit(short c, int ncolors)
{
	if (c < 0 || c < ncolors)
		return c;
	return theme_color_basic(c);
}

static int
theme_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
theme_list(void)
{
	char dirs[4][PATH_MAX], **names = NULL, *dot;
	struct dirent *de;
	size_t nn = 0, k;
	DIR *d;
	int i, n;
	bool dup;

	n = theme_dirs(dirs, 4);
	for (i = 0; i < n; i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			dot = strrchr(de->d_name, '.');
			if (dot == NULL || strcmp(dot, ".theme") != 0)
				continue;
			*dot = '\0';
			for (dup = false, k = 0; k < nn && !dup; k++)
				dup = strcmp(names[k], de->d_name) == 0;
			if (dup || !theme_name_ok(de->d_name))
				continue;
			names = xrealloc(names, (nn + 2) * sizeof *names);
			names[nn++] = xstrdup(de->d_name);
		}
		closedir(d);
	}
	if (names == NULL)
		names = xcalloc(1, sizeof *names);
	qsort(names, nn, sizeof *names, theme_cmp);
	names[nn] = NULL;
	return names;
}
