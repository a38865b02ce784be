/*
 * gate — the AST gate: inspects a world model's source before anything of
 * it executes and returns one verdict per refusal (DESIGN.md "Sandbox").
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

struct gate_result {
	bool			 accepted;
	char			 sha256[65];
	struct gate_verdict	*verdicts;
	int			 nverdicts;
};

/* Gates src (len bytes). Returns -1 only when the gate itself could not run
 * (err set); a refused model is a 0 return with accepted == false. */
int	gate_check_source(const char *src, size_t len, struct gate_result *out,
	    struct error *err);
void	gate_result_free(struct gate_result *);
/* DESIGN.md's `fronts gate --json` object. */
cJSON	*gate_result_json(const struct gate_result *);

#endif
