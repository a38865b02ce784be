/*
 * cmd_worker — `fronts __worker`: the sandbox worker's entry point. The
 * parent (worker_spawn) starts it with the job pipe on fd 3 and the frame
 * pipe on fd 4; it is not meant to be run by hand.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "sandbox/worker.h"

/* The job may come from any readable descriptor 3, but frames go to a
 * pipe: the worker's file-size limit of 0 makes a write to a file fatal,
 * and a descriptor 4 that is a file (a preloaded library's) is no parent. */
static bool
cmd_worker_has_parent(void)
{
	struct stat st;

	return fstat(3, &st) == 0 && fstat(4, &st) == 0 &&
	    S_ISFIFO(st.st_mode);
}

static int
cmd_worker_exec(struct cli *cli, struct args *a)
{
	if (!cmd_worker_has_parent()) {
		fprintf(stderr, "fronts __worker: the sandbox worker is started "
		    "by fronts itself (plan, validate, synth, tui), not by hand\n");
		return EXIT_USAGE;
	}
	return worker_main(args_count(a), a->argv);
}

const struct cmd_entry cmd_worker_entry = {
	.name = "__worker",
	.summary = "sandbox worker (internal)",
	.usage = "",
	.exec = cmd_worker_exec,
	.hidden = true,
	.raw = true,
};
