/*
 * statedir — DIR/.fronts opened as a descriptor, and every file under it
 * opened relative to it without following symlinks (see statedir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/statedir.h"

#define STATEDIR	".fronts"

/* The refusal of a .fronts another user could change. */
static int
statedir_check(int fd, const char *path, struct error *err)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return error_set(err, EXIT_ERROR, "%s: %s", path,
		    strerror(errno));
	if (st.st_uid != geteuid())
		return error_set(err, EXIT_ERROR, "%s is owned by uid %ld, not "
		    "by you (uid %ld): its owner could rewrite the ledger; fix: "
		    "chown %ld %s (or run fronts as its owner)", path,
		    (long)st.st_uid, (long)geteuid(), (long)geteuid(), path);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return error_set(err, EXIT_ERROR, "%s can be written by %s "
		    "(mode %04o): anyone there could rewrite the ledger; fix: "
		    "chmod go-w %s", path, (st.st_mode & S_IWOTH) != 0 ?
		    "others" : "its group", (unsigned)(st.st_mode & 07777),
		    path);
	return 0;
}

static int
statedir_symlink_error(const char *path, struct error *err)
{
	return error_set(err, EXIT_ERROR, "%s is a symlink (or a path "
	    "through one): fronts reads and writes only the files in the "
	    "project's own .fronts; replace it with the file itself", path);
}

int
statedir_open(const char *project_dir, bool create, int *dfd,
    struct error *err)
{
	char *path = path_join(project_dir, STATEDIR);
	int fd, pfd;

	*dfd = -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			error_set(err, EXIT_ERROR, "%s: cannot create "
			    "directory: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		if ((pfd = open(project_dir, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) >= 0) {
			fsync(pfd);
			close(pfd);
		}
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno, rc = e == ENOENT ? 1 : -1;

		if (e == ELOOP || e == ENOTDIR)
			statedir_symlink_error(path, err);
		else if (e != ENOENT)
			error_set(err, EXIT_ERROR, "%s: %s", path, strerror(e));
		free(path);
		return rc;
	}
	if (statedir_check(fd, path, err) != 0) {
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	*dfd = fd;
	return 0;
}

/* Opens the directory that holds REL's last component (made when create)
 * and returns it, with *last pointing into rel at that component. */
static int
statedir_parent(int dfd, const char *path, const char *rel, bool create,
    const char **last, struct error *err)
{
	char comp[256];
	const char *p = rel, *slash;
	int cur, next;

	if ((cur = dup(dfd)) < 0)
		return error_set(err, EXIT_ERROR, "%s: %s", path,
		    strerror(errno));
	while ((slash = strchr(p, '/')) != NULL) {
		if ((size_t)(slash - p) >= sizeof comp || slash == p) {
			close(cur);
			return error_set(err, EXIT_ERROR, "%s: bad path", path);
		}
		memcpy(comp, p, (size_t)(slash - p));
		comp[slash - p] = '\0';
		next = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create &&
		    (mkdirat(cur, comp, 0700) == 0 || errno == EEXIST)) {
			fsync(cur);
			next = openat(cur, comp, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			int e = errno;

			close(cur);
			if (e == ELOOP || e == ENOTDIR)
				return statedir_symlink_error(path, err);
			error_set(err, EXIT_ERROR, "%s: %s", path,
			    strerror(e));
			errno = e;
			return -1;
		}
		close(cur);
		cur = next;
		p = slash + 1;
	}
	*last = p;
	return cur;
}

/* Opens name in the directory pfd, never through a symlink, and only a
 * regular file (a FIFO would hang the reader). */
