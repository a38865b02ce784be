/*
 * lockdown — the worker's layers, in the order lockdown.h gives. Each
 * optional layer that cannot be had is noted in `why` and skipped; the
 * parent shows the result (`fronts plan --json` stats, `fronts sandbox`).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <grp.h>
#include <unistd.h>

#include <linux/capability.h>

#include "sandbox/lockdown.h"
#include "sandbox/seccomp.h"

#define LD_DEFAULT_MB	2048

/* Landlock, spelled out here: the build machine's headers may predate the
 * ABI the running kernel has. */
#define LD_LL_VERSION		(1U << 0)
#define LD_LL_NET_BIND_TCP	(1ULL << 0)
#define LD_LL_NET_CONNECT_TCP	(1ULL << 1)
#define LD_LL_SCOPE_UNIX	(1ULL << 0)
#define LD_LL_SCOPE_SIGNAL	(1ULL << 1)
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444
#define SYS_landlock_restrict_self	446
#endif

struct ld_landlock_attr {
	uint64_t	fs;
	uint64_t	net;
	uint64_t	scoped;
};

static void
ld_why(struct lockdown *ld, const char *layer, int e)
{
	size_t n = strlen(ld->why);

	snprintf(ld->why + n, sizeof ld->why - n, "%s%s: %s",
	    n > 0 ? "; " : "", layer, strerror(e));
}

/* ---- 1. namespaces ---------------------------------------------------- */

static int
ld_write(const char *path, const char *text)
{
	int fd, rc = 0;
	ssize_t n = (ssize_t)strlen(text);

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	if (write(fd, text, (size_t)n) != n)
		rc = -1;
	close(fd);
	return rc;
}

/* Inside the new user namespace the worker keeps its own ids, so files it
 * reads before the lockdown are checked exactly as before. */
static int
ld_map_ids(uid_t uid, gid_t gid)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (ld_write("/proc/self/uid_map", buf) != 0)
		return -1;
	if (ld_write("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
		return -1;
	snprintf(buf, sizeof buf, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	return ld_write("/proc/self/gid_map", buf);
}

static void
ld_unshare_each(struct lockdown *ld)
{
	static const struct {
		int	flag;
		size_t	off;
	} each[] = {
		{ CLONE_NEWNS, offsetof(struct lockdown, mount_ns) },
		{ CLONE_NEWNET, offsetof(struct lockdown, net_ns) },
		{ CLONE_NEWIPC, offsetof(struct lockdown, ipc_ns) }
	};
	size_t i;
	int e = 0;

	for (i = 0; i < sizeof each / sizeof *each; i++) {
		if (unshare(each[i].flag) == 0)
			*(bool *)((char *)ld + each[i].off) = true;
		else
			e = errno;
	}
	if (e != 0)
		ld_why(ld, "namespaces", e);
}

/*
 * Root is exempt from RLIMIT_NPROC and may write every file, so a worker
 * started as root gives that up before anything else: it becomes nobody
 * (supplementary groups dropped too), and makes its own user namespace as
 * nobody, which also gives it the mount namespace its empty root needs.
 * The id change makes the process non-dumpable; it is made dumpable again
 * for the moment it writes its own id maps, and not dumpable for good in
 * lockdown_apply().
 */
static int
ld_drop_root(struct lockdown *ld, struct error *err)
{
	if (getuid() != 0 && geteuid() != 0)
		return 0;
	if (setgroups(0, NULL) != 0 ||
	    setresgid(LOCKDOWN_NOBODY, LOCKDOWN_NOBODY, LOCKDOWN_NOBODY) != 0 ||
	    setresuid(LOCKDOWN_NOBODY, LOCKDOWN_NOBODY, LOCKDOWN_NOBODY) != 0)
		return error_set(err, EXIT_ERROR, "the worker runs as root and "
		    "cannot become nobody (%d): %s", LOCKDOWN_NOBODY,
		    strerror(errno));
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
		return error_set(err, EXIT_ERROR, "PR_SET_DUMPABLE: %s",
		    strerror(errno));
	ld->uid_dropped = true;
	return 0;
}

/*
 * The worker dies with fronts. The kernel clears the parent-death signal
 * at a change of uid or gid (ld_drop_root), so it is set after each, and
 * a parent that died before it was set is seen here: the worker was
 * given to another process and exits at once. (The worker also exits
 * when a frame can no longer be written: worker_child.c.)
 */
static void
ld_bind_parent(pid_t parent)
{
	if (parent <= 0)
		return;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 ||
	    getppid() != parent)
		_exit(EXIT_MODEL);
}

int
lockdown_namespaces(struct lockdown *ld, unsigned skip, pid_t parent,
    struct error *err)
{
	const int rest = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC;
	uid_t uid;
	gid_t gid;

	if (ld_drop_root(ld, err) != 0)
		return -1;
	uid = getuid();
	gid = getgid();
	if ((skip & LOCKDOWN_SKIP_USERNS) != 0)
		errno = EPERM;
	else if (unshare(CLONE_NEWUSER | rest) == 0) {
		ld->user_ns = ld->mount_ns = ld->net_ns = ld->ipc_ns = true;
		if (ld_map_ids(uid, gid) != 0)
			ld_why(ld, "user namespace id map", errno);
		ld_bind_parent(parent);
		return 0;
	}
	ld_why(ld, "user namespace", errno);
	/* Without a user namespace the others need privileges. */
	ld_unshare_each(ld);
	ld_bind_parent(parent);
	return 0;
}

/* ---- 3. the lockdown proper -------------------------------------------- */

/* Everything but stderr and the frame pipe: stdin (/dev/null), stdout
 * (the same pipe as stderr; nothing writes to it) and the job pipe, read
 * to its end. */
static int
ld_close_fds(int keep_fd, struct error *err)
{
	int fd;

	for (fd = 0; fd < keep_fd; fd++)
		if (fd != 2)
			close(fd);
	if (close_range((unsigned)keep_fd + 1, ~0U, 0) != 0)
		return error_set(err, EXIT_ERROR, "close_range: %s",
		    strerror(errno));
	return 0;
}

/* Address space: what is mapped now (interpreter, project, compiled
 * model, no line of it run) plus the budget, so the budget means the same
 * under sanitizers that reserve terabytes up front, and memory the model
 * takes at top level counts against it. */
static rlim_t
ld_address_limit(long mb)
{
	unsigned long pages = 0;
	FILE *f;

	if ((f = fopen("/proc/self/statm", "r")) != NULL) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) +
	    (rlim_t)(mb > 0 ? mb : LD_DEFAULT_MB) * 1024 * 1024;
}

