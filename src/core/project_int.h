/*
 * project_int — what the loaders of a project directory share
 * (project.c, project_fronts.c, project_jsonl.c, project_draft.c,
 * project_ctx.c).
 */
#ifndef FRONTS_PROJECT_INT_H
#define FRONTS_PROJECT_INT_H

#include "core/json.h"
#include "core/project.h"

/* The metrics of a history post, in the order of metrics_set's bits. */
#define PROJECT_NMETRICS 5
extern const char *const project_metric_names[PROJECT_NMETRICS + 1];

/* A checked-read location in FILE whose warnings go to p. */
struct json_loc	project_loc(struct project *p, const char *file,
		    struct error *err);
/* An id of at most 128 bytes without control characters; strict ones
 * (front ids) only of [A-Za-z0-9_.-]. */
int	project_check_id(const struct json_loc *, const char *field,
	    const char *id, bool strict);

int	project_load_fronts(struct project *, const char *path,
	    struct error *);
int	project_load_history(struct project *, const char *path,
	    struct error *);
int	project_load_drafts(struct project *, const char *path,
	    struct error *);

int	project_load_pins(struct project *, const char *path,
	    struct error *);

/* A draft's body, variants and window from its drafts.jsonl object
 * (after its fronts: a variant no front of it uses is warned about). */
int	project_draft_load_shape(const struct json_loc *,
	    const struct project *, const cJSON *obj, struct draft *);

/* Reads every image the drafts name into its facts (never fails: an
 * image that cannot be read keeps its problem). */
void	project_probe_media(struct project *);

void	project_history_free(struct history_post *);
void	project_draft_free(struct draft *);

#endif
