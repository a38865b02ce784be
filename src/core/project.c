/*
 * project — loads and validates a project directory as one unit.
 *
 * Every check names the file, the line (for JSON lines), the field and
 * what was expected, so the operator can fix the input without guessing.
 * Loading builds a private struct project and hands it over only when
 * every file passed: a failure frees everything, nothing is half-loaded.
 * Unknown fields are kept as warnings, not errors, so files written by a
 * newer version still load. The files themselves are read by
 * project_fronts.c and project_jsonl.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/instlimits.h"
#include "core/project_int.h"
#include "core/timeutil.h"

static const char *platform_names[PLATFORM_COUNT] = {
	"x", "linkedin", "bluesky", "mastodon", "threads", "reddit"
};

int
platform_from_name(const char *name)
{
	int i;

	for (i = 0; i < PLATFORM_COUNT; i++)
		if (name != NULL && strcmp(name, platform_names[i]) == 0)
			return i;
	return -1;
}

const char *
platform_name(enum platform p)
{
	return (unsigned)p < PLATFORM_COUNT ? platform_names[p] : "?";
}

const char *const project_metric_names[PROJECT_NMETRICS + 1] = {
	"impressions", "likes", "reposts", "replies", "clicks", NULL
};

struct json_loc
project_loc(struct project *p, const char *file, struct error *err)
{
	return (struct json_loc){ file, 0, err, &p->warnings, &p->nwarnings };
}

static bool
id_char_ok(unsigned char c, bool strict)
{
	if (strict)
		return isalnum(c) || c == '_' || c == '-' || c == '.';
	return c >= 0x20 && c != 0x7f;
}

/* Ids appear in actions, plans and on screen: non-empty, at most 128
 * bytes, no control characters; front ids only [A-Za-z0-9_.-]. */
int
project_check_id(const struct json_loc *l, const char *field, const char *id,
    bool strict)
{
	const char *c;

	if (strlen(id) > 128)
		return json_fail(l, field, NULL, "expected an id of at most 128 bytes");
	for (c = id; *c != '\0'; c++)
		if (!id_char_ok((unsigned char)*c, strict))
			return json_fail(l, field, NULL, strict ?
			    "expected an id of letters, digits, '_', '-' or '.'" :
			    "expected an id without control characters");
	return 0;
}

static int
load_rules(struct project *p, const char *path, struct error *err)
{
	struct json_loc l = project_loc(p, path, err);
	size_t len;

	if (file_read(path, &p->rules, &len, err) != 0)
		return -1;
	if (memchr(p->rules, '\0', len) != NULL ||
	    !json_utf8_valid(p->rules, len))
		return json_fail(&l, NULL, NULL, "expected UTF-8 text");
	return 0;
}

/* Settles the clock once the zone is known, then warns about history that
 * lies in the future of the plan. */
static void
settle_start(struct project *p, const char *history_path)
{
	struct json_loc l = project_loc(p, history_path, NULL);
	int i;

	if (p->start_now)
		p->start = time_round_up_slot(clock_now(), p->slot_minutes);
	for (i = 0; i < p->nhistory; i++)
		if (p->history[i].posted_at > p->start) {
			l.line = p->history[i].line;
			json_warn(&l, "field \"posted_at\": after the plan's start");
		}
}

/* Drafts written without topics get the ones fronts.json's rules give
 * their text. "topics": [] counts as none, and its empty array is freed
 * before the tagged one takes its place. */
static void
tag_drafts(struct project *p)
{
	struct draft *d;
	int i;

	for (i = 0; i < p->ndrafts; i++) {
		d = &p->drafts[i];
		if (d->ntopics != 0)
			continue;
		json_strings_free(d->topics, 0);
		d->ntopics = topics_tag_strings(&p->topics, d->text,
		    &d->topics);
	}
}

