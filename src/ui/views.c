/*
 * views — a full-screen view over the four panes, opened by a `:command`
 * (one line in cmdline.c's table names the view's open function) and
 * closed by Esc or q. A view is a struct pane like the four: it draws
 * itself, answers its own keys with result flags and may hold state of
 * its own (data, freed by its close hook); the status line and dialogs
 * stay on top of it.
 */
#include <string.h>

#include "ui/ui_int.h"

int
ui_view_open(struct ui *ui, int (*open)(struct ui *, struct pane *))
{
	struct pane v;

	memset(&v, 0, sizeof v);
	v.id = PANE_COUNT;	/* none of the four */
	if (open(ui, &v) != 0) {	/* the status line says why */
		if (v.close != NULL)
			v.close(&v);
		return -1;
	}
	ui_view_close(ui);
	ui->view = v;
	ui->view_open = true;
	ui_relayout(ui);
	return 0;
}

void
ui_view_close(struct ui *ui)
{
	if (!ui->view_open)
		return;
	if (ui->view.close != NULL)
		ui->view.close(&ui->view);
	memset(&ui->view, 0, sizeof ui->view);
	ui->view_open = false;
	ui_relayout(ui);
}
