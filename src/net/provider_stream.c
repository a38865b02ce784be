/*
 * provider_stream — reading a streamed (server-sent events) answer.
 *
 * Both APIs stream their answers, so that a long answer keeps the
 * connection busy instead of leaving it silent for minutes. The whole
 * stream is received (within the response cap) and then read event by
 * event here; each provider turns its events back into the message its
 * non-streamed API would have returned, which is what gets parsed and
 * recorded.
 */
#include <stdlib.h>
#include <string.h>

#include "net/provider_int.h"

void
llm_buf_add(struct llm_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
llm_buf_free(struct llm_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

/* The end of the line at p (its '\n', or the final NUL). */
static const char *
sse_eol(const char *p)
{
	const char *e = strchr(p, '\n');

	return e != NULL ? e : p + strlen(p);
}

/* Adds one "field: value" line to the event being read. */
static void
sse_field(const char *p, size_t n, struct sse_event *ev)
{
	const char *colon = memchr(p, ':', n);
	size_t flen = colon != NULL ? (size_t)(colon - p) : n;
	const char *v = colon != NULL ? colon + 1 : p + n;
	size_t vlen = (size_t)(p + n - v);

	if (vlen > 0 && *v == ' ') {
		v++;
		vlen--;
	}
	if (flen == 5 && strncmp(p, "event", 5) == 0) {
		free(ev->name);
		ev->name = xstrndup(v, vlen);
	} else if (flen == 4 && strncmp(p, "data", 4) == 0) {
		if (ev->data.len > 0)
			llm_buf_add(&ev->data, "\n", 1);
		llm_buf_add(&ev->data, v, vlen);
	}
}

int
sse_next(const char **cursor, struct sse_event *ev)
{
	const char *p = *cursor, *line, *e;
	size_t n;
	bool any = false;

	sse_event_free(ev);
	llm_buf_add(&ev->data, "", 0);
	while (*p != '\0') {
		line = p;
		e = sse_eol(p);
		n = (size_t)(e - line);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		p = *e == '\n' ? e + 1 : e;
		if (n == 0) {
			if (any)
				break;	/* a blank line ends the event */
			continue;
		}
		any = true;
		if (line[0] != ':')	/* ':' starts a comment */
			sse_field(line, n, ev);
	}
	*cursor = p;
	return any ? 1 : 0;
}

void
sse_event_free(struct sse_event *ev)
{
	free(ev->name);
	llm_buf_free(&ev->data);
	ev->name = NULL;
}
