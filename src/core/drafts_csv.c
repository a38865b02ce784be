/*
 * drafts_csv — drafts from the spreadsheet a team keeps them in: each row
 * of a CSV (read by csv.h) becomes a drafts.jsonl line, the columns named
 * by the operator's --map. Every row is checked as drafts.jsonl would
 * check it, and a bad one refuses the whole file, naming its line and
 * column; nothing is written then. Rows whose id drafts.jsonl (or an
 * earlier row) already has are reported and left out, so importing the
 * same sheet twice adds nothing.
 *
 * A row without an id column gets "csv-" and 10 hex digits of its text's
 * sha256: the same text always gets the same id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/drafts_csv.h"
#include "core/json.h"
#include "core/project_int.h"
#include "core/timeutil.h"

enum { COL_TEXT, COL_ID, COL_TOPICS, COL_FRONTS, COL_NOT_BEFORE,
    COL_NOT_AFTER, NCOLS };

static const char *const col_keys[NCOLS] = { "text", "id", "topics",
    "fronts", "not_before", "not_after" };

int
drafts_csv_map_parse(char *arg, struct drafts_csv_map *m)
{
	const char **slot[NCOLS] = { &m->text, &m->id, &m->topics, &m->fronts,
	    &m->not_before, &m->not_after };
	char *tok, *eq, *save = NULL;
	int i;

	memset(m, 0, sizeof *m);
	for (tok = strtok_r(arg, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL || eq[1] == '\0')
			return -1;
		*eq++ = '\0';
		for (i = 0; i < NCOLS && strcmp(tok, col_keys[i]) != 0; i++)
			;
		if (i == NCOLS || *slot[i] != NULL)
			return -1;
		*slot[i] = eq;
	}
	return m->text != NULL ? 0 : -1;
}

static void
note_add(char ***v, int *n, char *s)
{
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

void
drafts_import_free(struct drafts_import *im)
{
	json_strings_free(im->existing, im->nexisting);
	json_strings_free(im->skipped, im->nskipped);
	free(im->lines);
	memset(im, 0, sizeof *im);
}

/* A cell that lists things ("launch, pricing" or "x; bluesky"): its
 * items, trimmed, empty ones dropped. */
static cJSON *
cell_list(const char *s)
{
	cJSON *a = cJSON_CreateArray();
	const char *e;
	size_t n;

	while (*s != '\0') {
		while (*s == ' ' || *s == '\t' || *s == ',' || *s == ';')
			s++;
		e = s + strcspn(s, ",;");
		n = (size_t)(e - s);
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n > 0) {
			char *item = xstrndup(s, n);

			cJSON_AddItemToArray(a, cJSON_CreateString(item));
			free(item);
		}
		s = e;
	}
	return a;
}

struct row {
	const struct project	*p;
	const struct csv	*c;
	const char *const	*want;	/* the column names, by COL_ */
	const int		*cols;
	struct error		*err;
};

static int
row_fail(const struct row *r, int col, const char *fmt, const char *value)
{
	char what[200];

	snprintf(what, sizeof what, fmt, value);
	return error_set(r->err, EXIT_ERROR, "%s: line %d: column \"%s\" (%s): "
	    "%s", r->c->name, r->c->at, r->want[col], col_keys[col],
	    what);
}

static int
row_fronts(const struct row *r, cJSON *o)
{
	const char *s = csv_cell(r->c, r->cols[COL_FRONTS]);
	cJSON *a, *f;

	if (r->cols[COL_FRONTS] < 0 || *s == '\0')
		return 0;
	if (cJSON_GetArraySize(a = cell_list(s)) == 0) {
		cJSON_Delete(a);
		return 0;
	}
	cJSON_AddItemToObject(o, "fronts", a);
	cJSON_ArrayForEach(f, a)
		if (project_front_index(r->p, f->valuestring) < 0)
			return row_fail(r, COL_FRONTS, "\"%.60s\" is not a front "
			    "in fronts.json", f->valuestring);
	return 0;
}

static int
row_time(const struct row *r, int col, cJSON *o)
{
	const char *s = csv_cell(r->c, r->cols[col]);
	time_t t;

	if (r->cols[col] < 0 || *s == '\0')
		return 0;
	if (time_parse_iso(s, &t) != 0)
		return row_fail(r, col, "\"%.40s\" is not an ISO-8601 time with "
		    "offset (2026-12-01T10:00:00+01:00 or …Z)", s);
	cJSON_AddStringToObject(o, col_keys[col], s);
	return 0;
}

