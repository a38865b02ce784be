/*
 * lockdown — the worker's layers, put up in a fixed order before the
 * first line of the model runs (its module body included):
 *
 *   1. lockdown_namespaces(), while the worker is still one thread: a
 *      worker started as root becomes nobody (root is exempt from
 *      RLIMIT_NPROC and owns too much); new
 *      user, mount, network and IPC namespaces, as far as the kernel
 *      allows;
 *   2. (the worker reads the project, compiles the model and imports every
 *      module the namespace needs)
 *   3. lockdown_apply(): every descriptor but the pipes closed, a PID
 *      namespace for any child (after the watchdog thread exists, since
 *      none could be created after it), rlimits
 *      measured now, not dumpable, an empty read-only root (chroot into a
 *      fresh tmpfs inside the mount namespace), capabilities dropped,
 *      PR_SET_NO_NEW_PRIVS, Landlock (no file system or network access at
 *      all) and last the seccomp allowlist.
 *
 * Namespaces, the empty root, capabilities and Landlock are optional: each
 * falls back cleanly where the kernel or the user cannot have it, and the
 * report says which layers took effect. rlimits, no_new_privs and seccomp
 * are not optional: a worker that cannot have them refuses to run.
 */
#ifndef FRONTS_LOCKDOWN_H
#define FRONTS_LOCKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "core/util.h"

/* A worker started as root runs as this uid and gid (nobody) from before
 * its namespaces on. */
#define LOCKDOWN_NOBODY	65534

struct lockdown {
	bool	uid_dropped;	/* root became LOCKDOWN_NOBODY */
	bool	user_ns;
	bool	mount_ns;
	bool	net_ns;
	bool	ipc_ns;
	bool	pid_ns;
	bool	fds_closed;
	bool	rlimits;
	bool	empty_root;
	bool	caps_dropped;
	bool	no_new_privs;
	int	landlock_abi;	/* 0: not available */
	bool	seccomp;
	char	why[192];	/* why optional layers did not take effect */
};

/* Layers an assume-breach test pretends have failed (fronts-breach only;
 * see lockdown_skip_parse). */
#define LOCKDOWN_SKIP_SECCOMP	(1U << 0)
#define LOCKDOWN_SKIP_LANDLOCK	(1U << 1)
#define LOCKDOWN_SKIP_ROOT	(1U << 2)
#define LOCKDOWN_SKIP_FDS	(1U << 3)	/* RLIMIT_NOFILE 0 */
#define LOCKDOWN_SKIP_USERNS	(1U << 4)	/* as if the kernel refused */

struct lockdown_limits {
	long		memory_mb;	/* address space on top of what is mapped */
	double		cpu_s;		/* RLIMIT_CPU backstop; 0: none */
	int		keep_fd;	/* the frame pipe; stderr (2) stays too */
	pid_t		parent;		/* fronts: the worker dies with it */
	unsigned	skip;		/* LOCKDOWN_SKIP_*; 0 outside tests */
};

/* Step 1. Must run while the process has a single thread, after every
 * file only root may read has been read. Fails only when a root worker
 * cannot stop being root. The id change clears the parent-death signal:
 * it is set again here and in lockdown_apply(), after the last change of
 * credentials, and a worker whose parent is already gone exits. */
int	lockdown_namespaces(struct lockdown *, unsigned skip, pid_t parent,
	    struct error *err);
/* Step 3. On error nothing of the model may run. */
int	lockdown_apply(struct lockdown *, const struct lockdown_limits *,
	    struct error *err);
/* "seccomp,landlock,root,fds,userns" to LOCKDOWN_SKIP_* bits; unknown words are
 * ignored. Only the assume-breach test build passes anything here. */
unsigned lockdown_skip_parse(const char *);
/* {"user_ns": true, …, "landlock": 6, "seccomp": true, "why": "…"} */
cJSON	*lockdown_json(const struct lockdown *);
int	 lockdown_from_json(const cJSON *, struct lockdown *);
/* "user namespace, mount namespace, …, seccomp allowlist": the layers
 * that took effect, in the order they went up. */
void	 lockdown_describe(const struct lockdown *, char *buf, size_t size);
/* One line per layer, on or off, then why the missing ones are missing. */
void	 lockdown_print(const struct lockdown *, FILE *);

#endif