static int
ld_setrlimit(int res, rlim_t soft, rlim_t hard, const char *name,
    struct error *err)
{
	struct rlimit rl = { soft, hard };

	if (setrlimit(res, &rl) != 0)
		return error_set(err, EXIT_ERROR, "setrlimit(%s): %s", name,
		    strerror(errno));
	return 0;
}

/* RLIMIT_NOFILE comes last (ld_no_new_fds): Landlock needs one more. */
static int
ld_rlimits(const struct lockdown_limits *lim, rlim_t as, struct error *err)
{
	rlim_t cpu;

	if (ld_setrlimit(RLIMIT_AS, as, as, "RLIMIT_AS", err) != 0 ||
	    ld_setrlimit(RLIMIT_FSIZE, 0, 0, "RLIMIT_FSIZE", err) != 0 ||
	    ld_setrlimit(RLIMIT_CORE, 0, 0, "RLIMIT_CORE", err) != 0 ||
	    ld_setrlimit(RLIMIT_NPROC, 0, 0, "RLIMIT_NPROC", err) != 0 ||
	    ld_setrlimit(RLIMIT_MEMLOCK, 0, 0, "RLIMIT_MEMLOCK", err) != 0 ||
	    ld_setrlimit(RLIMIT_MSGQUEUE, 0, 0, "RLIMIT_MSGQUEUE", err) != 0)
		return -1;
	if (lim->cpu_s > 0) {
		/* A backstop: the parent's SIGKILL at the deadline comes first. */
		cpu = (rlim_t)ceil(lim->cpu_s) + 2;
		if (ld_setrlimit(RLIMIT_CPU, cpu, cpu + 1, "RLIMIT_CPU",
		    err) != 0)
			return -1;
	}
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		return error_set(err, EXIT_ERROR, "PR_SET_DUMPABLE: %s",
		    strerror(errno));
	return 0;
}

/* A fresh, empty, read-only tmpfs as the root, mounted over a directory
 * every system has; only inside the worker's own mount namespace. */
