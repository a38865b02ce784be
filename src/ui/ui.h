/*
 * ui — the interactive planner's entry point: `fronts tui` (src/cli) runs
 * the TUI on a project until the operator quits. Everything else of the
 * TUI is private to src/ui (ui_int.h).
 */
#ifndef FRONTS_UI_UI_H
#define FRONTS_UI_UI_H

#include <stdbool.h>

#include "core/util.h"

struct ui_args {
	const char	*dir;		/* the project */
	const char	*theme;		/* NULL: the configured one */
	bool		 live;		/* publish for real (--live) */
	const char	*notify;	/* run mode's command when a post
					 * comes due (--notify), or NULL */
};

/* Runs the TUI until the operator quits: 0, or -1 with err when it
 * cannot start (the project or the theme). */
int	ui_run(const struct ui_args *, struct error *err);

#endif
