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

/* The parent hands over pipes; any other open descriptor 3 or 4 (a
 * shell's redirection, a preloaded library's file) is not a job. */
static bool
cmd_worker_is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

static int
cmd_worker_exec(struct cli *cli, int argc, char **argv)
{
	if (!cmd_worker_is_pipe(3) || !cmd_worker_is_pipe(4)) {
		fprintf(stderr, "fronts __worker: the sandbox worker is started "
		    "by fronts itself (plan, validate, synth, tui), not by hand\n");
		return EXIT_USAGE;
	}
	return worker_main(argc, argv);
}

const struct cmd_entry cmd_worker_entry = {
	.name = "__worker",
	.summary = "sandbox worker (internal)",
	.usage = "",
	.exec = cmd_worker_exec,
	.hidden = true,
};