static void
ld_empty_root(struct lockdown *ld)
{
	static const char *const dirs[] = { "/tmp", "/mnt", "/run", "/dev" };
	const char *dir = NULL;
	struct stat sb;
	size_t i;

	if (!ld->mount_ns) {
		ld_why(ld, "empty root", EPERM);
		return;
	}
	for (i = 0; i < sizeof dirs / sizeof *dirs && dir == NULL; i++)
		if (stat(dirs[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			dir = dirs[i];
	if (dir == NULL ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("fronts-empty", dir, "tmpfs", MS_RDONLY | MS_NOSUID |
	    MS_NODEV | MS_NOEXEC, "size=4k,nr_inodes=1,mode=0555") != 0 ||
	    chdir(dir) != 0 || chroot(".") != 0 || chdir("/") != 0) {
		ld_why(ld, "empty root", errno != 0 ? errno : ENOENT);
		return;
	}
	ld->empty_root = true;
}

static void
ld_drop_caps(struct lockdown *ld)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	int cap;

	for (cap = 0; cap <= 63; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
			break;
	memset(d, 0, sizeof d);
	if (syscall(SYS_capset, &h, d) != 0) {
		ld_why(ld, "capabilities", errno);
		return;
	}
	ld->caps_dropped = true;
}

static uint64_t
ld_landlock_fs(int abi)
{
	if (abi >= 5)
		return (1ULL << 16) - 1;
	if (abi >= 3)
		return (1ULL << 15) - 1;
	if (abi == 2)
		return (1ULL << 14) - 1;
	return (1ULL << 13) - 1;
}

/* A ruleset that handles every access right this kernel knows and grants
 * none: no file can be opened, created or executed, no TCP port bound or
 * connected, no abstract socket or outside process reached. */
static void
ld_landlock(struct lockdown *ld)
{
	struct ld_landlock_attr a;
	size_t size;
	long abi, fd;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LD_LL_VERSION);
	if (abi <= 0) {
		ld_why(ld, "landlock", errno);
		return;
	}
	memset(&a, 0, sizeof a);
	a.fs = ld_landlock_fs((int)abi);
	size = sizeof a.fs;
	if (abi >= 4) {
		a.net = LD_LL_NET_BIND_TCP | LD_LL_NET_CONNECT_TCP;
		size += sizeof a.net;
	}
	if (abi >= 6) {
		a.scoped = LD_LL_SCOPE_UNIX | LD_LL_SCOPE_SIGNAL;
		size += sizeof a.scoped;
	}
	fd = syscall(SYS_landlock_create_ruleset, &a, size, 0);
	if (fd < 0) {
		ld_why(ld, "landlock", errno);
		return;
	}
	if (syscall(SYS_landlock_restrict_self, fd, 0) != 0) {
		ld_why(ld, "landlock", errno);
		close((int)fd);
		return;
	}
	close((int)fd);
	ld->landlock_abi = (int)abi;
}

unsigned
lockdown_skip_parse(const char *s)
{
	unsigned skip = 0;

	if (s == NULL)
		return 0;
	if (strstr(s, "seccomp") != NULL)
		skip |= LOCKDOWN_SKIP_SECCOMP;
	if (strstr(s, "landlock") != NULL)
		skip |= LOCKDOWN_SKIP_LANDLOCK;
	if (strstr(s, "root") != NULL)
		skip |= LOCKDOWN_SKIP_ROOT;
	if (strstr(s, "fds") != NULL)
		skip |= LOCKDOWN_SKIP_FDS;
	if (strstr(s, "userns") != NULL)
		skip |= LOCKDOWN_SKIP_USERNS;
	return skip;
}

/* Zero: the descriptors held stay usable, and no new one can be had, not
 * even in the numbers closed above. */
static int
ld_no_new_fds(struct error *err)
{
	return ld_setrlimit(RLIMIT_NOFILE, 0, 0, "RLIMIT_NOFILE", err);
}

int
lockdown_apply(struct lockdown *ld, const struct lockdown_limits *lim,
    struct error *err)
{
	rlim_t as = ld_address_limit(lim->memory_mb);

	if (ld_close_fds(lim->keep_fd, err) != 0)
		return -1;
	ld->fds_closed = true;
	/* Here, not in lockdown_namespaces(): once it is unshared, no thread
	 * (the watchdog) could be created. It only holds children, which the
	 * filter forbids anyway. */
	if (unshare(CLONE_NEWPID) == 0)
		ld->pid_ns = true;
	else
		ld_why(ld, "PID namespace", errno);
	if ((lim->skip & LOCKDOWN_SKIP_ROOT) == 0)
		ld_empty_root(ld);
	if (ld_rlimits(lim, as, err) != 0)
		return -1;
	ld->rlimits = true;
	ld_drop_caps(ld);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return error_set(err, EXIT_ERROR, "PR_SET_NO_NEW_PRIVS: %s",
		    strerror(errno));
	ld->no_new_privs = true;
	if ((lim->skip & LOCKDOWN_SKIP_LANDLOCK) == 0)
		ld_landlock(ld);
	if ((lim->skip & LOCKDOWN_SKIP_FDS) == 0 && ld_no_new_fds(err) != 0)
		return -1;
	/* Capabilities and Landlock changed the credentials last. */
	ld_bind_parent(lim->parent);
	if ((lim->skip & LOCKDOWN_SKIP_SECCOMP) != 0)
		return 0;
	if (seccomp_install(lim->keep_fd, err) != 0)
		return -1;
	ld->seccomp = true;
	return 0;
}

/* ---- the report ------------------------------------------------------- */

/* In the order they go up; name is what the operator reads. */
static const struct {
	const char	*key;
	const char	*name;
	size_t		 off;
} ld_flags[] = {
	{ "uid_dropped", "root dropped to nobody",
	    offsetof(struct lockdown, uid_dropped) },
	{ "user_ns", "user namespace", offsetof(struct lockdown, user_ns) },
	{ "mount_ns", "mount namespace", offsetof(struct lockdown, mount_ns) },
	{ "net_ns", "network namespace", offsetof(struct lockdown, net_ns) },
	{ "ipc_ns", "IPC namespace", offsetof(struct lockdown, ipc_ns) },
	{ "fds_closed", "descriptors closed",
	    offsetof(struct lockdown, fds_closed) },
	{ "pid_ns", "PID namespace", offsetof(struct lockdown, pid_ns) },
	{ "empty_root", "empty root", offsetof(struct lockdown, empty_root) },
	{ "rlimits", "rlimits", offsetof(struct lockdown, rlimits) },
	{ "caps_dropped", "no capabilities",
	    offsetof(struct lockdown, caps_dropped) },
	{ "no_new_privs", "no_new_privs",
	    offsetof(struct lockdown, no_new_privs) },
	{ "seccomp", "seccomp allowlist", offsetof(struct lockdown, seccomp) }
};

#define LD_NFLAGS	(sizeof ld_flags / sizeof *ld_flags)
#define LD_FLAG(ld, i)	(*(bool *)((char *)(ld) + ld_flags[i].off))

cJSON *
lockdown_json(const struct lockdown *ld)
{
	cJSON *j = cJSON_CreateObject();
	size_t i;

	for (i = 0; i < LD_NFLAGS; i++)
		cJSON_AddBoolToObject(j, ld_flags[i].key, LD_FLAG(ld, i));
	cJSON_AddNumberToObject(j, "landlock", ld->landlock_abi);
	cJSON_AddStringToObject(j, "why", ld->why);
	return j;
}

int
lockdown_from_json(const cJSON *j, struct lockdown *ld)
{
	const cJSON *v;
	size_t i;

	memset(ld, 0, sizeof *ld);
	if (!cJSON_IsObject(j))
		return -1;
	for (i = 0; i < LD_NFLAGS; i++)
		LD_FLAG(ld, i) = cJSON_IsTrue(cJSON_GetObjectItem(j,
		    ld_flags[i].key));
	v = cJSON_GetObjectItem(j, "landlock");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 100)
		ld->landlock_abi = (int)v->valuedouble;
	v = cJSON_GetObjectItem(j, "why");
	if (cJSON_IsString(v))
		snprintf(ld->why, sizeof ld->why, "%s", v->valuestring);
	return 0;
}

static void
ld_add(char *buf, size_t size, size_t *off, const char *text)
{
	int n;

	if (*off >= size)
		return;
	n = snprintf(buf + *off, size - *off, "%s%s", *off > 0 ? ", " : "",
	    text);
	*off += n > 0 ? (size_t)n : 0;
}

void
lockdown_describe(const struct lockdown *ld, char *buf, size_t size)
{
	char ll[32];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < LD_NFLAGS; i++) {
		if (strcmp(ld_flags[i].key, "seccomp") == 0 &&
		    ld->landlock_abi > 0) {
			snprintf(ll, sizeof ll, "Landlock (ABI %d)",
			    ld->landlock_abi);
			ld_add(buf, size, &off, ll);
		}
		if (LD_FLAG(ld, i))
			ld_add(buf, size, &off, ld_flags[i].name);
	}
}

void
lockdown_print(const struct lockdown *ld, FILE *f)
{
	size_t i;

	for (i = 0; i < LD_NFLAGS; i++) {
		if (strcmp(ld_flags[i].key, "seccomp") == 0) {
			if (ld->landlock_abi > 0)
				fprintf(f, "  %-24s on (ABI %d)\n", "Landlock",
				    ld->landlock_abi);
			else
				fprintf(f, "  %-24s off\n", "Landlock");
		}
		fprintf(f, "  %-24s %s\n", ld_flags[i].name,
		    LD_FLAG(ld, i) ? "on" : "off");
	}
	if (ld->why[0] != '\0')
		fprintf(f, "not available here: %s\n", ld->why);
}
