/*
 * frame — the pipe protocol between fronts and its sandbox worker. A frame
 * is a 4-byte little-endian payload length, a type byte, and the payload.
 * The parent reads incrementally (struct frame_reader) so it never blocks
 * on a half-written frame; the worker reads and writes whole frames.
 */
#ifndef FRONTS_FRAME_H
#define FRONTS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

#define FRAME_HEADER	5
#define FRAME_MAX	(512u << 20)	/* a larger length is malformed */

enum frame_type {
	FRAME_JOB = 'J',	/* parent -> worker: the job as JSON */
	FRAME_MODEL = 'M',	/* parent -> worker: the model's exact bytes */
	FRAME_READY = 'O',	/* worker: loaded, privileges dropped */
	FRAME_SNAPSHOT = 'S',	/* worker: progress, JSON */
	FRAME_RESULT = 'R',	/* worker: the job's result, last frame */
	FRAME_ERROR = 'E',	/* worker: {"code":N,"message":"…"}, last frame */
	FRAME_SYSCALL = 'Y'	/* worker: the syscall the filter refused (u32) */
};

/* Writes one whole frame (retrying on EINTR and short writes). */
int	frame_write(int fd, int type, const void *buf, size_t len,
	    struct error *err);
/* Reads one whole frame; the payload is malloc'd and NUL-terminated. */
int	frame_read(int fd, int *type, char **buf, size_t *len,
	    struct error *err);
/* Encodes a header into out (async-signal-safe). */
void	frame_header(unsigned char out[FRAME_HEADER], int type, uint32_t len);

/*
 * The parent's reader. A frame is checked against limit(arg, type) as soon
 * as its header is in, before a byte of its payload is buffered; the buffer
 * then grows to that one frame exactly and is handed over whole, so a frame
 * of n bytes costs n bytes once. Frames are taken from an offset (no byte
 * is moved more than once): reading is linear in what the worker sends.
 */
typedef size_t	frame_limit_fn(void *arg, int type);

struct frame_reader {
	unsigned char	*buf;
	size_t		 off, len, cap;	/* [off, len) not yet taken */
	frame_limit_fn	*limit;		/* NULL: FRAME_MAX for every type */
	void		*arg;
	int		 over_type;	/* after -1: the frame refused */
	uint32_t	 over_len;
};

/* Reads what fd has (one read). 1: got bytes, 0: end of file, -1: error
 * (errno; EAGAIN when nothing was there). */
int	frame_reader_fill(struct frame_reader *, int fd);
/* Takes the next complete frame: 1 with *buf malloc'd (NUL-terminated),
 * 0 when more bytes are needed, -1 when a header announces more than the
 * type's limit (over_type and over_len say which). */
int	frame_reader_next(struct frame_reader *, int *type, char **buf,
	    size_t *len);
/* Bytes buffered and not yet taken (a truncated frame at end of file). */
size_t	frame_reader_pending(const struct frame_reader *);
void	frame_reader_free(struct frame_reader *);

#endif
