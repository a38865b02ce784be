/*
 * accuracy — a model's validation report (with its backtest) for the
 * TUI, which must show how good a model is before the operator approves
 * it, without running unapproved code: the report synthesis made when it
 * validated those exact bytes in the sandbox worker, found by sha256 in
 * .fronts/synth-*.json (the newest that has it). An approved model can
 * be run afresh in the worker (worker_validate_report).
 */
#ifndef FRONTS_ACCURACY_H
#define FRONTS_ACCURACY_H

#include <stddef.h>

#include "core/project.h"
#include "core/validate.h"

/* 0 with *out from the newest synthesis report that validated sha, and
 * the report's file name in source; -1 when none did. Every figure is
 * recomputed from p (validate_report_from_json). */
int	accuracy_from_synth(const struct project *p, const char *sha,
	    struct validate_report *out, char *source, size_t len);

#endif
