/*
 * seccomp — the worker's system-call filter (libseccomp). An allowlist of
 * what computing and writing to the pipes need; everything else traps.
 * The trap handler writes the refused syscall's number to the worker's
 * output pipe as a FRAME_SYSCALL frame and exits with SECCOMP_EXIT, so the
 * parent can name it; the syscall itself never runs.
 */
#ifndef FRONTS_SECCOMP_H
#define FRONTS_SECCOMP_H

#include "core/util.h"

#define SECCOMP_EXIT	121	/* exit status after a refused syscall */

/* Installs the SIGSYS handler and the filter on every thread of the
 * process (no_new_privs first). out_fd: where the handler reports; the
 * only descriptors write() may use are out_fd and 2. */
int		 seccomp_install(int out_fd, struct error *err);
/* "openat" for a syscall number of this architecture (static buffer
 * fallback "syscall 257" when unknown). */
const char	*seccomp_syscall_name(int nr);

#endif
