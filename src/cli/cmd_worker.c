/*
 * cmd_worker — `fronts __worker`: the sandbox worker's entry point. The
 * parent (worker_spawn) starts it with the job pipe on fd 3 and the frame
 * pipe on fd 4; it is not meant to be run by hand.
 */
#include <fcntl.h>
#include <stdio.h>

#include "cli/cli.h"
#include "sandbox/worker.h"

static int
cmd_worker_exec(struct cli *cli, int argc, char **argv)
{
	if (fcntl(3, F_GETFD) < 0 || fcntl(4, F_GETFD) < 0) {
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
