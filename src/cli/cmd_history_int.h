/*
 * cmd_history_int — what `fronts history import` and `pull` share: the
 * printing of a merge's result (the work is runs/history_apply.h's).
 */
#ifndef FRONTS_CMD_HISTORY_INT_H
#define FRONTS_CMD_HISTORY_INT_H

#include "cli/cli.h"
#include "runs/history_apply.h"

/* The changes of a merge, its summary line and, after a write, how many
 * posts the objective scores. */
void	history_print_applied(const struct history_applied *);

/* `fronts history pull` (cmd_history_pull.c). */
int	history_pull(struct cli *, struct args *);
/* The pull `fronts run` makes after each outcome: every front that can be
 * pulled and holds a post the ledger says fronts sent, over the default
 * window. Returns an exit code; what it did is printed. */
int	history_pull_sent(struct cli *);

#endif
