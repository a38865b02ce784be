/*
 * util — small shared helpers: error reporting, allocation that cannot
 * fail silently, whole-file reads, crash-safe writes and sha256.
 *
 * Errors travel as a struct error filled by the function that failed and
 * returned to the caller; nothing below the CLI prints.
 */
#ifndef FRONTS_UTIL_H
#define FRONTS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of docs/DESIGN.md. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_ERROR = 1,
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3,	/* gate, approval, legality */
	EXIT_MODEL = 4,		/* model timed out, was killed, or crashed */
	EXIT_NETWORK = 5	/* provider or network failure */
};

struct error {
	int	code;		/* an enum exit_code; 0 while no error */
	char	msg[1024];
};

/* Sets err (if not NULL) and returns -1, so callers can `return error_set(...)`. */
int	error_set(struct error *err, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Prefixes an existing message: "context: old message". Returns -1. */
int	error_wrap(struct error *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* A copy of s without the trailing run of c ("https://x//" → "https://x"). */
char	*xstrdup_rtrim(const char *s, char c);
int	 xasprintf(char **, const char *, ...) __attribute__((format(printf, 2, 3)));
/* open_memstream(3) that cannot fail: text built a piece at a time in
 * linear time (appending to a copy of the text so far is quadratic). */
FILE	*xmemstream(char **buf, size_t *len);

/* Reads a whole file, NUL-terminated; *len excludes the NUL. */
int	file_read(const char *path, char **out, size_t *len, struct error *err);
/* Writes via a temp file in the same directory, fsync, rename, fsync dir;
 * -1 if any step failed, the directory sync included (the file may then be
 * in place but not yet durable). */
int	file_write_atomic(const char *path, const void *data, size_t len,
	    struct error *err);
/* Appends one line (a '\n' is added) and fsyncs before returning; a file
 * it created has its directory synced too. */
int	file_append_sync(const char *path, const char *line, struct error *err);
/* mkdir -p for one directory path; each directory it creates is synced
 * into its parent. */
int	dir_ensure(const char *path, struct error *err);
/* "dir/name" in a fresh allocation. */
char	*path_join(const char *dir, const char *name);

/* sha256 of data as 64 lowercase hex digits plus NUL. */
void	sha256_hex(const void *data, size_t len, char out[65]);
/* md5 of data as 32 lowercase hex digits plus NUL: a checksum a server
 * asks for (Composio's file store), never for security. */
void	md5_hex(const void *data, size_t len, char out[33]);

/* Monotonic seconds, for measuring, never for deciding correctness. */
double	clock_seconds(void);

/* The absolute path of the running binary (to re-execute it as the
 * sandbox worker, or to find data installed beside it). */
const char *self_exe_path(void);

#endif
