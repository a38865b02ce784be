/*
 * pane_model — the world model as the operator must read it before
 * approving: numbered, coloured source; each gate verdict marked on the
 * line it refuses with its message underneath; sha256, gate state and
 * approval state at the top. n / N jump between verdicts.
 */
#include <stdio.h>
#include <string.h>

#include "ui/pyhl.h"
#include "ui/textw.h"
#include "ui/ui_int.h"

#define MODEL_HEAD	4	/* info, state, backtest, blank */
#define MODEL_GUTTER	6	/* "1234▶ " */

static const int model_roles[] = {
	[PYHL_PLAIN] = THEME_NORMAL, [PYHL_KEYWORD] = THEME_PY_KEYWORD,
	[PYHL_BUILTIN] = THEME_PY_BUILTIN, [PYHL_STRING] = THEME_PY_STRING,
	[PYHL_COMMENT] = THEME_PY_COMMENT, [PYHL_NUMBER] = THEME_PY_NUMBER,
};

/* The source line a verdict goes under (those outside the file go under
 * the first line). */
static int
model_verdict_line(const struct ui *ui, int v, int nlines)
{
	int vl = ui->gate.verdicts[v].line;

	return vl < 1 || vl > nlines ? 1 : vl;
}

/*
 * The kept verdicts in row order: by the line they go under, in the
 * gate's order within a line (an insertion sort: at most
 * GATE_VERDICTS_MAX, almost sorted already). Drawing then walks source
 * lines and verdicts together, once each.
 */
