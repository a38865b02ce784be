/*
 * ui — the interactive planner's entry point: `fronts tui` runs the TUI on
 * the project in cli->dir until the operator quits. Everything else of the
 * TUI is private to src/ui (ui_int.h).
 */
#ifndef FRONTS_UI_UI_H
#define FRONTS_UI_UI_H

#include <stdbool.h>

struct cli;

/* Returns the process's exit status. notify: the operator's command run
 * mode starts when a post comes due (--notify), or NULL. */
int	ui_run(struct cli *, const char *theme, bool live, const char *notify);

#endif
