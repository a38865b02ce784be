/*
 * csv — an RFC 4180 reader for the spreadsheets operators import (history
 * exports, drafts): fields in double quotes may hold commas, line breaks
 * and doubled quotes; CRLF or LF ends a record; a quote left open at the
 * end of the file is refused as truncated. Errors name the file and the
 * line (and column) where the record went wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/csv.h"

void
csv_position(const char *data, size_t off, char *buf, size_t size)
{
	size_t i, line = 1, col = 1;

	for (i = 0; i < off; i++) {
		if (data[i] == '\n') {
			line++;
			col = 1;
		} else
			col++;
	}
	snprintf(buf, size, "line %zu, column %zu", line, col);
}

void
csv_init(struct csv *c, const char *name, const char *data, size_t len)
{
	memset(c, 0, sizeof *c);
	c->name = name;
	c->data = data;
	c->len = len;
	c->line = 1;
}

void
csv_clear(struct csv *c)
{
	int i;

	for (i = 0; i < c->nf; i++)
		free(c->f[i]);
	free(c->f);
	c->f = NULL;
	c->nf = 0;
}

static void
csv_field(struct csv *c, const char *s, size_t n)
{
	c->f = xrealloc(c->f, (size_t)(c->nf + 1) * sizeof *c->f);
	c->f[c->nf++] = xstrndup(s, n);
}

/* A quoted field starting after its opening quote; -1 when unclosed. */
static int
csv_quoted(struct csv *c, struct error *err)
{
	char *buf = xmalloc(c->len - c->off + 1);
	size_t n = 0;
	char pos[64];

	while (c->off < c->len) {
		char ch = c->data[c->off++];
		if (ch == '"') {
			if (c->off < c->len && c->data[c->off] == '"') {
				buf[n++] = '"';
				c->off++;
				continue;
			}
			csv_field(c, buf, n);
			free(buf);
			return 0;
		}
		if (ch == '\r' && c->off < c->len && c->data[c->off] == '\n')
			continue;	/* a line break inside the text is "\n" */
		if (ch == '\n')
			c->line++;
		buf[n++] = ch;
	}
	free(buf);
	csv_position(c->data, c->len, pos, sizeof pos);
	return error_set(err, EXIT_ERROR, "%s: %s: the file ends inside a "
	    "quoted field opened in the record of line %d (truncated?)",
	    c->name, pos, c->at);
}

int
csv_next(struct csv *c, struct error *err)
{
	size_t s;
	char pos[64];

	csv_clear(c);
	while (c->off < c->len && (c->data[c->off] == '\n' ||
	    c->data[c->off] == '\r')) {
		if (c->data[c->off++] == '\n')
			c->line++;
	}
	if (c->off >= c->len)
		return 0;
	c->at = c->line;
	for (;;) {
		if (c->off >= c->len) {
			/* A comma ended the file: the last field is empty
			 * (data need not end in a NUL). */
			csv_field(c, "", 0);
			break;
		}
		if (c->data[c->off] == '"') {
			c->off++;
			if (csv_quoted(c, err) != 0)
				return -1;
		} else {
			s = c->off;
			while (c->off < c->len && strchr(",\r\n",
			    c->data[c->off]) == NULL) {
				if (c->data[c->off] == '"' || c->data[c->off] == '\0') {
					csv_position(c->data, c->off, pos,
					    sizeof pos);
					return error_set(err, EXIT_ERROR, "%s: %s: a "
					    "quote or NUL inside an unquoted field",
					    c->name, pos);
				}
				c->off++;
			}
			csv_field(c, c->data + s, c->off - s);
		}
		if (c->off >= c->len || c->data[c->off] != ',')
			break;
		c->off++;
	}
	if (c->off < c->len && c->data[c->off] != '\r' &&
	    c->data[c->off] != '\n') {
		csv_position(c->data, c->off, pos, sizeof pos);
		return error_set(err, EXIT_ERROR, "%s: %s: expected a comma or "
		    "the end of the record after a quoted field", c->name,
		    pos);
	}
	return 0;
}

int
csv_column(const struct csv *hdr, int nh, const char *name)
{
	int i;

	for (i = 0; name != NULL && i < nh; i++)
		if (strcasecmp(hdr->f[i], name) == 0)
			return i;
	return -1;
}

int
csv_header(struct csv *c, const char *const *want, const bool *required,
    int nwant, int *cols, struct error *err)
{
	int i;

	if (csv_next(c, err) != 0)
		return -1;
	if (c->nf == 0)
		return error_set(err, EXIT_ERROR, "%s: empty file", c->name);
	if (c->nf > 0 && strncmp(c->f[0], "\xEF\xBB\xBF", 3) == 0)
		memmove(c->f[0], c->f[0] + 3, strlen(c->f[0] + 3) + 1);
	for (i = 0; i < nwant; i++) {
		cols[i] = csv_column(c, c->nf, want[i]);
		if (cols[i] < 0 && required[i])
			return error_set(err, EXIT_ERROR, "%s: line 1: no "
			    "column \"%s\"", c->name, want[i]);
	}
	return 0;
}

const char *
csv_cell(const struct csv *c, int col)
{
	return col >= 0 && col < c->nf ? c->f[col] : "";
}
