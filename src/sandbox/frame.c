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

int
frame_reader_fill(struct frame_reader *r, int fd)
{
	ssize_t n;

	if (r->cap - r->len < 65536) {
		r->cap = r->cap == 0 ? 65536 * 2 : r->cap * 2;
		r->buf = xrealloc(r->buf, r->cap);
	}
	do
		n = read(fd, r->buf + r->len, r->cap - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		return 0;
	r->len += (size_t)n;
	return 1;
}

int
frame_reader_next(struct frame_reader *r, int *type, char **buf, size_t *len)
{
	uint32_t n;
	char *p;

	if (r->len < FRAME_HEADER)
		return 0;
	n = frame_length(r->buf);
	if (n > FRAME_MAX)
		return -1;
	if (r->len < FRAME_HEADER + (size_t)n)
		return 0;
	p = xmalloc((size_t)n + 1);
	memcpy(p, r->buf + FRAME_HEADER, n);
	p[n] = '\0';
	*type = r->buf[4];
	*buf = p;
	*len = n;
	r->len -= FRAME_HEADER + (size_t)n;
	memmove(r->buf, r->buf + FRAME_HEADER + n, r->len);
	return 1;
}

void
frame_reader_free(struct frame_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->len = r->cap = 0;
}
