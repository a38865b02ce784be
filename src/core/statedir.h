/*
 * statedir — the project's state directory, DIR/.fronts, opened so that
 * nothing in it can send a read or a write elsewhere: the directory is
 * opened once as a descriptor and every file under it relative to that
 * descriptor, no component followed if it is a symlink. A `.fronts` that
 * is itself a symlink, is owned by another user, or can be written by
 * group or others is refused (as ssh refuses such a ~/.ssh), the message
 * naming the path and the fix.
 */
#ifndef FRONTS_STATEDIR_H
#define FRONTS_STATEDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/util.h"

/* Opens DIR/.fronts (create: making it, mode 0700, when missing) and
 * returns its descriptor in *dfd; a missing directory without create is
 * 1 with *dfd -1. -1 with err on a refusal or an I/O error. */
int	statedir_open(const char *project_dir, bool create, int *dfd,
	    struct error *err);
/* Opens REL ("ledger.jsonl", "trajectories/publish.jsonl") under the
 * state directory descriptor dfd without following a symlink anywhere
 * on the way; with O_CREAT in flags the missing subdirectories are made.
 * path (DIR/.fronts/REL) names the file in messages. Returns the
 * descriptor; -1 with err and errno (ENOENT: the file is missing). */
int	statedir_openat(int dfd, const char *path, const char *rel, int flags,
	    mode_t mode, struct error *err);

/* Opens DIR/.fronts/REL for appending (creating it, and .fronts) and
 * closes it: a publisher proves every file it will append to is the
 * project's own before it sends. */
int	statedir_probe(const char *project_dir, const char *rel,
	    struct error *err);
/* Whole-file read of DIR/.fronts/REL: 1 when it does not exist. */
int	statedir_read(const char *project_dir, const char *rel, char **out,
	    size_t *len, struct error *err);
/* Appends one line ('\n' added) to DIR/.fronts/REL and syncs it. */
int	statedir_append(const char *project_dir, const char *rel,
	    const char *line, struct error *err);
/* Replaces DIR/.fronts/REL: a temp file beside it, fsync, rename. */
int	statedir_write(const char *project_dir, const char *rel,
	    const void *data, size_t len, struct error *err);

#endif