static int
model_order(const struct ui *ui, int nlines, int *idx)
{
	int n = ui->gate_ran ? ui->gate.nverdicts : 0, i, j, v;

	for (i = 0; i < n; i++) {
		v = i;
		for (j = i; j > 0 && model_verdict_line(ui, idx[j - 1],
		    nlines) > model_verdict_line(ui, v, nlines); j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	return n;
}

static int
model_nlines(const struct ui *ui)
{
	size_t i;
	int n = 1;

	for (i = 0; i < ui->model_len; i++)
		if (ui->model_src[i] == '\n' && i + 1 < ui->model_len)
			n++;
	return ui->model_len == 0 ? 0 : n;
}

/* Row of the k-th verdict's source line (verdicts in row order): below
 * every line above it and the j verdicts under those. */
static int
model_verdict_row(const struct ui *ui, int k, int nlines)
{
	int idx[GATE_VERDICTS_MAX], n = model_order(ui, nlines, idx), j, line;

	if (k < 0 || k >= n)
		return -1;
	line = model_verdict_line(ui, idx[k], nlines);
	for (j = k; j > 0 && model_verdict_line(ui, idx[j - 1], nlines) ==
	    line; j--)
		;
	return MODEL_HEAD + line - 1 + j;
}

static void
model_head(struct ui *ui, WINDOW *w, int cw)
{
	const char *name = ui->model_path != NULL ? ui->model_path :
	    "model.py", *gate, *appr;
	char buf[256];
	int x, role;

	if (strrchr(name, '/') != NULL)
		name = strrchr(name, '/') + 1;
	ui_putf(ui, w, 1, 1, cw, THEME_NORMAL, "%s  sha256 %s", name,
	    ui->model_sha[0] ? ui->model_sha : "—");
	if (ui->model_src == NULL || !ui->gate_ran) {
		ui_put(ui, w, 2, 1, cw, ui->gate_error, strlen(ui->gate_error),
		    THEME_ERROR);
		return;
	}
	if (ui->gate.accepted) {
		gate = "gate: accepted";
		role = THEME_OK;
	} else if (ui->gate.nmore == 0) {
		snprintf(buf, sizeof buf, "gate: REFUSED, %d verdict%s (n/N)",
		    ui->gate.nverdicts, ui->gate.nverdicts == 1 ? "" : "s");
		gate = buf;
		role = THEME_ERROR;
	} else {
		snprintf(buf, sizeof buf, "gate: REFUSED, %d of %d verdicts "
		    "shown (n/N)", ui->gate.nverdicts,
		    gate_result_total(&ui->gate));
		gate = buf;
		role = THEME_ERROR;
	}
	x = 1 + ui_put(ui, w, 2, 1, cw, gate, strlen(gate), role);
	appr = ui->approved ? "  approval: approved" :
	    ui->gate.accepted ? "  approval: NOT approved (a approves)" :
	    "  approval: impossible";
	ui_put(ui, w, 2, x, cw - x + 1, appr, strlen(appr),
	    ui->approved ? THEME_OK : THEME_WARN);
	ui_accuracy_line(ui, buf, sizeof buf, &role);
	ui_put(ui, w, 3, 1, cw, buf, strlen(buf), role);
}

static void
model_source_line(struct ui *ui, WINDOW *w, int y, int cw, int lineno,
    const char *s, size_t n, int *st, bool refused)
{
	struct pyhl_span sp[256];
	int ns, i, x = MODEL_GUTTER + 1;

	ui_putf(ui, w, y, 1, 4, THEME_LINENO, "%4d", lineno);
	if (refused)
		ui_put(ui, w, y, 5, 1, "▶", 3, THEME_VERDICT);
	ns = pyhl_line(s, n, st, sp, 256);
	for (i = 0; i < ns && x <= cw; i++)
		x += ui_put(ui, w, y, x, cw - x + 1, s + sp[i].start,
		    sp[i].end - sp[i].start, model_roles[sp[i].kind]);
}

static void
model_draw(struct ui *ui, struct pane *p, WINDOW *w, int h, int width)
{
	const char *s = ui->model_src, *e;
	int cw = width - 2, nlines, line, v, row = MODEL_HEAD, st = 0, y;
	int idx[GATE_VERDICTS_MAX], nv, k = 0;
	size_t pos = 0, n;
	bool refused;

	p->page = h - 2;
	model_head(ui, w, cw);
	nlines = s != NULL ? model_nlines(ui) : 0;
	nv = model_order(ui, nlines, idx);
	for (line = 1; line <= nlines; line++) {
		e = memchr(s + pos, '\n', ui->model_len - pos);
		n = e != NULL ? (size_t)(e - (s + pos)) : ui->model_len - pos;
		refused = k < nv && model_verdict_line(ui, idx[k], nlines) ==
		    line;
		y = row - p->top;
		if (y >= MODEL_HEAD && y < h - 1)
			model_source_line(ui, w, y, cw, line, s + pos, n, &st,
			    refused);
		else	/* keep the colouring state right off screen too */
			pyhl_line(s + pos, n, &st, NULL, 0);
		row++;
		for (; k < nv && model_verdict_line(ui, idx[k], nlines) ==
		    line; k++) {
			v = idx[k];
			y = row++ - p->top;
			if (y >= MODEL_HEAD && y < h - 1)
				ui_putf(ui, w, y, 1, cw, THEME_VERDICT_MSG,
				    "     └─ col %d [%s] %s",
				    ui->gate.verdicts[v].col,
				    ui->gate.verdicts[v].rule,
				    ui->gate.verdicts[v].message);
		}
		pos += n + 1;
	}
	p->nrows = row;
}

/* p->sel is 1 + the index of the verdict last jumped to (0: none). */
static unsigned
model_key(const struct ui *ui, struct pane *p, int ch, struct pane_out *out)
{
	int nv, cur, r;

	if (ch != 'n' && ch != 'N')
		return PANE_IGNORED;
	out->role = THEME_NORMAL;
	nv = ui->gate_ran ? ui->gate.nverdicts : 0;
	if (nv == 0) {
		snprintf(out->msg, sizeof out->msg, "no gate verdicts");
		return PANE_HANDLED | PANE_MESSAGE;
	}
	cur = p->sel - 1;
	if (cur >= nv)
		cur = -1;
	if (ch == 'n')
		cur = (cur + 1) % nv;
	else
		cur = cur <= 0 ? nv - 1 : cur - 1;
	p->sel = cur + 1;
	r = model_verdict_row(ui, cur, model_nlines(ui));
	/* Two lines of context above the refused line. */
	p->top = r - MODEL_HEAD - 2 > 0 ? r - MODEL_HEAD - 2 : 0;
	snprintf(out->msg, sizeof out->msg, "verdict %d/%d", cur + 1, nv);
	return PANE_HANDLED | PANE_REDRAW | PANE_MESSAGE;
}

void
pane_model_init(struct pane *p)
{
	memset(p, 0, sizeof *p);
	p->id = PANE_MODEL;
	p->title = "Model";
	p->hint = "a approve · n/N verdicts · s synth";
	p->draw = model_draw;
	p->key = model_key;
}
