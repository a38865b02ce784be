/*
 * csv — an RFC 4180 reader over a file held in memory, one record at a
 * time, for the spreadsheets operators import (history exports, drafts).
 */
#ifndef FRONTS_CSV_H
#define FRONTS_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct csv {
	const char	*name;		/* the file, for messages */
	const char	*data;
	size_t		 len;
	size_t		 off;
	int		 line;		/* of the next record */
	char		**f;		/* the current record's fields */
	int		 nf;
	int		 at;		/* the line the current record began on */
};

void	csv_init(struct csv *, const char *name, const char *data,
	    size_t len);
/* Reads the next record into f/nf; 0 with nf == 0 at the end of the
 * file; -1 (err names the line and column) for a malformed one. */
int	csv_next(struct csv *, struct error *err);
/* Reads the header record: cols[i] is the column named want[i] (any
 * case; a UTF-8 BOM is ignored), -1 when absent; a required one absent
 * is refused. want[i] may be NULL (absent). */
int	csv_header(struct csv *, const char *const *want,
	    const bool *required, int nwant, int *cols, struct error *err);
/* The index of the column named name in the header record hdr. */
int	csv_column(const struct csv *hdr, int nh, const char *name);
/* The current record's field col ("" when it has fewer). */
const char *csv_cell(const struct csv *, int col);
/* Frees the current record. */
void	csv_clear(struct csv *);
/* "line L, column C" of offset off in data. */
void	csv_position(const char *data, size_t off, char *buf, size_t size);

#endif
