/*
 * synth_job — one whole synthesis as `fronts synth` and the TUI's `s`
 * run it: the provider chosen (falling back to recordings when its key
 * is not set), the rounds (runs/synth.h) with each candidate validated in
 * the sandbox worker, the best candidate written (unapproved) with its
 * conformance verdict kept, and the report in .fronts/. Nothing here
 * prints: progress goes through the callback, the rest is the result.
 * Safe to run on a thread of its own; the cancel flag stops it.
 */
#ifndef FRONTS_SYNTH_JOB_H
#define FRONTS_SYNTH_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/project.h"
#include "core/util.h"
#include "runs/synth.h"

struct synth_job_opts {
	const char	*dir;
	const char	*provider;	/* NULL: fronts.json's; "builtin" */
	const char	*model;		/* NULL: fronts.json's or the default */
	const char	*out;		/* NULL: DIR/model.py */
	const char	*fixtures;	/* recordings: only here when set */
	bool		 record;
	bool		 from_builtin;
	int		 rounds;
	long		 timeout_ms;
	uint64_t	 seed;
	double		 time_limit;	/* per candidate; 0: the default */
	long		 memory_mb;	/* 0: the worker's default */
	/* One line of progress at a time ("round 1: asking …"); the line
	 * quotes servers and models, so it is for termsafe output. */
	void		(*progress)(void *arg, const char *line);
	void		*progress_arg;
	/* Set by another thread: the request or validation under way stops,
	 * nothing is written, and the answer is an error. NULL: never. */
	const atomic_bool *cancel;
};

struct synth_job_result {
	struct synth_result	 r;		/* every candidate */
	bool			 ran;		/* r holds a run */
	/* The best candidate's file (NULL: nothing written), and of its
	 * conformance checks those that failed. */
	char			*written;
	char			 failed[256];
	struct error		 keep_err;	/* its verdict was not kept */
	char			*report;	/* the report's path, or NULL */
	struct error		 report_err;	/* why it was not written */
};

/* Runs a synthesis for p (loaded from opts->dir). -1 with err when it
 * failed (the provider, no candidate passing the gate, the best still
 * failing checks: written for review all the same); *out says how far
 * it got either way and is the caller's to synth_job_result_free(). */
int	synth_job_run(const struct project *p, const struct synth_job_opts *,
	    struct synth_job_result *out, struct error *err);
void	synth_job_result_free(struct synth_job_result *);

#endif
