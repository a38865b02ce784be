/* Unit tests for the key routing without a terminal: a pane's own keys
 * and their result flags, the global bindings behind them, and a
 * full-screen view opened over the panes and closed by Esc or q. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ui/ui_int.h"

static struct ui *
fake_ui(void)
{
	struct ui *ui = calloc(1, sizeof *ui);

	pane_rules_init(&ui->panes[PANE_RULES]);
	pane_model_init(&ui->panes[PANE_MODEL]);
	pane_search_init(&ui->panes[PANE_SEARCH]);
	pane_candidates_init(&ui->panes[PANE_CANDIDATES]);
	ui->focus = PANE_MODEL;
	return ui;
}

static void
test_pane_results(void **state)
{
	struct ui *ui = fake_ui();
	struct pane *s = &ui->panes[PANE_SEARCH];

	/* n in the Model pane: handled there, its message on the status. */
	ui_key(ui, 'n', false);
	assert_string_equal(ui->msg, "no gate verdicts");
	/* Enter folds and unfolds the Search pane's principal variation. */
	ui_key(ui, '3', false);
	assert_int_equal(ui->focus, PANE_SEARCH);
	assert_true(s->expanded);
	ui->dirty = false;
	ui_key(ui, '\r', false);
	assert_false(s->expanded);
	assert_true(ui->dirty);
	ui_key(ui, KEY_RIGHT, true);
	assert_true(s->expanded);
	/* Not the pane's key: the global binding runs (a has no model). */
	ui_key(ui, 'a', false);
	assert_string_equal(ui->msg, "no model to approve");
	/* Scrolling stays inside the rows. */
	s->nrows = 5;
	s->page = 2;
	ui_key(ui, 'G', false);
	assert_int_equal(s->sel, 4);
	ui_key(ui, 'k', false);
	assert_int_equal(s->sel, 3);
	free(ui);
}

/*
 * n walks the Model pane's verdicts in row order: a verdict outside the
 * file under line 1, two on line 3, one on line 5. Each puts its line two
 * rows below the top: lines above and the verdicts under them counted
 * once (the pane walks lines and verdicts together).
 */
static void
test_model_verdict_rows(void **state)
{
	static const int lines[] = { 0, 3, 3, 5 }, tops[] = { 0, 1, 1, 5 };
	struct gate_verdict v[4];
	struct ui *ui = fake_ui();
	struct pane *m = &ui->panes[PANE_MODEL];
	char want[32];
	int i;

	ui->model_src = "a\nb\nc\nd\ne\n";
	ui->model_len = strlen(ui->model_src);
	for (i = 0; i < 4; i++)
		v[i] = (struct gate_verdict){ lines[i], 0, "r", "m" };
	ui->gate.verdicts = v;
	ui->gate.nverdicts = 4;
	ui->gate.nmore = 7;
	ui->gate_ran = true;
	for (i = 0; i < 5; i++) {
		ui_key(ui, 'n', false);
		assert_int_equal(m->top, tops[i % 4]);
		snprintf(want, sizeof want, "verdict %d/4", i % 4 + 1);
		assert_string_equal(ui->msg, want);
	}
	ui_key(ui, 'N', false);
	assert_int_equal(m->top, tops[3]);
	free(ui);
}

struct fake_view {
	int	keys;
	int	closed;
	int	refuse;
};

static struct fake_view fv;

static void
fake_draw(struct ui *ui, struct pane *p, WINDOW *w, int h, int width)
{
}

static unsigned
fake_key(const struct ui *ui, struct pane *p, int ch, struct pane_out *out)
{
	struct fake_view *f = p->data;

	if (ch != 'x')
		return PANE_IGNORED;
	f->keys++;
	snprintf(out->msg, sizeof out->msg, "x in the view");
	return PANE_HANDLED | PANE_MESSAGE;
}

static void
fake_close(struct pane *p)
{
	((struct fake_view *)p->data)->closed++;
}

static int
fake_open(struct ui *ui, struct pane *v)
{
	v->title = "Fake";
	v->selectable = true;
	v->draw = fake_draw;
	v->key = fake_key;
	v->data = &fv;
	v->close = fake_close;
	v->nrows = 10;
	v->page = 3;
	if (fv.refuse) {
		ui_message(ui, THEME_ERROR, "no data for the view");
		return -1;
	}
	return 0;
}

static void
test_view(void **state)
{
	struct ui *ui = fake_ui();

	memset(&fv, 0, sizeof fv);
	assert_int_equal(ui_view_open(ui, fake_open), 0);
	assert_true(ui->view_open);
	ui_key(ui, 'x', false);
	assert_int_equal(fv.keys, 1);
	assert_string_equal(ui->msg, "x in the view");
	ui_key(ui, 'j', false);		/* scrolls the view, not a pane */
	assert_int_equal(ui->view.sel, 1);
	assert_int_equal(ui->panes[PANE_MODEL].sel, 0);
	ui_key(ui, 'a', false);		/* the panes' bindings are off */
	assert_string_equal(ui->msg, "x in the view");
	ui_key(ui, 'q', false);		/* closes the view, not the TUI */
	assert_false(ui->view_open);
	assert_false(ui->quit);
	assert_int_equal(fv.closed, 1);
	/* Esc closes it too. */
	ui_view_open(ui, fake_open);
	ui_key(ui, 27, false);
	assert_false(ui->view_open);
	assert_int_equal(fv.closed, 2);
	/* A view that cannot open leaves the panes and frees its state. */
	fv.refuse = 1;
	assert_int_equal(ui_view_open(ui, fake_open), -1);
	assert_false(ui->view_open);
	assert_int_equal(fv.closed, 3);
	assert_string_equal(ui->msg, "no data for the view");
	free(ui);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pane_results),
		cmocka_unit_test(test_model_verdict_rows),
		cmocka_unit_test(test_view),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
