/*
 * lock — one writer per project. Every command that writes the ledger or
 * sends a post holds an exclusive flock(2) on DIR/.fronts/lock from its
 * ledger check through the recorded outcome, so two publishers (two
 * `fronts publish --live`, or the TUI and the CLI) can never both pass the
 * check before either writes its intent. The file holds the holder's pid,
 * command and start time, for the message the second one shows; the lock
 * itself is the kernel's, released when the holder exits however it
 * exits.
 */
#ifndef FRONTS_LOCK_H
#define FRONTS_LOCK_H

#include <stdbool.h>

#include "core/util.h"

struct project_lock;

/* Called once, before blocking, when a waiting take finds the lock held:
 * holder is "pid N (COMMAND) since T". */
typedef void	(*project_lock_wait_fn)(const char *holder, void *arg);

/* Takes the exclusive lock on the project (flock on DIR/.fronts/lock, the
 * file holding the holder's pid, command and start time). wait: block
 * until free; otherwise fail at once with EXIT_ERROR and a message naming
 * the holder ("held by pid N (fronts publish --live) since T"). */
int	project_lock_take(const char *dir, const char *command, bool wait,
	    struct project_lock **out, struct error *err);
/* project_lock_take that tells waiting(holder, arg) before it blocks. */
int	project_lock_take_noting(const char *dir, const char *command,
	    bool wait, project_lock_wait_fn waiting, void *arg,
	    struct project_lock **out, struct error *err);
/* Takes the lock for a whole session (`fronts run`, the TUI's run mode):
 * until it is released, a take by this process nests in it instead of
 * refusing itself; other processes are refused as ever. */
int	project_lock_hold(const char *dir, const char *command,
	    struct project_lock **out, struct error *err);
void	project_lock_release(struct project_lock *);	/* NULL-safe */

#endif
