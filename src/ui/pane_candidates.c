/*
 * pane_candidates — the plan's posts (local time, front, length against
 * the front's limit, expected reward and interval, what it carries beyond
 * one text, its text, publish outcome), and under them the selected post
 * in full — every part of a thread with its length, every image with its
 * verdict and, on i, its alt text — with the alternatives the search
 * weighed at that decision. Editing (e) and publishing (P) act on
 * the selected post of this plan copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/legal.h"
#include "core/text.h"
#include "ui/textw.h"
#include "ui/view.h"
#include "ui/ui_int.h"

static const char *cand_states[] = {
	[UI_POST_NEW] = "", [UI_POST_SENDING] = "sending…",
	[UI_POST_SENT] = "sent", [UI_POST_FAILED] = "FAILED",
	[UI_POST_UNKNOWN] = "UNKNOWN", [UI_POST_DRYRUN] = "dry run",
	[UI_POST_SKIPPED] = "skipped",
};

static void
pane_post_length(struct ui *ui, const char *text, int front, char *buf,
    size_t len, bool *ok)
{
	const struct front *f = &ui->proj->fronts[front];
	struct text_measure m;

	memset(&m, 0, sizeof m);
	if (text_measure(text, f->platform, &f->limits, &m) != 0) {
		snprintf(buf, len, "bad UTF-8");
		*ok = false;
		return;
	}
	snprintf(buf, len, "%d/%d", m.length, m.limit);
	*ok = m.ok;
}

static int
cand_state_role(enum ui_post_state s)
{
	switch (s) {
	case UI_POST_SENT:	return THEME_OK;
	case UI_POST_FAILED:
	case UI_POST_UNKNOWN:	return THEME_ERROR;
	case UI_POST_SENDING:	return THEME_WARN;
	default:		return THEME_DIM;
	}
}

/* What a post carries beyond one text, for its row: "3 parts · 1 img ·
 * variant bluesky" ("" for a plain post). */
static void
cand_shape(struct ui *ui, const struct plan_post *pp, char *buf, size_t len)
{
	const struct body *b = project_draft_body(ui->proj, pp->draft,
	    pp->front);
	int v = project_draft_variant(ui->proj, pp->draft, pp->front);
	int i, n = 0;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; i < b->nparts; i++)
		n += b->parts[i].nmedia;
	if (b->nparts > 1)
		o += snprintf(buf + o, len - o, "%d parts", b->nparts);
	if (n > 0 && o < len)
		o += snprintf(buf + o, len - o, "%s%d img", o ? " · " : "", n);
	if (v >= 0 && o < len)
		snprintf(buf + o, len - o, "%svariant %s", o ? " · " : "",
		    ui->proj->drafts[pp->draft].variants[v].key);
}

static void
cand_row(struct ui *ui, WINDOW *w, int y, int cw, int i, bool sel)
{
	const struct plan_post *pp = &ui->plan.posts[i];
	const struct ui_post *st = &ui->posts[i];
	char when[32] = "", len[32], head[160];
	struct tm tm;
	int role = sel ? THEME_SELECTED : THEME_NORMAL, x;
	bool ok;

	if (sel)
		ui_fill(ui, w, y, 1, cw, THEME_SELECTED);
	if (localtime_r(&pp->at, &tm) != NULL)
		strftime(when, sizeof when, "%a %d %H:%M", &tm);
	pane_post_length(ui, pp->text, pp->front, len, sizeof len, &ok);
	snprintf(head, sizeof head, "%s %-9.9s %-3.3s ", when,
	    ui->proj->fronts[pp->front].id, ui->proj->drafts[pp->draft].id);
	x = 1 + ui_put(ui, w, y, 1, cw, head, strlen(head), role);
	x += ui_putf(ui, w, y, x, cw - x + 1, ok ? role : THEME_ERROR,
	    "%9s ", len);
	x += ui_putf(ui, w, y, x, cw - x + 1, role, "%7.2f ",
	    pp->expected_reward);
	cand_shape(ui, pp, head, sizeof head);
	if (head[0] != '\0')
		x += ui_putf(ui, w, y, x, cw - x + 1, sel ? role : THEME_DIM,
		    "[%s] ", head);
	if (st->state != UI_POST_NEW)
		x += ui_putf(ui, w, y, x, cw - x + 1, cand_state_role(st->state),
		    "[%s] ", cand_states[st->state]);
	ui_put(ui, w, y, x, cw - x + 1, pp->text, strcspn(pp->text, "\n"),
	    role);
}

/* Text t wrapped from row y; returns the next row. */
static int
cand_text(struct ui *ui, WINDOW *w, int y, int h, int cw, const char *t)
{
	size_t n = strlen(t), next, l;

	while (n > 0 && y < h - 1) {
		l = textw_wrap(t, n, cw, &next);
		ui_put(ui, w, y++, 1, cw, t, l, THEME_NORMAL);
		if (next == 0)
			break;
		t += next;
		n -= next;
	}
	return y;
}

