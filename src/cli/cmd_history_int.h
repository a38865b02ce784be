/*
 * cmd_history_int — what `fronts history import` and `pull` share: the
 * loaded project with its raw files, and the merge-print-write step.
 */
#ifndef FRONTS_CMD_HISTORY_INT_H
#define FRONTS_CMD_HISTORY_INT_H

#include <stdbool.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/history.h"
#include "core/history_merge.h"
#include "core/project.h"
#include "core/topics.h"

struct history_context {
	struct project	*project;
	char		*fronts_text;
	cJSON		*fronts_json;
	struct topics	 topics;
	char		*history_path;
	char		*history;	/* history.jsonl as it is now ("" if none) */
	size_t		 history_len;
};

int	history_context_open(const char *dir, struct history_context *,
	    struct error *err);
void	history_context_close(struct history_context *);
/* Merges b (posts of front) into history, prints the summary and, unless
 * dry_run, writes the file; hc->history then holds the new contents. */
int	history_apply(const char *dir, struct history_context *,
	    const char *front, const struct hist_batch *b, bool dry_run,
	    time_t now, struct error *err);

/* `fronts history pull` (cmd_history_pull.c). */
int	history_pull(struct cli *, struct args *);
/* The pull `fronts run` makes after each outcome: every front that can be
 * pulled and holds a post the ledger says fronts sent, over the default
 * window. Returns an exit code; what it did is printed. */
int	history_pull_sent(struct cli *);

#endif
