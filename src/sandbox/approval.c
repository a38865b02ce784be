/*
 * approval — the operator's approvals of exact model bytes, one sha256 per
 * line in DIR/.fronts/approved. Appends rewrite the whole file through
 * statedir_write (temp file, fsync, rename; no symlink followed) so a
 * crash leaves either the old or the new list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/statedir.h"
#include "sandbox/approval.h"

#define APPROVAL_NAME	"approved"	/* in DIR/.fronts */

static bool
approval_valid_sha(const char *sha)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((sha[i] >= '0' && sha[i] <= '9') ||
		    (sha[i] >= 'a' && sha[i] <= 'f')))
			return false;
	return sha[64] == '\0';
}

/* Reads the approvals file; a missing file is an empty list. */
static int
approval_read(const char *project_dir, char **data, size_t *len,
    struct error *err)
{
	int rc;

	/* Through statedir: a symlinked list, or a .fronts another user
	 * could write, approves nothing. */
	if ((rc = statedir_read(project_dir, APPROVAL_NAME, data, len,
	    err)) > 0) {
		*data = xstrdup("");
		*len = 0;
		return 0;
	}
	return rc;
}

static bool
approval_contains(const char *data, const char *sha)
{
	const char *p = data;

	while (*p != '\0') {
		if (strncmp(p, sha, 64) == 0 &&
		    (p[64] == '\n' || p[64] == '\0' || p[64] == '\r'))
			return true;
		if ((p = strchr(p, '\n')) == NULL)
			break;
		p++;
	}
	return false;
}

int
approval_check(const char *project_dir, const char *sha256,
    struct error *err)
{
	char *data;
	size_t len;
	bool ok;

	if (!approval_valid_sha(sha256))
		return error_set(err, EXIT_ERROR, "not a sha256: %.70s",
		    sha256);
	if (approval_read(project_dir, &data, &len, err) != 0)
		return -1;
	ok = approval_contains(data, sha256);
	free(data);
	if (ok)
		return 0;
	return error_set(err, EXIT_REFUSED,
	    "the model (sha256 %.12s…) is not approved: review it and approve "
	    "it with `fronts approve -C %s`, or press `a` in the TUI's Model "
	    "pane", sha256, project_dir);
}

bool
approval_is_approved(const char *project_dir, const char *sha256)
{
	struct error err = { 0 };

	return approval_check(project_dir, sha256, &err) == 0;
}

int
approval_add(const char *project_dir, const char *sha256, struct error *err)
{
	char *data, *next;
	size_t len;
	int rc;

	if (!approval_valid_sha(sha256))
		return error_set(err, EXIT_ERROR, "not a sha256: %.70s",
		    sha256);
	if (approval_read(project_dir, &data, &len, err) != 0)
		return -1;
	if (approval_contains(data, sha256)) {
		free(data);
		return 0;
	}
	xasprintf(&next, "%s%s%s\n", data,
	    len > 0 && data[len - 1] != '\n' ? "\n" : "", sha256);
	free(data);
	rc = statedir_write(project_dir, APPROVAL_NAME, next, strlen(next),
	    err);
	free(next);
	return rc;
}
