/*
 * frame — length-prefixed, typed frames over pipes (see frame.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/frame.h"

void
frame_header(unsigned char out[FRAME_HEADER], int type, uint32_t len)
{
	out[0] = len & 0xff;
	out[1] = (len >> 8) & 0xff;
	out[2] = (len >> 16) & 0xff;
	out[3] = (len >> 24) & 0xff;
	out[4] = (unsigned char)type;
}

static uint32_t
frame_length(const unsigned char *h)
{
	return (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
	    (uint32_t)h[3] << 24;
}

static int
frame_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
frame_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
frame_write(int fd, int type, const void *buf, size_t len, struct error *err)
{
	unsigned char h[FRAME_HEADER];

	if (len > FRAME_MAX)
		return error_set(err, EXIT_ERROR, "frame of %zu bytes is too large",
		    len);
	frame_header(h, type, (uint32_t)len);
	if (frame_write_all(fd, h, sizeof h) != 0 ||
	    frame_write_all(fd, buf, len) != 0)
		return error_set(err, EXIT_ERROR, "cannot write to the pipe: %s",
		    strerror(errno));
	return 0;
}

int
frame_read(int fd, int *type, char **buf, size_t *len, struct error *err)
{
	unsigned char h[FRAME_HEADER];
	uint32_t n;
	char *p;
	int rc;

	if ((rc = frame_read_all(fd, h, sizeof h)) != 0)
		return error_set(err, EXIT_ERROR, "%s",
		    rc > 0 ? "the pipe closed" : strerror(errno));
	n = frame_length(h);
	if (n > FRAME_MAX)
		return error_set(err, EXIT_ERROR, "frame of %u bytes is too large",
		    n);
	p = xmalloc((size_t)n + 1);
	if ((rc = frame_read_all(fd, p, n)) != 0) {
		free(p);
		return error_set(err, EXIT_ERROR, "%s",
		    rc > 0 ? "the pipe closed inside a frame" : strerror(errno));
	}
	p[n] = '\0';
	*type = h[4];
	*buf = p;
	*len = n;
	return 0;
}

/* What the reader keeps for small frames; a larger one gets a buffer of
 * its own size. */
#define FRAME_CHUNK	65536

/* Moves the bytes not yet taken to the front: only when the next frame is
 * incomplete, so each byte moves at most once. */
static void
frame_reader_compact(struct frame_reader *r)
{
	if (r->off == 0)
		return;
	memmove(r->buf, r->buf + r->off, r->len - r->off);
	r->len -= r->off;
	r->off = 0;
}

int
frame_reader_fill(struct frame_reader *r, int fd)
{
	ssize_t n;

	if (r->buf == NULL) {
		r->cap = FRAME_CHUNK;
		r->buf = xmalloc(r->cap);
		r->off = r->len = 0;
	}
	/* One byte stays free for the NUL of a frame handed over whole. */
	if (r->len + 1 >= r->cap) {
		frame_reader_compact(r);
		if (r->len + 1 >= r->cap) {
			r->cap += FRAME_CHUNK;
			r->buf = xrealloc(r->buf, r->cap);
		}
	}
	do
		n = read(fd, r->buf + r->len, r->cap - 1 - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		return 0;
	r->len += (size_t)n;
	return 1;
}

/* The frame at off, which fills the buffer to its end: the buffer itself
 * becomes the payload. */
static char *
frame_reader_hand_over(struct frame_reader *r, size_t n)
{
	char *p = (char *)r->buf;

	memmove(p, p + FRAME_HEADER, n);
	p[n] = '\0';
	r->buf = NULL;
	r->off = r->len = r->cap = 0;
	return p;
}

int
frame_reader_next(struct frame_reader *r, int *type, char **buf, size_t *len)
{
	size_t avail = r->len - r->off, limit, need;
	unsigned char *h;
	uint32_t n;
	char *p;

	if (avail < FRAME_HEADER) {
		if (r->buf != NULL)
			frame_reader_compact(r);
		return 0;
	}
	h = r->buf + r->off;
	n = frame_length(h);
	limit = r->limit != NULL ? r->limit(r->arg, h[4]) : FRAME_MAX;
	if (n > FRAME_MAX || n > limit) {
		r->over_type = h[4];
		r->over_len = n;
		return -1;
	}
	need = FRAME_HEADER + (size_t)n;
	if (avail < need) {
		frame_reader_compact(r);
		if (r->cap < need + 1) {
			r->cap = need + 1;
			r->buf = xrealloc(r->buf, r->cap);
		}
		return 0;
	}
	*type = h[4];
	*len = n;
	if (r->off == 0 && avail == need && r->cap > FRAME_CHUNK) {
		*buf = frame_reader_hand_over(r, n);
		return 1;
	}
	p = xmalloc((size_t)n + 1);
	memcpy(p, h + FRAME_HEADER, n);
	p[n] = '\0';
	*buf = p;
	r->off += need;
	if (r->off == r->len)
		r->off = r->len = 0;
	return 1;
}

size_t
frame_reader_pending(const struct frame_reader *r)
{
	return r->len - r->off;
}

void
frame_reader_free(struct frame_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->off = r->len = r->cap = 0;
}
