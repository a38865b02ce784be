/*
 * seccomp — the worker's allowlist filter (see seccomp.h).
 *
 * Allowed: reading, writing to the output pipe and stderr, fstat of a
 * descriptor (newfstatat only with AT_EMPTY_PATH), memory
 * (brk, mmap/mprotect without PROT_EXEC, munmap, mremap, madvise), futex
 * and scheduling for the watchdog thread, clocks, signal return and mask,
 * getrandom, and exiting. Refused by omission, among everything else:
 * open/openat/creat, socket/connect/bind, execve, fork/vfork/clone,
 * ptrace, kill (tgkill only at this process, for abort()), mount, chdir,
 * unlink, setrlimit/prlimit, ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sandbox/frame.h"
#include "sandbox/seccomp.h"

static int seccomp_out_fd = -1;

static void
seccomp_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned char f[FRAME_HEADER + 4];
	uint32_t nr = (uint32_t)si->si_syscall;

	frame_header(f, FRAME_SYSCALL, 4);
	f[5] = nr & 0xff;
	f[6] = (nr >> 8) & 0xff;
	f[7] = (nr >> 16) & 0xff;
	f[8] = (nr >> 24) & 0xff;
	if (write(seccomp_out_fd, f, sizeof f) < 0) {
		/* nothing more can be done; the exit status still tells */
	}
	_exit(SECCOMP_EXIT);
}

static const char *const seccomp_allowed[] = {
	"read", "readv", "pread64", "close", "lseek", "fstat",
	"brk", "munmap", "mremap", "madvise",
	"futex", "sched_yield", "sched_getaffinity",
	"clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep",
	"clock_nanosleep",
	"rt_sigreturn", "rt_sigprocmask", "sigaltstack", "restart_syscall",
	"getpid", "gettid", "getuid", "geteuid", "getgid", "getegid",
	"getrusage", "times", "getrandom",
	"exit", "exit_group"
};

static int
seccomp_rules(scmp_filter_ctx ctx, int out_fd)
{
	size_t i;
	int nr, rc;

	for (i = 0; i < sizeof seccomp_allowed / sizeof *seccomp_allowed; i++) {
		nr = seccomp_syscall_resolve_name(seccomp_allowed[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;	/* not on this architecture */
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)) != 0)
			return rc;
	}
	/* Writes only to the pipe and stderr. */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
	    SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)out_fd))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
	    SCMP_A0(SCMP_CMP_EQ, 2))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(writev), 1,
	    SCMP_A0(SCMP_CMP_EQ, 2))) != 0)
		return rc;
	/* stat of a descriptor held (glibc's fstat is newfstatat(fd, "",
	 * AT_EMPTY_PATH)), never of a path: no probing the file system. */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(newfstatat), 1,
	    SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH))) != 0)
		return rc;
	/* Memory, but never executable. */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0))) != 0)
		return rc;
	/* abort() signals its own process, nothing else. */
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
	    SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid()));
}

int
seccomp_install(int out_fd, struct error *err)
{
	struct sigaction sa;
	scmp_filter_ctx ctx;
	int rc;

	seccomp_out_fd = out_fd;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = seccomp_trap;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return error_set(err, EXIT_ERROR, "sigaction(SIGSYS): %s",
		    strerror(errno));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return error_set(err, EXIT_ERROR, "PR_SET_NO_NEW_PRIVS: %s",
		    strerror(errno));
	if ((ctx = seccomp_init(SCMP_ACT_TRAP)) == NULL)
		return error_set(err, EXIT_ERROR, "seccomp_init failed");
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	if (rc == 0)
		rc = seccomp_rules(ctx, out_fd);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc != 0)
		return error_set(err, EXIT_ERROR,
		    "cannot install the seccomp filter: %s", strerror(-rc));
	return 0;
}

const char *
seccomp_syscall_name(int nr)
{
	static char buf[32];
	char *name;

	name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	if (name == NULL) {
		snprintf(buf, sizeof buf, "syscall %d", nr);
		return buf;
	}
	snprintf(buf, sizeof buf, "%s", name);
	free(name);
	return buf;
}
