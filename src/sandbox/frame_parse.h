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