static int
statedir_leaf(int pfd, const char *path, const char *name, int flags,
    mode_t mode, struct error *err)
{
	struct stat st;
	int fd, e;

	fd = openat(pfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
	    mode);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			return statedir_symlink_error(path, err);
		error_set(err, EXIT_ERROR, "%s: cannot open: %s", path,
		    strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set(err, EXIT_ERROR, "%s: not a regular file",
		    path);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int
statedir_openat(int dfd, const char *path, const char *rel, int flags,
    mode_t mode, struct error *err)
{
	const char *last;
	int pfd, fd;

	if ((pfd = statedir_parent(dfd, path, rel, (flags & O_CREAT) != 0,
	    &last, err)) < 0)
		return -1;
	fd = statedir_leaf(pfd, path, last, flags, mode, err);
	if (fd >= 0 && (flags & O_CREAT) != 0)
		fsync(pfd);	/* a new entry survives a crash */
	close(pfd);
	return fd;
}

static int
statedir_write_all(int fd, const char *path, const char *p, size_t len,
    struct error *err)
{
	ssize_t w;

	while (len > 0) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return error_set(err, EXIT_ERROR, "%s: cannot write: %s",
			    path, strerror(errno));
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0)
		return error_set(err, EXIT_ERROR, "%s: fsync: %s", path,
		    strerror(errno));
	return 0;
}

/* rel opened for appending (created 0600 where missing), its path in
 * *path for messages: the fd, or -1 with err. */
static int
statedir_open_append(const char *project_dir, const char *rel, char **path,
    struct error *err)
{
	int dfd, fd;

	*path = NULL;
	if (statedir_open(project_dir, true, &dfd, err) != 0)
		return -1;
	xasprintf(path, "%s/%s/%s", project_dir, STATEDIR, rel);
	fd = statedir_openat(dfd, *path, rel, O_WRONLY | O_APPEND | O_CREAT,
	    0600, err);
	close(dfd);
	return fd;
}

int
statedir_probe(const char *project_dir, const char *rel, struct error *err)
{
	char *path;
	int fd;

	fd = statedir_open_append(project_dir, rel, &path, err);
	free(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int
statedir_read(const char *project_dir, const char *rel, char **out,
    size_t *len, struct error *err)
{
	char *path, *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;
	int dfd, fd, rc;

	if ((rc = statedir_open(project_dir, false, &dfd, err)) != 0)
		return rc;
	xasprintf(&path, "%s/%s/%s", project_dir, STATEDIR, rel);
	fd = statedir_openat(dfd, path, rel, O_RDONLY, 0, err);
	close(dfd);
	if (fd < 0) {
		rc = errno == ENOENT ? 1 : -1;
		free(path);
		return rc;
	}
	for (;;) {
		if (cap - n < 4096)
			buf = xrealloc(buf, cap = cap ? cap * 2 : 8192);
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (r < 0) {
		error_set(err, EXIT_ERROR, "%s: read error: %s", path,
		    strerror(errno));
		free(path);
		free(buf);
		return -1;
	}
	free(path);
	buf[n] = '\0';
	*out = buf;
	if (len != NULL)
		*len = n;
	return 0;
}

int
statedir_append(const char *project_dir, const char *rel, const char *line,
    struct error *err)
{
	char *path, *buf;
	size_t n = strlen(line);
	int fd, rc;

	if ((fd = statedir_open_append(project_dir, rel, &path, err)) < 0) {
		free(path);
		return -1;
	}
	buf = xmalloc(n + 1);
	memcpy(buf, line, n);
	buf[n] = '\n';
	rc = statedir_write_all(fd, path, buf, n + 1, err);
	free(buf);
	close(fd);
	free(path);
	return rc;
}

int
statedir_write(const char *project_dir, const char *rel, const void *data,
    size_t len, struct error *err)
{
	char *path, *tmp;
	const char *last;
	int dfd, pfd, fd, rc = -1;

	if (statedir_open(project_dir, true, &dfd, err) != 0)
		return -1;
	xasprintf(&path, "%s/%s/%s", project_dir, STATEDIR, rel);
	pfd = statedir_parent(dfd, path, rel, true, &last, err);
	close(dfd);
	if (pfd < 0) {
		free(path);
		return -1;
	}
	xasprintf(&tmp, "%s.tmp.%ld", last, (long)getpid());
	unlinkat(pfd, tmp, 0);
	fd = statedir_leaf(pfd, path, tmp, O_WRONLY | O_CREAT | O_EXCL, 0600,
	    err);
	if (fd >= 0) {
		rc = statedir_write_all(fd, path, data, len, err);
		close(fd);
		if (rc == 0 && renameat(pfd, tmp, pfd, last) != 0)
			rc = error_set(err, EXIT_ERROR, "%s: cannot replace: "
			    "%s", path, strerror(errno));
		if (rc == 0 && fsync(pfd) != 0)
			rc = error_set(err, EXIT_ERROR, "%s: cannot sync its "
			    "directory: %s", path, strerror(errno));
		if (rc != 0)
			unlinkat(pfd, tmp, 0);
	}
	close(pfd);
	free(tmp);
	free(path);
	return rc;
}
