/*
 * cmd_worker — `fronts __worker`: the sandbox worker's entry point. The
 * parent (worker_spawn) starts it with the job pipe on fd 3 and the frame
 * pipe on fd 4; it is not meant to be run by hand.
 */
#include "core/cli.h"
#include "sandbox/worker.h"

int
cmd_worker(struct cli *cli, int argc, char **argv)
{
	return worker_main(argc, argv);
}