static int
load_all(struct project *p, struct error *err)
{
	char *fronts = path_join(p->dir, "fronts.json");
	char *rules = path_join(p->dir, "rules.md");
	char *history = path_join(p->dir, "history.jsonl");
	char *drafts = path_join(p->dir, "drafts.jsonl");
	char *pins = path_join(p->dir, "pins.jsonl");
	char *warning;
	int rc = -1;

	if (project_load_fronts(p, fronts, err) != 0 ||
	    load_rules(p, rules, err) != 0 ||
	    project_load_history(p, history, err) != 0 ||
	    project_load_drafts(p, drafts, err) != 0 ||
	    project_load_pins(p, pins, err) != 0)
		goto out;
	if (timeutil_set_zone(p->timezone) != 0) {
		error_set(err, EXIT_ERROR, "%s: field \"timezone\": cannot use "
		    "time zone \"%s\"", fronts, p->timezone);
		goto out;
	}
	settle_start(p, history);
	tag_drafts(p);
	objective_derive(p);
	instlimits_apply(p, &warning);
	project_probe_media(p);
	if (warning != NULL) {
		p->warnings = xrealloc(p->warnings,
		    (p->nwarnings + 1) * sizeof *p->warnings);
		p->warnings[p->nwarnings++] = warning;
	}
	rc = 0;
out:
	free(fronts);
	free(rules);
	free(history);
	free(drafts);
	free(pins);
	return rc;
}

int
project_load(const char *dir, struct project **out, struct error *err)
{
	struct project *p = xcalloc(1, sizeof *p);

	*out = NULL;
	p->dir = xstrdup(dir != NULL ? dir : ".");
	if (load_all(p, err) != 0) {
		project_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

void
project_free(struct project *p)
{
	int i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nfronts; i++) {
		free(p->fronts[i].id);
		free(p->fronts[i].account);
		cJSON_Delete(p->fronts[i].raw);
	}
	free(p->fronts);
	free(p->front_objective);
	for (i = 0; i < p->nhistory; i++)
		project_history_free(&p->history[i]);
	free(p->history);
	for (i = 0; i < p->ndrafts; i++)
		project_draft_free(&p->drafts[i]);
	free(p->drafts);
	for (i = 0; i < p->npins; i++)
		free(p->pins[i].at_text);
	free(p->pins);
	json_strings_free(p->warnings, p->nwarnings);
	topics_free(&p->topics);
	free(p->dir);
	free(p->name);
	free(p->timezone);
	free(p->provider_name);
	free(p->provider_model);
	free(p->rules);
	free(p);
}

int
project_front_index(const struct project *p, const char *id)
{
	int i;

	for (i = 0; id != NULL && i < p->nfronts; i++)
		if (p->fronts[i].id != NULL && strcmp(p->fronts[i].id, id) == 0)
			return i;
	return -1;
}

int
project_draft_index(const struct project *p, const char *id)
{
	int i;

	for (i = 0; id != NULL && i < p->ndrafts; i++)
		if (strcmp(p->drafts[i].id, id) == 0)
			return i;
	return -1;
}

bool
project_draft_allows(const struct project *p, int draft, int front)
{
	return draft >= 0 && draft < p->ndrafts && front >= 0 &&
	    front < p->nfronts &&
	    (p->drafts[draft].front_mask & (UINT64_C(1) << front)) != 0;
}

time_t
project_slot_time(const struct project *p, int slot)
{
	return p->start + (time_t)slot * p->slot_minutes * 60;
}

time_t
project_next_slot(const struct project *p, time_t start, time_t now)
{
	time_t slot = (time_t)p->slot_minutes * 60;

	if (start >= now || slot <= 0)
		return start;
	return start + (now - start + slot - 1) / slot * slot;
}

bool
project_start_at(struct project *p, time_t now)
{
	if (p->start >= now || p->slot_minutes <= 0)
		return false;
	p->start_passed = p->start;
	p->start = project_next_slot(p, p->start, now);
	return true;
}

int
project_draft_pins(const struct project *p, int d, int *out, int max)
{
	int i, n = 0;

	for (i = 0; i < p->npins && n < max; i++)
		if (p->pins[i].draft == d)
			out[n++] = i;
	return n;
}

void
project_passed_text(time_t was, time_t next, char *buf, size_t len)
{
	char a[40], b[40];

	time_format_local(was, a, sizeof a);
	time_format_local(next, b, sizeof b);
	snprintf(buf, len, "the plan's start, %s, has passed: the next slot "
	    "from now is %s", a, b);
}
