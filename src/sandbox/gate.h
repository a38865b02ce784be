/*
 * gate — the AST gate: inspects a world model's source before anything of
 * it executes and returns one verdict per refusal (docs/DESIGN.md "Sandbox").
 * The rules are Python (src/sandbox/py/gate.py, compiled into the binary)
 * run with Python's own parser in the embedded interpreter; SECURITY.md
 * explains each rule.
 */
#ifndef FRONTS_GATE_H
#define FRONTS_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/util.h"

struct gate_verdict {
	int	 line;		/* 1-based */
	int	 col;		/* 0-based, as Python's ast reports it */
	char	*rule;		/* "import", "forbidden-name", "syntax", … */
	char	*message;
};

/*
 * The verdicts kept of a source: the first GATE_VERDICTS_MAX by position.
 * A source can draw one per few bytes (a million-byte line of `a._;` draws
 * a quarter of a million), so the rest are only counted: everything that
 * reports verdicts shows these and then "and N more".
 */
#define GATE_VERDICTS_MAX	100

struct gate_result {
	bool			 accepted;
	char			 sha256[65];
	struct gate_verdict	*verdicts;
	int			 nverdicts;	/* kept */
	int			 nmore;		/* past those, counted only */
};

/* What the approval screen shows about a source besides its verdicts. */
struct gate_summary {
	int	  lines;
	char	**functions;	/* top-level `def` names, in order */
	int	  nfunctions;
	char	**classes;
	int	  nclasses;
};

/* Gates src (len bytes). Returns -1 only when the gate itself could not run
 * (err set); a refused model is a 0 return with accepted == false. Starts
 * the interpreter if needed; takes and releases the GIL itself. */
int	gate_check_source(const char *src, size_t len, struct gate_result *out,
	    struct error *err);
/* Reads path and gates it; the source is returned in *src (caller frees)
 * when src is not NULL. I/O errors are EXIT_ERROR naming the file. */
int	gate_check_file(const char *path, struct gate_result *out, char **src,
	    size_t *len, struct error *err);
void	gate_result_free(struct gate_result *);
/* Counts lines and lists top-level functions and classes (parsed, never
 * executed). */
int	gate_summarize(const char *src, size_t len, struct gate_summary *out,
	    struct error *err);
void	gate_summary_free(struct gate_summary *);
/* Every verdict the gate drew, kept or not. */
int	gate_result_total(const struct gate_result *);
/* docs/DESIGN.md's `fronts gate --json` object; with "more": N when N verdicts
 * past the kept ones were left out. */
cJSON	*gate_result_json(const struct gate_result *);
/* One "FILE:LINE:COL: rule: message\n" line per kept verdict, then
 * "FILE: and N more verdicts\n" when some were left out (caller frees). */
char	*gate_result_text(const char *file, const struct gate_result *);

#endif
