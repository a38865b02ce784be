/*
 * pane_rules — rules.md as the operator wrote it (word-wrapped, headings
 * marked), followed by the hard limits per front as fronts.json parsed
 * them: these, not the prose, are what the planner enforces.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "ui/textw.h"
#include "ui/ui_int.h"

/* One front's limits as a line. */
static void
rules_limits_line(const struct front *f, char *buf, size_t len)
{
	const struct limits *l = &f->limits;
	struct text_measure m;
	size_t n;

	memset(&m, 0, sizeof m);
	text_measure("", f->platform, l, &m);
	n = (size_t)snprintf(buf, len, "%s (%s, %s): ≤%d %s", f->id,
	    platform_name(f->platform), f->account, m.limit,
	    text_unit_name(m.unit));
	if (m.byte_limit > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", ≤%d bytes",
		    m.byte_limit);
	if (l->max_posts_per_day != LIMIT_UNSET && n < len)
		n += (size_t)snprintf(buf + n, len - n, " · %d/day",
		    l->max_posts_per_day);
	if (l->min_gap_minutes != LIMIT_UNSET && n < len)
		n += (size_t)snprintf(buf + n, len - n, " · gap %d min",
		    l->min_gap_minutes);
	if (l->quiet_start != LIMIT_UNSET && l->quiet_start != l->quiet_end &&
	    n < len)
		n += (size_t)snprintf(buf + n, len - n, " · quiet %02d–%02d",
		    l->quiet_start, l->quiet_end);
	if (l->max_links != LIMIT_UNSET && n < len)
		n += (size_t)snprintf(buf + n, len - n, " · links ≤%d",
		    l->max_links);
	if (l->max_hashtags != LIMIT_UNSET && n < len)
		snprintf(buf + n, len - n, " · hashtags ≤%d", l->max_hashtags);
}

/* Does a line of Markdown start a block of its own (not a continuation)? */
static bool
rules_block_start(const char *l)
{
	l += strspn(l, " ");
	if (*l == '\n' || *l == '\0' || *l == '#' || *l == '|' || *l == '>' ||
	    ((*l == '-' || *l == '*' || *l == '+') && l[1] == ' '))
		return true;
	while (*l >= '0' && *l <= '9')
		l++;
	return *l == '.' && l[1] == ' ';
}

/* rules.md with soft line breaks inside paragraphs and list items joined,
 * so the pane can wrap prose to its own width (caller frees). */
static char *
rules_reflow(const char *md)
{
	char *out = xmalloc(strlen(md) + 1), *o = out;
	const char *p = md, *line = md;
	bool joinable;

	while (*p != '\0') {
		if (*p != '\n') {
			*o++ = *p++;
			continue;
		}
		/* Headings, tables and blank lines keep their breaks. */
		joinable = *line != '#' && *line != '|' && line != p;
		line = p + 1;
		if (joinable && !rules_block_start(line)) {
			*o++ = ' ';
			p = line + strspn(line, " ");
			line = p;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}

/* Emits one visual row (when it is inside the window) and counts it. */
static void
rules_row(struct ui *ui, struct pane *p, WINDOW *w, int *row, int h, int cw,
    const char *s, size_t n, int role)
{
	int y = *row - p->top;

	if (y >= 0 && y < h - 2)
		ui_put(ui, w, 1 + y, 1, cw, s, n, role);
	(*row)++;
}

/* Word-wraps text (a paragraph or the whole of rules.md) into rows. */
static void
rules_text(struct ui *ui, struct pane *p, WINDOW *w, int *row, int h, int cw,
    const char *text, int role)
{
	size_t n = strlen(text), pos = 0, len, next;
	int r;
	bool heading;

	while (pos < n) {
		heading = text[pos] == '#' && (pos == 0 || text[pos - 1] == '\n');
		r = heading ? THEME_HEADING : role;
		do {
			len = textw_wrap(text + pos, n - pos, cw, &next);
			rules_row(ui, p, w, row, h, cw, text + pos, len, r);
			if (next == 0)
				return;
			pos += next;
		} while (pos < n && text[pos - 1] != '\n');
	}
}

static void
rules_draw(struct ui *ui, struct pane *p, WINDOW *w, int h, int width)
{
	char line[512], *rules;
	int row = 0, cw = width - 2, i;

	rules = rules_reflow(ui->proj->rules != NULL && *ui->proj->rules ?
	    ui->proj->rules : "(rules.md is empty)");
	rules_text(ui, p, w, &row, h, cw, rules, THEME_NORMAL);
	free(rules);
	rules_row(ui, p, w, &row, h, cw, "", 0, THEME_NORMAL);
	snprintf(line, sizeof line, "Hard limits (fronts.json, enforced)");
	rules_row(ui, p, w, &row, h, cw, line, strlen(line), THEME_HEADING);
	for (i = 0; i < ui->proj->nfronts; i++) {
		rules_limits_line(&ui->proj->fronts[i], line, sizeof line);
		rules_text(ui, p, w, &row, h, cw, line, THEME_OK);
	}
	p->nrows = row;
	p->page = h - 2;
}

void
pane_rules_init(struct pane *p)
{
	memset(p, 0, sizeof *p);
	p->id = PANE_RULES;
	p->title = "Rules";
	p->hint = "↑↓ PgUp PgDn scroll";
	p->draw = rules_draw;
}