/* A part's images: each with its verdict on the front, and its alt text
 * when i shows them. */
static int
cand_images(struct ui *ui, WINDOW *w, int y, int h, int cw,
    const struct front *f, const struct part *pt)
{
	char why[256];
	int j;

	for (j = 0; j < pt->nmedia && y < h - 1; j++) {
		bool ok = legal_image(f, &pt->media[j], why, sizeof why) ==
		    LEGAL_OK;

		ui_putf(ui, w, y++, 1, cw, ok ? THEME_DIM : THEME_ERROR,
		    "  [image %s%s] %s", pt->media[j].path,
		    pt->media[j].alt != NULL ? ", alt" : ", no alt text",
		    ok ? "" : why);
		if (ui->show_alt && pt->media[j].alt != NULL && y < h - 1)
			y = cand_text(ui, w, y, h, cw, pt->media[j].alt);
	}
	return y;
}

/* The images of the first part, then every later part of a thread with
 * its length on the post's front. */
static int
cand_parts(struct ui *ui, WINDOW *w, int y, int h, int cw,
    const struct plan_post *pp)
{
	const struct body *b = project_draft_body(ui->proj, pp->draft,
	    pp->front);
	const struct front *f = &ui->proj->fronts[pp->front];
	const char *t;
	char len[32];
	int k;
	bool ok;

	if (b->nparts == 0)
		return y;
	y = cand_images(ui, w, y, h, cw, f, &b->parts[0]);
	for (k = 1; k < b->nparts && y < h - 1; k++) {
		t = plan_post_part(ui->proj, pp, k);
		pane_post_length(ui, t, pp->front, len, sizeof len, &ok);
		ui_putf(ui, w, y++, 1, cw, ok ? THEME_HEADING : THEME_ERROR,
		    "part %d/%d · %s%s", k + 1, b->nparts, len, ok ? "" :
		    " — over the limit, e edits it");
		y = cand_text(ui, w, y, h, cw, t);
		y = cand_images(ui, w, y, h, cw, f, &b->parts[k]);
	}
	return y;
}

/* The selected post in full, its outcome, and the alternatives. */
static void
cand_detail(struct ui *ui, WINDOW *w, int y, int h, int cw, int i)
{
	const struct plan_post *pp = &ui->plan.posts[i];
	const struct front *f = &ui->proj->fronts[pp->front];
	const struct plan_alt *a;
	const char *t = pp->text;
	char len[32], label[160];
	int k;
	bool ok;

	pane_post_length(ui, t, pp->front, len, sizeof len, &ok);
	ui_putf(ui, w, y++, 1, cw, THEME_HEADING, "post %d/%d → %s (%s) · "
	    "%s · reward %.2f [%.2f, %.2f] · %llu visits", i + 1,
	    ui->plan.nposts, f->id, f->account, len, pp->expected_reward,
	    pp->ci_lo, pp->ci_hi, (unsigned long long)pp->visits);
	if (!ok)
		ui_putf(ui, w, y++, 1, cw, THEME_ERROR, "over the limit for %s "
		    "— e edits it", f->id);
	if (ui->posts[i].note[0] != '\0')
		ui_put(ui, w, y++, 1, cw, ui->posts[i].note,
		    strlen(ui->posts[i].note),
		    cand_state_role(ui->posts[i].state));
	y = cand_text(ui, w, y, h, cw, t);
	y = cand_parts(ui, w, y, h, cw, pp);
	for (k = 0; k < ui->plan.nalts && y < h - 1; k++) {
		a = &ui->plan.alts[k];
		if (a->decision != i)
			continue;
		view_action_label(ui->proj, &a->action, a->slot, label,
		    sizeof label);
		ui_putf(ui, w, y++, 1, cw, THEME_DIM, "  alternative: %s · "
		    "mean %.2f · %llu visits", label, a->mean,
		    (unsigned long long)a->visits);
	}
}

static void
cand_draw(struct ui *ui, struct pane *p, WINDOW *w, int h, int width)
{
	int cw = width - 2, list, i, y;

	if (!ui->have_plan) {
		ui_putf(ui, w, 1, 1, cw, THEME_DIM, "No plan yet. p plans; "
		    ":open PLAN.json loads one.");
		p->nrows = 0;
		p->page = h - 2;
		return;
	}
	ui_putf(ui, w, 1, 1, cw, THEME_HEADING, "%d post%s · expected total "
	    "%.2f · %s", ui->plan.nposts, ui->plan.nposts == 1 ? "" : "s",
	    ui->plan.expected_total, ui->live ? "LIVE: P sends after y" :
	    "dry run: P shows the request");
	/* The list gets half the room when there is a selection to detail. */
	list = h - 3;
	if (ui->plan.nposts > 0 && h >= 12) {
		list = (h - 3) / 2;
		if (list > ui->plan.nposts)
			list = ui->plan.nposts;
	}
	p->page = list;
	p->nrows = ui->plan.nposts;
	ui_pane_clamp(p);
	for (i = p->top, y = 2; i < ui->plan.nposts && y < 2 + list; i++, y++)
		cand_row(ui, w, y, cw, i, i == p->sel);
	if (ui->plan.nposts > 0 && list < h - 3) {
		wattrset(w, ui->attr[THEME_BORDER]);
		mvwhline(w, 2 + list, 1, ACS_HLINE, cw);
		cand_detail(ui, w, 3 + list, h, cw, p->sel);
	}
}

