/*
 * frame_parse — the payloads of the frames a worker sends its parent
 * (frame.h): progress snapshots as JSON, error frames, the refused-syscall
 * frame. Encoding is the worker's side; parsing is the parent's, and the
 * parent trusts nothing in what it reads: every number is checked against
 * the range of the field it fills, so a hostile worker's bytes are a
 * malformed frame, never undefined behaviour in the parent.
 */
#ifndef FRONTS_FRAME_PARSE_H
#define FRONTS_FRAME_PARSE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/search.h"

/*
 * The most bytes each frame a worker sends can legally need; the parent
 * refuses a longer one before buffering it. A number prints in at most 26
 * bytes and a string's byte in at most 6 (`\u001b`); the result frame's
 * bound depends on the job (worker_parent.c).
 */
#define FRAME_READY_MAX		4096	/* lockdown_json(): 12 flags, why[192] */
#define FRAME_ERROR_MAX		8192	/* a message of struct error, escaped */
#define FRAME_SYSCALL_LEN	4
#define FRAME_ROLLOUT_MAX	4096	/* rollout_stats_json(): 7 numbers */
/* A snapshot: its fixed fields, the error text escaped, and every root
 * and plan edge at its longest. */
#define FRAME_EDGE_MAX		512
#define FRAME_SNAPSHOT_MAX	(4096 + 6 * 512 + \
	(SNAPSHOT_MAX_CHILDREN + SNAPSHOT_MAX_PV) * FRAME_EDGE_MAX)

/* search_snapshot as the worker streams it (FRAME_SNAPSHOT), and back:
 * 0, or -1 when the text is not a well-formed snapshot. */
cJSON	*frame_snapshot_json(const struct search_snapshot *);
int	 frame_snapshot_parse(const char *text, struct search_snapshot *);

/* An error frame, {"code":N,"message":"…"}: 0 with *code an exit code of
 * util.h (EXIT_ERROR..EXIT_NETWORK) and msg filled, or -1. */
int	 frame_error_parse(const char *text, int *code, char *msg,
	    size_t size);

/* A refused-syscall frame: four little-endian bytes. 0 with *nr, or -1. */
int	 frame_syscall_parse(const char *buf, size_t len, int *nr);

#endif
