/*
 * conform — whether an approved model passed the conformance checks,
 * kept by its sha256 in .fronts/conformance/<sha256>.json, so `plan`
 * and the TUI's planner refuse a model that failed them without running
 * the checks again. `validate` and `synth` keep what they ran; `plan`
 * runs the checks in a sandbox worker when they were never run for
 * those bytes.
 */
#ifndef FRONTS_CONFORM_H
#define FRONTS_CONFORM_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/project.h"
#include "core/util.h"
#include "core/validate.h"

enum conform_state { CONFORM_UNKNOWN, CONFORM_PASS, CONFORM_FAIL };

struct conform {
	enum conform_state	state;
	char			failed[256];	/* "apply-does-not-mutate, …" */
	char			message[512];	/* the first failure's */
	char			not_kept[256];	/* why it could not be kept */
	bool			timed_out;	/* every failure a call's time
						 * limit: never kept */
};

/* How conform_ensure runs checks that were never run. */
struct conform_how {
	bool	thread;		/* in this process, under the guard */
	int	call_timeout_ms;	/* per model call; 0: the checks' own */
	long	memory_mb;	/* the worker's; 0: its default */
};

/* What .fronts/conformance/<sha256>.json says; CONFORM_UNKNOWN when the
 * checks were never kept for those bytes (or the file is unreadable). */
void	conform_read(const char *dir, const char *sha256, struct conform *);
/* Keeps a validation report's checks (validate_report_json's "conformant"
 * and "checks") for sha256, written atomically; out (may be NULL) gets
 * the state. A failure that is nothing but calls over their time limit
 * says more about the machine's load than about the bytes: it is not
 * kept (out->timed_out, out->not_kept say so) and the next run checks
 * again. */
int	conform_keep(const char *dir, const char *sha256, const cJSON *report,
	    struct conform *out, struct error *err);
/* The kept result, or the checks run now (as how says) and kept. -1
 * only when they could not run (err). */
int	conform_ensure(const struct project *, const char *dir,
	    const char *src, size_t len, const struct conform_how *,
	    struct conform *, struct error *err);
/* validate_run() on src in this process, under the guard (`--isolation
 * thread`), each call limited to call_timeout_ms (0: 1000). */
int	conform_validate_thread(const struct project *, const char *src,
	    size_t len, int call_timeout_ms, const struct validate_params *,
	    struct validate_report *, struct error *err);
/* The names of the failed checks of a report, "a, b" (or ""), into buf. */
void	conform_failed_names(const cJSON *report, char *buf, size_t len);

#endif
