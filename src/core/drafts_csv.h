/*
 * drafts_csv — `fronts drafts import FILE.csv --map text=COL,…`: drafts
 * from a spreadsheet, checked row by row, appended to drafts.jsonl whole
 * (temp file, fsync, rename) or not at all.
 */
#ifndef FRONTS_DRAFTS_CSV_H
#define FRONTS_DRAFTS_CSV_H

#include <stddef.h>

#include "core/project.h"
#include "core/util.h"

/* The CSV's columns, by header name (any case); text is required. */
struct drafts_csv_map {
	const char	*text;
	const char	*id;
	const char	*topics;	/* "launch, pricing" (or ';') */
	const char	*fronts;	/* front ids, the same way */
	const char	*not_before;	/* ISO-8601 with offset */
	const char	*not_after;
};

/* What an import would add. */
struct drafts_import {
	char	*lines;		/* the new drafts.jsonl lines */
	size_t	 len;
	int	 added;
	char	**existing;	/* "line 4: id \"d3\" already in drafts.jsonl" */
	int	 nexisting;
	char	**skipped;	/* "line 9: no text" */
	int	 nskipped;
};

/* "text=Post,id=ID,topics=Tags": names point into arg (edited); -1 for a
 * key it does not know, one given twice, or no text. */
int	drafts_csv_map_parse(char *arg, struct drafts_csv_map *);
/* Reads the CSV data (name for messages) against project p; a bad row is
 * an error naming its line and column, and *im then holds nothing. */
int	drafts_csv_read(const struct project *p, const char *name,
	    const char *data, size_t len, const struct drafts_csv_map *,
	    struct drafts_import *im, struct error *err);
/* Appends im's lines to DIR/drafts.jsonl (temp file, fsync, rename). */
int	drafts_append(const char *dir, const struct drafts_import *im,
	    struct error *err);
void	drafts_import_free(struct drafts_import *);

#endif
