/*
 * util — error reporting, checked allocation, file I/O that never leaves a
 * half-written file, and sha256 through libcrypto.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "core/util.h"

int
error_set(struct error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int
error_wrap(struct error *err, const char *fmt, ...)
{
	char prefix[512], old[sizeof err->msg];
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof old);
	snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
	if (err->code == 0)
		err->code = EXIT_ERROR;
	return -1;
}

static void
oom(void)
{
	fputs("fronts: out of memory\n", stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		oom();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom();
	return p;
}

char *
xstrdup_rtrim(const char *s, char c)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == c)
		n--;
	return xstrndup(s, n);
}

FILE *
xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (f == NULL)
		oom();
	return f;
}

int
xasprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(out, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return n;
}

int
file_read(const char *path, char **out, size_t *len, struct error *err)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if ((f = fopen(path, "rb")) == NULL)
		return error_set(err, EXIT_ERROR, "%s: cannot open: %s", path,
		    strerror(errno));
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return error_set(err, EXIT_ERROR, "%s: read error", path);
	}
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	if (len != NULL)
		*len = n;
	return 0;
}

/* Syncs the directory that holds path, so that a new or renamed entry in
 * it survives a crash. */
static int
dir_sync(const char *path, struct error *err)
{
	char *copy = xstrdup(path), *dir;
	int fd, rc = 0;

	dir = dirname(copy);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fsync(fd) != 0)
		rc = error_set(err, EXIT_ERROR, "%s: cannot sync the directory "
		    "%s: %s", path, dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

int
file_write_atomic(const char *path, const void *data, size_t len,
    struct error *err)
{
	char *tmp;
	const char *p = data;
	ssize_t w;
	int fd;

	xasprintf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		error_set(err, EXIT_ERROR, "%s: cannot create: %s", path,
		    strerror(errno));
		free(tmp);
		return -1;
	}
	while (len > 0) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return dir_sync(path, err);
fail:
	error_set(err, EXIT_ERROR, "%s: cannot write: %s", path,
	    strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int
file_append_sync(const char *path, const char *line, struct error *err)
{
	size_t len = strlen(line);
	char *buf = xmalloc(len + 1);
	const char *p = buf;
	ssize_t w;
	int fd, created;

	memcpy(buf, line, len);
	buf[len++] = '\n';
	created = access(path, F_OK) != 0;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(buf);
		return error_set(err, EXIT_ERROR, "%s: cannot open: %s", path,
		    strerror(errno));
	}
	while (len > 0) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			error_set(err, EXIT_ERROR, "%s: cannot append: %s",
			    path, strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	free(buf);
	if (fsync(fd) != 0) {
		close(fd);
		return error_set(err, EXIT_ERROR, "%s: fsync: %s", path,
		    strerror(errno));
	}
	close(fd);
	return created ? dir_sync(path, err) : 0;
}

/* mkdir that syncs the parent when it made the directory. */
static int
dir_make(const char *path, struct error *err)
{
	if (mkdir(path, 0755) == 0)
		return dir_sync(path, err);
	if (errno == EEXIST)
		return 0;
	return error_set(err, EXIT_ERROR, "%s: cannot create directory: %s",
	    path, strerror(errno));
}

int
dir_ensure(const char *path, struct error *err)
{
	char *copy = xstrdup(path), *p;
	int rc = 0;

	for (p = copy + 1; rc == 0 && *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		rc = dir_make(copy, err);
		*p = '/';
	}
	if (rc == 0)
		rc = dir_make(copy, err);
	free(copy);
	return rc;
}

char *
path_join(const char *dir, const char *name)
{
	char *p;
	size_t n = strlen(dir);

	if (n > 0 && dir[n - 1] == '/')
		xasprintf(&p, "%s%s", dir, name);
	else
		xasprintf(&p, "%s/%s", dir, name);
	return p;
}

/* The digest of data under md as hex digits (2 * n of them) plus NUL. */
static void
digest_hex(const EVP_MD *md, const void *data, size_t len, char *out,
    unsigned int n)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0, i;

	EVP_Digest(data, len, d, &dlen, md, NULL);
	for (i = 0; i < dlen && i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
	out[2 * n] = '\0';
}

void
sha256_hex(const void *data, size_t len, char out[65])
{
	digest_hex(EVP_sha256(), data, len, out, 32);
}

void
md5_hex(const void *data, size_t len, char out[33])
{
	digest_hex(EVP_md5(), data, len, out, 16);
}

double
clock_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This binary's path, read once: the planner's and the accuracy view's
 * threads both start workers, so the first reading must not race. */
static char		self_path[PATH_MAX];
static pthread_once_t	self_once = PTHREAD_ONCE_INIT;

static void
self_exe_read(void)
{
	ssize_t n;

	n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
	self_path[n > 0 ? n : 0] = '\0';
}

const char *
self_exe_path(void)
{
	pthread_once(&self_once, self_exe_read);
	return self_path[0] != '\0' ? self_path : NULL;
}
