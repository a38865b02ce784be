/*
 * plan — a posting plan: the principal variation of a search as posts with
 * times, plus the strongest alternatives at each decision and the run's
 * statistics. Read and written as docs/DESIGN.md's `fronts plan --json` object
 * (the same object is PLAN.json for `fronts publish`).
 */
#ifndef FRONTS_PLAN_H
#define FRONTS_PLAN_H

#include <stdint.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/legal.h"
#include "core/model.h"
#include "core/project.h"
#include "core/search.h"
#include "core/util.h"

#define PLAN_HASH_LEN	16	/* hex digits of a project identity hash */

struct plan_post {
	int		 slot;
	time_t		 at;
	int		 front;		/* index into project.fronts */
	int		 draft;		/* index into project.drafts */
	char		*text;		/* owned; may differ from the draft (edited) */
	/* The texts of a thread's later parts once one was edited (owned,
	 * nlater of them: the body's parts after the first); NULL: the
	 * draft's. */
	char		**later;
	int		 nlater;
	double		 expected_reward;
	double		 ci_lo, ci_hi;
	bool		 reward_known;	/* false: the plan gave no expected_reward */
	uint64_t	 visits;
};

struct plan_alt {
	int		decision;	/* index of the plan step it competes with */
	int		slot;
	struct action	action;
	uint64_t	visits;
	double		mean;
};

struct plan_stats {
	uint64_t	iterations;
	uint64_t	model_calls;
	uint64_t	illegal_proposals;
	uint64_t	model_errors;
	double		seconds;
	double		model_seconds;
	int		workers;
	enum isolation	isolation;
	uint64_t	seed;
	bool		stopped;	/* stopped early: the search so far */
	char		sandbox[256];	/* the worker's layers; "": none */
	char		warning[256];	/* e.g. the start moved; "": none */
};

struct plan {
	struct plan_post	*posts;
	int			 nposts;
	struct plan_alt		*alts;
	int			 nalts;
	double			 expected_total;
	struct plan_stats	 stats;
	char			 model_sha256[65];
	char			 id[40];	/* stable id: hash of the plan's posts */
	/* The identity of the project it was made for ("project" in the
	 * JSON): its name and hashes of its fronts and of its drafts. */
	bool			 has_project;
	char			 project_name[128];
	char			 project_fronts[PLAN_HASH_LEN + 1];
	char			 project_drafts[PLAN_HASH_LEN + 1];
};

void	plan_free(struct plan *);	/* frees the members, not the struct */
/* A deep copy of src into dst (the caller's to plan_free): an edit of
 * one never shows in the other. */
void	plan_copy(struct plan *dst, const struct plan *src);
/* Hashes (PLAN_HASH_LEN hex digits) of the project's fronts and of its
 * drafts, as a plan records them. */
void	plan_project_hashes(const struct project *,
	    char fronts[PLAN_HASH_LEN + 1], char drafts[PLAN_HASH_LEN + 1]);
/* Whether plan pl is this project's: -1 with err when it names another
 * project; 0 otherwise, with a warning in warn (else "") when it was made
 * before the fronts or drafts changed, or carries no identity. */
int	plan_identity_check(const struct project *, const struct plan *pl,
	    char *warn, size_t len, struct error *err);
/* Whether the post's text, or the text of a later part, is not its
 * draft's. */
bool	plan_post_edited(const struct project *, const struct plan_post *);
/* The number of parts of the post (its front's body), and the text of
 * part k (0-based; 0 is pp->text), edited or the draft's. */
int	plan_post_nparts(const struct project *, const struct plan_post *);
const char *plan_post_part(const struct project *, const struct plan_post *,
	    int k);
/* Whether part k is not its draft's. */
bool	plan_post_part_edited(const struct project *, const struct plan_post *,
	    int k);
/* Sets part k's text to text (taken, owned by the post). */
void	plan_post_set_part(const struct project *, struct plan_post *, int k,
	    char *text);
/* docs/DESIGN.md's object. */
cJSON	*plan_to_json(const struct project *, const struct plan *);
/* Parses a PLAN.json object against project p; every error names the
 * field ("plan[2].front: unknown front \"y\""). A plan is bounded by what
 * the project can produce: no more posts than horizon slots times fronts
 * (refused before any post is read), no text over its front's limit. */
int	plan_from_json(const struct project *p, const cJSON *json,
	    struct plan *out, struct error *err);

/* Reads a PLAN.json file against p (errors name the file). */
int	plan_read_file(const struct project *p, const char *path,
	    struct plan *out, struct error *err);

/* Takes the plan's slot 0 (from its posts' times) as p's start, so slots
 * mean what they meant when it was made; true, with the warning `plan`
 * gives (project_passed_text) in warn, when that start lies before now. */
bool	plan_align_start(struct project *p, const struct plan *pl,
	    time_t now, char *warn, size_t len);

/* The plan of a finished search: the principal variation's posts replayed
 * through lg (this process's legality engine); a step it refuses is left
 * out and described in *dropped (*ndropped strings, the caller frees). The
 * caller fills out->stats and out->model_sha256. */
int	plan_build(const struct project *p, const struct legal *lg,
	    const struct search_result *r, struct plan *out, char ***dropped,
	    int *ndropped);

#endif
