/*
 * approval — which exact model bytes the operator approved to run. The
 * sha256 of each approved source is one line of DIR/.fronts/approved.
 * Every command that runs a model calls approval_check() first.
 */
#ifndef FRONTS_APPROVAL_H
#define FRONTS_APPROVAL_H

#include <stdbool.h>

#include "core/util.h"

/* 0 when sha256 (64 hex digits) is approved for project_dir; otherwise -1
 * with err set: EXIT_REFUSED and a message saying how to review and
 * approve (`fronts approve -C DIR`, or `a` in the TUI), or EXIT_ERROR when
 * the approvals file cannot be read. */
int	approval_check(const char *project_dir, const char *sha256,
	    struct error *err);
/* Records sha256 as approved (idempotent): rewrites .fronts/approved with
 * the new line appended, atomically. */
int	approval_add(const char *project_dir, const char *sha256,
	    struct error *err);
/* Whether sha256 is approved; false as well when the file is unreadable. */
bool	approval_is_approved(const char *project_dir, const char *sha256);

#endif
