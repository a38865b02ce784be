/*
 * pubjob — publishing the selected post from the TUI. This build has no
 * publish module yet, so P says so and sends nothing.
 */
#include "ui/ui.h"

void
pane_candidates_publish(struct ui *ui)
{
	ui_message(ui, THEME_ERROR, "publishing is not available in this "
	    "build (nothing was sent)");
}

bool
pubjob_poll(struct ui *ui)
{
	return false;
}

void
pubjob_shutdown(struct ui *ui)
{
}