/* Reads every part of post pp into texts, from its current texts, one
 * counted prompt per part ("edit 2/3> (mastodon 26/500) "): Enter and
 * PgDn go to the next part, PgUp to the one before, Enter on the last
 * ends. -1 when Ctrl-C cancelled the whole edit. */
static int
cand_edit_parts(struct ui *ui, const struct plan_post *pp, char **texts,
    int n)
{
	const struct front *f = &ui->proj->fronts[pp->front];
	char prompt[32], *line;
	int k = 0, move;

	while (k < n) {
		if (n > 1)
			snprintf(prompt, sizeof prompt, "edit %d/%d> ", k + 1,
			    n);
		else
			snprintf(prompt, sizeof prompt, "edit> ");
		line = cmdline_read_counted(ui, prompt, texts[k], f, &move);
		if (line == NULL)
			return -1;
		free(texts[k]);
		texts[k] = line;
		k += move;
		if (k < 0)
			k = 0;
	}
	return 0;
}

/* Keeps the parts that changed; says which, with their lengths. */
static void
cand_edit_keep(struct ui *ui, struct plan_post *pp, char **texts, int n)
{
	char msg[256], len[32];
	size_t o = 0;
	int k, changed = 0;
	bool ok, all_ok = true;

	msg[0] = '\0';
	for (k = 0; k < n; k++) {
		if (strcmp(texts[k], plan_post_part(ui->proj, pp, k)) == 0) {
			free(texts[k]);
			continue;
		}
		plan_post_set_part(ui->proj, pp, k, texts[k]);
		pane_post_length(ui, texts[k], pp->front, len, sizeof len,
		    &ok);
		all_ok = all_ok && ok;
		changed++;
		if (o >= sizeof msg)
			continue;
		if (n > 1)
			o += snprintf(msg + o, sizeof msg - o, "%spart %d %s%s",
			    changed > 1 ? ", " : "", k + 1, len, ok ? "" :
			    " OVER");
		else
			o += snprintf(msg + o, sizeof msg - o, "%s%s", len,
			    ok ? "" : " OVER");
	}
	if (changed == 0) {
		ui_message(ui, THEME_NORMAL, "text unchanged");
		return;
	}
	ui->plan_unsaved = true;
	ui_message(ui, all_ok ? THEME_OK : THEME_ERROR, "post %d edited: %s "
	    "%s", ui->panes[PANE_CANDIDATES].sel + 1, msg, all_ok ?
	    "within the limit" : "— OVER the limit");
}

void
pane_candidates_edit(struct ui *ui)
{
	struct pane *p = &ui->panes[PANE_CANDIDATES];
	struct plan_post *pp;
	char **texts;
	int k, n;

	if (!ui->have_plan || ui->plan.nposts == 0) {
		ui_message(ui, THEME_ERROR, "no post to edit (p plans)");
		return;
	}
	pp = &ui->plan.posts[p->sel];
	if (ui->pub_job.running) {
		ui_message(ui, THEME_WARN, "a post is being published; edit "
		    "after its outcome");
		return;
	}
	if (ui->posts[p->sel].state == UI_POST_SENT) {
		ui_message(ui, THEME_ERROR, "this post was sent; it cannot "
		    "change");
		return;
	}
	n = plan_post_nparts(ui->proj, pp);
	texts = xcalloc((size_t)n, sizeof *texts);
	for (k = 0; k < n; k++)
		texts[k] = xstrdup(plan_post_part(ui->proj, pp, k));
	if (cand_edit_parts(ui, pp, texts, n) != 0) {
		for (k = 0; k < n; k++)
			free(texts[k]);
		ui_message(ui, THEME_NORMAL, "edit cancelled");
	} else
		cand_edit_keep(ui, pp, texts, n);
	free(texts);
}

void
pane_candidates_init(struct pane *p)
{
	memset(p, 0, sizeof *p);
	p->id = PANE_CANDIDATES;
	p->title = "Candidates";
	p->hint = "e edit · i alt text · P publish";
	p->selectable = true;
	p->draw = cand_draw;
}
