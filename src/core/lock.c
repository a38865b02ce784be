/*
 * lock — the project's exclusive lock, DIR/.fronts/lock (see lock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/lock.h"
#include "core/statedir.h"
#include "core/timeutil.h"

#define LOCK_FILE	"lock"

struct project_lock {
	int	fd;		/* -1: a nested take of this process's hold */
	bool	hold;		/* from project_lock_hold() */
};

/* This process's session hold (project_lock_hold): a take of the lock
 * while it is held nests in it instead of refusing itself (`fronts run`
 * holds the lock for its whole run, and publish_send takes it for each
 * post). Without a hold every take is a taker of its own. */
static pthread_mutex_t	lock_mu = PTHREAD_MUTEX_INITIALIZER;
static dev_t		lock_dev;
static ino_t		lock_ino;
static int		lock_depth;

/* Nests into this process's hold of the file fd has open: true when it
 * did (fd is closed). */
static bool
lock_nest(int fd)
{
	struct stat st;
	bool nested = false;

	pthread_mutex_lock(&lock_mu);
	if (lock_depth > 0 && fstat(fd, &st) == 0 && st.st_dev == lock_dev &&
	    st.st_ino == lock_ino) {
		lock_depth++;
		nested = true;
	}
	pthread_mutex_unlock(&lock_mu);
	if (nested)
		close(fd);
	return nested;
}

static void
lock_own(int fd)
{
	struct stat st;

	pthread_mutex_lock(&lock_mu);
	if (fstat(fd, &st) == 0) {
		lock_dev = st.st_dev;
		lock_ino = st.st_ino;
		lock_depth = 1;
	}
	pthread_mutex_unlock(&lock_mu);
}

/* "pid N (COMMAND) since T" from the lock file, or a plain word when the
 * holder has not written it yet. */
static void
lock_holder(int fd, char *out, size_t len)
{
	char buf[512], *nl;
	ssize_t n;

	n = pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0) {
		snprintf(out, len, "another process");
		return;
	}
	buf[n] = '\0';
	if ((nl = strchr(buf, '\n')) != NULL)
		*nl = '\0';
	snprintf(out, len, "%s", buf);
}

static void
lock_note(int fd, const char *command)
{
	char line[512], t[32];
	int n;

	time_format_utc(clock_now(), t, sizeof t);
	n = snprintf(line, sizeof line, "pid %ld (%s) since %s\n",
	    (long)getpid(), command, t);
	if (n < 0 || (size_t)n >= sizeof line)
		n = (int)strlen(line);
	if (ftruncate(fd, 0) == 0 && pwrite(fd, line, (size_t)n, 0) == n)
		fsync(fd);
}

int
project_lock_take_noting(const char *dir, const char *command, bool wait,
    project_lock_wait_fn waiting, void *arg, struct project_lock **out,
    struct error *err)
{
	char *path, holder[512];
	int dfd, fd, rc;

	*out = NULL;
	if (statedir_open(dir, true, &dfd, err) != 0)
		return -1;
	xasprintf(&path, "%s/.fronts/%s", dir, LOCK_FILE);
	fd = statedir_openat(dfd, path, LOCK_FILE, O_RDWR | O_CREAT, 0600,
	    err);
	close(dfd);
	if (fd < 0) {
		free(path);
		return -1;
	}
	if (lock_nest(fd)) {
		free(path);
		*out = xcalloc(1, sizeof **out);
		(*out)->fd = -1;
		return 0;
	}
	while ((rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
		;
	if (rc != 0 && errno == EWOULDBLOCK) {
		lock_holder(fd, holder, sizeof holder);
		if (!wait) {
			error_set(err, EXIT_ERROR, "the project is locked: %s "
			    "is held by %s; wait for it to finish (on the "
			    "command line, --wait waits for it)", path, holder);
			close(fd);
			free(path);
			return -1;
		}
		if (waiting != NULL)
			waiting(holder, arg);
		while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
			;
	}
	if (rc != 0) {
		error_set(err, EXIT_ERROR, "%s: cannot lock: %s", path,
		    strerror(errno));
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	lock_note(fd, command);
	*out = xcalloc(1, sizeof **out);
	(*out)->fd = fd;
	return 0;
}

int
project_lock_take(const char *dir, const char *command, bool wait,
    struct project_lock **out, struct error *err)
{
	return project_lock_take_noting(dir, command, wait, NULL, NULL, out,
	    err);
}

int
project_lock_hold(const char *dir, const char *command,
    struct project_lock **out, struct error *err)
{
	if (project_lock_take(dir, command, false, out, err) != 0)
		return -1;
	if ((*out)->fd >= 0) {
		(*out)->hold = true;
		lock_own((*out)->fd);
	}
	return 0;
}

void
project_lock_release(struct project_lock *l)
{
	if (l == NULL)
		return;
	pthread_mutex_lock(&lock_mu);
	if (l->fd < 0)
		lock_depth--;
	else if (l->hold)
		lock_depth = 0;
	pthread_mutex_unlock(&lock_mu);
	if (l->fd < 0) {
		free(l);
		return;
	}
	/* The note stays: it is rewritten by the next holder, and a reader
	 * that finds the lock free never shows it. */
	flock(l->fd, LOCK_UN);
	close(l->fd);
	free(l);
}