/* The id of a row: its id cell, or one made from its text. */
static void
row_id(const struct row *r, const char *text, char *id, size_t len)
{
	const char *s = csv_cell(r->c, r->cols[COL_ID]);
	char hex[65];

	if (r->cols[COL_ID] >= 0 && *s != '\0') {
		snprintf(id, len, "%s", s);
		return;
	}
	sha256_hex(text, strlen(text), hex);
	snprintf(id, len, "csv-%.10s", hex);
}

/* One row as a drafts.jsonl object (NULL after an error). */
static cJSON *
row_json(const struct row *r, char *id, size_t idlen)
{
	const char *text = csv_cell(r->c, r->cols[COL_TEXT]);
	const char *topics = csv_cell(r->c, r->cols[COL_TOPICS]);
	cJSON *o;

	if (!json_utf8_valid(text, strlen(text)))
		return row_fail(r, COL_TEXT, "%s", "not valid UTF-8"), NULL;
	row_id(r, text, id, idlen);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", id);
	cJSON_AddStringToObject(o, "text", text);
	if (r->cols[COL_TOPICS] >= 0 && *topics != '\0')
		cJSON_AddItemToObject(o, "topics", cell_list(topics));
	/* Then every rule of drafts.jsonl, on this line of the CSV. */
	if (row_fronts(r, o) != 0 || row_time(r, COL_NOT_BEFORE, o) != 0 ||
	    row_time(r, COL_NOT_AFTER, o) != 0 ||
	    project_draft_check(r->p, r->c->name, r->c->at, o, r->err) != 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Whether id is taken: by drafts.jsonl, or by a row before this one
 * (ids, the new ones so far, n of them). */
static const char *
id_taken(const struct project *p, char *const *ids, int n, const char *id)
{
	int i;

	if (project_draft_index(p, id) >= 0)
		return "drafts.jsonl";
	for (i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return "an earlier row";
	return NULL;
}

static int
import_rows(struct csv *c, const struct row *r, struct drafts_import *im,
    char ***ids, int *nids)
{
	char id[160], *line, *note;
	const char *where;
	cJSON *o;
	int rc;

	while ((rc = csv_next(c, r->err)) == 0 && c->nf > 0) {
		if (*csv_cell(c, r->cols[COL_TEXT]) == '\0') {
			xasprintf(&note, "line %d: no text", c->at);
			note_add(&im->skipped, &im->nskipped, note);
			continue;
		}
		if ((o = row_json(r, id, sizeof id)) == NULL)
			return -1;
		if ((where = id_taken(r->p, *ids, *nids, id)) != NULL) {
			xasprintf(&note, "line %d: id \"%s\" already in %s", c->at,
			    id, where);
			note_add(&im->existing, &im->nexisting, note);
			cJSON_Delete(o);
			continue;
		}
		note_add(ids, nids, xstrdup(id));
		line = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
		im->lines = xrealloc(im->lines, im->len + strlen(line) + 2);
		memcpy(im->lines + im->len, line, strlen(line));
		im->len += strlen(line);
		im->lines[im->len++] = '\n';
		im->lines[im->len] = '\0';
		im->added++;
		free(line);
	}
	return rc;
}

int
drafts_csv_read(const struct project *p, const char *name, const char *data,
    size_t len, const struct drafts_csv_map *m, struct drafts_import *im,
    struct error *err)
{
	const char *want[NCOLS] = { m->text, m->id, m->topics, m->fronts,
	    m->not_before, m->not_after };
	bool req[NCOLS];
	struct csv c;
	struct row r = { p, &c, want, NULL, err };
	char **ids = NULL;
	int cols[NCOLS], nids = 0, i, rc;

	memset(im, 0, sizeof *im);
	for (i = 0; i < NCOLS; i++)
		req[i] = want[i] != NULL;
	r.cols = cols;
	csv_init(&c, name, data, len);
	if ((rc = csv_header(&c, want, req, NCOLS, cols, err)) == 0)
		rc = import_rows(&c, &r, im, &ids, &nids);
	csv_clear(&c);
	json_strings_free(ids, nids);
	if (rc != 0)
		drafts_import_free(im);
	return rc;
}

int
drafts_append(const char *dir, const struct drafts_import *im,
    struct error *err)
{
	char *path = path_join(dir, "drafts.jsonl"), *old = NULL, *all;
	size_t olen = 0, n;
	int rc;

	if (file_read(path, &old, &olen, err) != 0) {
		free(path);
		return -1;
	}
	/* A last line without its newline keeps its own line. */
	n = olen + (olen > 0 && old[olen - 1] != '\n') + im->len;
	all = xmalloc(n + 1);
	memcpy(all, old, olen);
	if (olen > 0 && old[olen - 1] != '\n')
		all[olen++] = '\n';
	memcpy(all + olen, im->lines, im->len);
	rc = file_write_atomic(path, all, n, err);
	free(all);
	free(old);
	free(path);
	return rc;
}
