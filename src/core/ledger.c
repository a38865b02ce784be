/*
 * ledger — reading and appending .fronts/ledger.jsonl (see ledger.h).
 *
 * Records are replayed in file order into one entry per post; the file is
 * the only truth, the in-memory entries are rebuilt from it on every open.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/json.h"
#include "core/ledger.h"
#include "core/statedir.h"
#include "core/timeutil.h"

#define LEDGER_FILE	"ledger.jsonl"

const char *
ledger_state_name(enum ledger_state s)
{
	switch (s) {
	case LEDGER_SENT:
		return "sent";
	case LEDGER_FAILED:
		return "failed";
	case LEDGER_SKIPPED:
		return "skipped";
	case LEDGER_PENDING:
	case LEDGER_UNKNOWN:
		break;
	}
	return "unknown";
}

void
ledger_entry_id(const char *plan, int slot, const char *front,
    const char *draft, const char *text, char out[LEDGER_ID_LEN])
{
	char tsha[65], hex[65], *buf;
	int n;

	sha256_hex(text, strlen(text), tsha);
	n = xasprintf(&buf, "%s\n%d\n%s\n%s\n%s", plan, slot, front, draft,
	    tsha);
	sha256_hex(buf, (size_t)n, hex);
	free(buf);
	out[0] = 'e';
	memcpy(out + 1, hex, LEDGER_ID_LEN - 2);
	out[LEDGER_ID_LEN - 1] = '\0';
}

void
ledger_part_id(const char *plan, int slot, const char *front,
    const char *draft, int part, const char *text, char out[LEDGER_ID_LEN])
{
	char *d;

	if (part <= 1) {
		ledger_entry_id(plan, slot, front, draft, text, out);
		return;
	}
	xasprintf(&d, "%s#%d", draft, part);
	ledger_entry_id(plan, slot, front, d, text, out);
	free(d);
}

struct ledger_entry *
ledger_find(const struct ledger *l, const char *id)
{
	int i;

	for (i = 0; i < l->nentries; i++)
		if (strcmp(l->entries[i].id, id) == 0)
			return &l->entries[i];
	return NULL;
}

static void
ledger_problem(struct ledger *l, int line, const char *fmt, const char *arg)
{
	char *msg, *full;

	xasprintf(&msg, fmt, arg);
	xasprintf(&full, "%s:%d: %s", l->path, line, msg);
	free(msg);
	l->problems = xrealloc(l->problems,
	    (size_t)(l->nproblems + 1) * sizeof *l->problems);
	l->problems[l->nproblems++] = full;
}

static void
entry_set(char **field, const char *value)
{
	free(*field);
	*field = value != NULL ? xstrdup(value) : NULL;
}

/* A plan slot: a whole number, as plan_from_json() reads it. */
static bool
ledger_slot_ok(const cJSON *v)
{
	long n;

	return json_int_in(v, 0, 1000000000L, &n);
}

/* A thread's "part" of "parts": both or neither, 1 <= part <= parts. */
static bool
ledger_part_ok(const cJSON *rec, int *part, int *nparts)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(rec, "part");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(rec, "parts");
	long a, b;

	*part = *nparts = 0;
	if (p == NULL && n == NULL)
		return true;
	if (!json_int_in(p, 1, 1000, &a) || !json_int_in(n, 2, 1000, &b) ||
	    a > b)
		return false;
	*part = (int)a;
	*nparts = (int)b;
	return true;
}

/* Applies an intent record; returns a message on a malformed one. */
static const char *
ledger_apply_intent(struct ledger *l, const cJSON *rec, int line)
{
	const char *id = json_str(rec, "entry"), *at = json_str(rec, "at");
	const char *time = json_str(rec, "time"), *sha;
	const cJSON *slot = cJSON_GetObjectItemCaseSensitive(rec, "slot");
	struct ledger_entry *e;
	time_t tat, tnow;
	int part, nparts;

	sha = json_str(rec, "text_sha256");
	if (id == NULL || strlen(id) != LEDGER_ID_LEN - 1)
		return "intent: missing or malformed \"entry\"";
	if (json_str(rec, "plan") == NULL || json_str(rec, "front") == NULL ||
	    json_str(rec, "draft") == NULL || json_str(rec, "channel") == NULL ||
	    !ledger_slot_ok(slot) || sha == NULL || strlen(sha) != 64)
		return "intent: missing plan, slot, front, draft, channel or "
		    "text_sha256";
	if (at == NULL || time_parse_iso(at, &tat) != 0 || time == NULL ||
	    time_parse_iso(time, &tnow) != 0)
		return "intent: missing or malformed \"at\" or \"time\"";
	if (!ledger_part_ok(rec, &part, &nparts))
		return "intent: \"part\" and \"parts\" must be whole numbers, "
		    "1 <= part <= parts";
	if ((e = ledger_find(l, id)) == NULL) {
		l->entries = xrealloc(l->entries,
		    (size_t)(l->nentries + 1) * sizeof *l->entries);
		e = &l->entries[l->nentries++];
		memset(e, 0, sizeof *e);
		memcpy(e->id, id, LEDGER_ID_LEN);
	}
	entry_set(&e->plan, json_str(rec, "plan"));
	entry_set(&e->front, json_str(rec, "front"));
	entry_set(&e->draft, json_str(rec, "draft"));
	entry_set(&e->channel, json_str(rec, "channel"));
	entry_set(&e->key, json_str(rec, "key"));
	entry_set(&e->post_id, NULL);
	entry_set(&e->cid, NULL);
	entry_set(&e->url, NULL);
	e->part = part;
	e->nparts = nparts;
	entry_set(&e->reason, NULL);
	memcpy(e->text_sha256, sha, 65);
	e->slot = slot->valueint;
	e->at = tat;
	e->attempted = tnow;
	e->attempts++;
	e->state = LEDGER_PENDING;
	e->settled = false;
	e->edited = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec,
	    "edited"));
	e->line = line;
	return NULL;
}

static const char *
ledger_apply_outcome(struct ledger *l, const cJSON *rec, const char *kind,
    int line)
{
	const char *id = json_str(rec, "entry");
	struct ledger_entry *e;

	if (id == NULL || (e = ledger_find(l, id)) == NULL)
		return "outcome for an entry with no intent";
	if (strcmp(kind, "settle") == 0) {
		const char *st = json_str(rec, "state");

		if (st == NULL || (strcmp(st, "sent") != 0 &&
		    strcmp(st, "failed") != 0))
			return "settle: \"state\" must be \"sent\" or \"failed\"";
		e->state = strcmp(st, "sent") == 0 ? LEDGER_SENT :
		    LEDGER_FAILED;
		e->settled = true;
	} else if (e->state != LEDGER_PENDING)
		return "second outcome for one attempt";
	else if (strcmp(kind, "sent") == 0)
		e->state = LEDGER_SENT;
	else if (strcmp(kind, "failed") == 0)
		e->state = LEDGER_FAILED;
	else
		e->state = LEDGER_UNKNOWN;
	if (json_str(rec, "post_id") != NULL)
		entry_set(&e->post_id, json_str(rec, "post_id"));
	if (json_str(rec, "cid") != NULL)
		entry_set(&e->cid, json_str(rec, "cid"));
	if (json_str(rec, "url") != NULL)
		entry_set(&e->url, json_str(rec, "url"));
	if (json_str(rec, "reason") != NULL)
		entry_set(&e->reason, json_str(rec, "reason"));
	e->line = line;
	return NULL;
}

/* A skipped record stands alone: it carries the entry's fields, as an
 * intent does, and its reason. */
static const char *
ledger_apply_skip(struct ledger *l, const cJSON *rec, int line)
{
	struct ledger_entry *e;
	const char *msg;

	if ((e = ledger_find(l, json_str(rec, "entry") != NULL ?
	    json_str(rec, "entry") : "")) != NULL && e->state != LEDGER_FAILED)
		return "skipped: the entry has an attempt already";
	if (json_str(rec, "reason") == NULL)
		return "skipped: missing \"reason\"";
	if ((msg = ledger_apply_intent(l, rec, line)) != NULL)
		return msg;
	e = ledger_find(l, json_str(rec, "entry"));
	e->attempts--;
	e->state = LEDGER_SKIPPED;
	entry_set(&e->reason, json_str(rec, "reason"));
	return NULL;
}

/* The checksum of a record's text: 16 hex digits of its sha256. */
static void
ledger_sum(const char *text, size_t len, char out[LEDGER_SUM_LEN + 1])
{
	char hex[65];

	sha256_hex(text, len, hex);
	memcpy(out, hex, LEDGER_SUM_LEN);
	out[LEDGER_SUM_LEN] = '\0';
}

/* A record line as written: the record's JSON with `,"sum":"…"` added
 * before its closing brace, the sum taken over the JSON without it. */
static char *
ledger_seal(const char *json)
{
	char sum[LEDGER_SUM_LEN + 1], *line;
	size_t n = strlen(json);

	ledger_sum(json, n, sum);
	xasprintf(&line, "%.*s,\"sum\":\"%s\"}", (int)(n - 1), json, sum);
	return line;
}

/* Checks and strips a line's checksum in place. NULL when it holds (or
 * the line has none and may go without), else the problem. */
static const char *
ledger_unseal(struct ledger *l, char *text)
{
	static const char tag[] = ",\"sum\":\"";
	size_t n = strlen(text), tl = sizeof tag - 1;
	char sum[LEDGER_SUM_LEN + 1], *at;

	at = n > tl + LEDGER_SUM_LEN + 2 ?
	    text + n - (tl + LEDGER_SUM_LEN + 2) : NULL;
	if (at == NULL || strncmp(at, tag, tl) != 0 ||
	    strcmp(at + tl + LEDGER_SUM_LEN, "\"}") != 0) {
		if (strstr(text, "\"sum\"") != NULL)
			return "\"sum\" is not where fronts writes it (the "
			    "line was edited)";
		/* Lines written before records carried a checksum are read
		 * as they are; after the first sealed line, all must be. */
		if (l->sealed)
			return "no checksum (\"sum\"): the line was added or "
			    "edited by hand";
		l->nunsealed++;
		return NULL;
	}
	at[0] = '}';
	at[1] = '\0';
	ledger_sum(text, (size_t)(at + 1 - text), sum);
	if (strncmp(sum, at + tl, LEDGER_SUM_LEN) != 0)
		return "checksum mismatch: the record was edited or damaged";
	l->sealed = true;
	return NULL;
}

static void
ledger_apply_line(struct ledger *l, char *text, int line)
{
	const char *kind, *msg, *end = NULL;
	cJSON *rec;

	if ((msg = ledger_unseal(l, text)) != NULL) {
		ledger_problem(l, line, "%s", msg);
		return;
	}
	rec = cJSON_ParseWithOpts(text, &end, 0);
	if (rec == NULL || !cJSON_IsObject(rec)) {
		ledger_problem(l, line, "%s", "not a JSON object (corrupt or "
		    "truncated record)");
		cJSON_Delete(rec);
		return;
	}
	end += strspn(end, " \t\r");
	if (*end != '\0') {
		/* cJSON stops at the end of the first value: a second
		 * record on the line (a lost newline) would go unread. */
		ledger_problem(l, line, "%s", "text after the record's JSON "
		    "(two records on one line?)");
		cJSON_Delete(rec);
		return;
	}
	kind = json_str(rec, "record");
	if (kind == NULL)
		msg = "missing \"record\"";
	else if (strcmp(kind, "intent") == 0)
		msg = ledger_apply_intent(l, rec, line);
	else if (strcmp(kind, "skipped") == 0)
		msg = ledger_apply_skip(l, rec, line);
	else if (strcmp(kind, "sent") == 0 || strcmp(kind, "failed") == 0 ||
	    strcmp(kind, "unknown") == 0 || strcmp(kind, "settle") == 0)
		msg = ledger_apply_outcome(l, rec, kind, line);
	else
		msg = "unknown \"record\" kind";
	if (msg != NULL)
		ledger_problem(l, line, "%s", msg);
	cJSON_Delete(rec);
}

int
ledger_open(const char *project_dir, struct ledger *l, struct error *err)
{
	char *dir, *data, *p, *nl;
	size_t len;
	int line = 0, rc;

	memset(l, 0, sizeof *l);
	dir = path_join(project_dir, ".fronts");
	l->path = path_join(dir, LEDGER_FILE);
	l->dir = xstrdup(project_dir);
	free(dir);
	if ((rc = statedir_read(project_dir, LEDGER_FILE, &data, &len,
	    err)) != 0) {
		if (rc > 0)
			return 0;	/* none yet: empty */
		ledger_free(l);
		return -1;
	}
	/* A NUL inside a record would hide the rest of its line from the
	 * parser; make it a byte that no valid record contains. */
	for (p = data; p < data + len; p++)
		if (*p == '\0')
			*p = '\001';
	for (p = data; *p != '\0'; p = nl + 1) {
		line++;
		if ((nl = strchr(p, '\n')) == NULL) {
			ledger_problem(l, line, "%s", "last record is truncated "
			    "(no end of line)");
			break;
		}
		*nl = '\0';
		if (*p == '\0')
			ledger_problem(l, line, "%s", "empty line");
		else
			ledger_apply_line(l, p, line);
	}
	l->nlines = line;
	free(data);
	return 0;
}

static void
entry_free(struct ledger_entry *e)
{
	free(e->plan);
	free(e->front);
	free(e->draft);
	free(e->channel);
	free(e->key);
	free(e->post_id);
	free(e->cid);
	free(e->url);
	free(e->reason);
}

void
ledger_free(struct ledger *l)
{
	int i;

	for (i = 0; i < l->nentries; i++)
		entry_free(&l->entries[i]);
	free(l->entries);
	for (i = 0; i < l->nproblems; i++)
		free(l->problems[i]);
	free(l->problems);
	free(l->path);
	free(l->dir);
	memset(l, 0, sizeof *l);
}

static int
ledger_writable(const struct ledger *l, struct error *err)
{
	if (l->nproblems > 0)
		return error_set(err, EXIT_ERROR, "%s; the ledger must be "
		    "repaired by hand before anything is appended",
		    l->problems[0]);
	return 0;
}

/* Appends one record and replays it into memory, so memory always equals
 * what a fresh ledger_open() would read. */
static int
ledger_append(struct ledger *l, cJSON *rec, struct error *err)
{
	char *line, *json;
	int rc;

	json = cJSON_PrintUnformatted(rec);
	line = ledger_seal(json);
	free(json);
	rc = statedir_append(l->dir, LEDGER_FILE, line, err);
	if (rc == 0)
		ledger_apply_line(l, line, ++l->nlines);
	free(line);
	return rc;
}

static cJSON *
record_new(const char *kind, const char *id, time_t now)
{
	cJSON *rec = cJSON_CreateObject();
	char t[32];

	time_format_utc(now, t, sizeof t);
	cJSON_AddStringToObject(rec, "record", kind);
	cJSON_AddStringToObject(rec, "entry", id);
	cJSON_AddStringToObject(rec, "time", t);
	return rec;
}

/* The record that opens an entry (an intent, or a skip that settles it
 * unsent): NULL, with err set, when the entry exists and did not fail. */
static cJSON *
ledger_open_record(struct ledger *l, const char *kind,
    const struct ledger_intent *in, char id[LEDGER_ID_LEN], struct error *err)
{
	char sha[65], at[32];
	struct ledger_entry *e;
	cJSON *rec;

	if (ledger_writable(l, err) != 0)
		return NULL;
	ledger_part_id(in->plan, in->slot, in->front, in->draft, in->part,
	    in->text, id);
	if ((e = ledger_find(l, id)) != NULL && e->state != LEDGER_FAILED) {
		error_set(err, EXIT_REFUSED, "entry %s is %s already", id,
		    ledger_state_name(e->state));
		return NULL;
	}
	sha256_hex(in->text, strlen(in->text), sha);
	time_format_utc(in->at, at, sizeof at);
	rec = record_new(kind, id, in->now);
	cJSON_AddStringToObject(rec, "plan", in->plan);
	cJSON_AddNumberToObject(rec, "slot", in->slot);
	cJSON_AddStringToObject(rec, "front", in->front);
	cJSON_AddStringToObject(rec, "draft", in->draft);
	cJSON_AddStringToObject(rec, "at", at);
	cJSON_AddStringToObject(rec, "text_sha256", sha);
	if (in->nparts > 1) {
		cJSON_AddNumberToObject(rec, "part", in->part);
		cJSON_AddNumberToObject(rec, "parts", in->nparts);
	}
	return rec;
}

int
ledger_intent(struct ledger *l, const struct ledger_intent *in,
    struct ledger_entry **out, struct error *err)
{
	char id[LEDGER_ID_LEN];
	cJSON *rec;
	int rc;

	if ((rec = ledger_open_record(l, "intent", in, id, err)) == NULL)
		return -1;
	if (in->edited)
		cJSON_AddTrueToObject(rec, "edited");
	cJSON_AddStringToObject(rec, "channel", in->channel);
	cJSON_AddStringToObject(rec, "key", in->key != NULL ? in->key : id);
	rc = ledger_append(l, rec, err);
	cJSON_Delete(rec);
	if (rc != 0)
		return -1;
	*out = ledger_find(l, id);
	return 0;
}

int
ledger_skip(struct ledger *l, const struct ledger_intent *in,
    const char *reason, struct error *err)
{
	char id[LEDGER_ID_LEN];
	cJSON *rec;
	int rc;

	if ((rec = ledger_open_record(l, "skipped", in, id, err)) == NULL)
		return -1;
	cJSON_AddStringToObject(rec, "channel", "-");
	cJSON_AddStringToObject(rec, "reason", reason);
	rc = ledger_append(l, rec, err);
	cJSON_Delete(rec);
	return rc;
}

int
ledger_outcome(struct ledger *l, struct ledger_entry *e,
    enum ledger_state state, const char *post_id, const char *url,
    const char *reason, time_t now, struct error *err)
{
	return ledger_outcome_cid(l, e, state, post_id, NULL, url, reason, now,
	    err);
}

int
ledger_outcome_cid(struct ledger *l, struct ledger_entry *e,
    enum ledger_state state, const char *post_id, const char *cid,
    const char *url, const char *reason, time_t now, struct error *err)
{
	char id[LEDGER_ID_LEN];
	cJSON *rec;
	int rc;

	if (ledger_writable(l, err) != 0)
		return -1;
	if (e->state != LEDGER_PENDING || state == LEDGER_PENDING)
		return error_set(err, EXIT_ERROR, "entry %s: no attempt "
		    "awaits an outcome", e->id);
	memcpy(id, e->id, sizeof id);	/* e moves if entries grow */
	rec = record_new(ledger_state_name(state), id, now);
	if (post_id != NULL)
		cJSON_AddStringToObject(rec, "post_id", post_id);
	if (cid != NULL)
		cJSON_AddStringToObject(rec, "cid", cid);
	if (url != NULL)
		cJSON_AddStringToObject(rec, "url", url);
	if (reason != NULL)
		cJSON_AddStringToObject(rec, "reason", reason);
	rc = ledger_append(l, rec, err);
	cJSON_Delete(rec);
	return rc;
}

int
ledger_settle(struct ledger *l, struct ledger_entry *e, bool sent,
    const char *url, time_t now, struct error *err)
{
	cJSON *rec;
	int rc;

	if (ledger_writable(l, err) != 0)
		return -1;
	if (e->state != LEDGER_PENDING && e->state != LEDGER_UNKNOWN)
		return error_set(err, EXIT_USAGE, "entry %s is %s, not "
		    "unknown: there is nothing to settle", e->id,
		    ledger_state_name(e->state));
	rec = record_new("settle", e->id, now);
	cJSON_AddStringToObject(rec, "state", sent ? "sent" : "failed");
	if (url != NULL)
		cJSON_AddStringToObject(rec, "url", url);
	cJSON_AddStringToObject(rec, "reason", sent ? "settled by the "
	    "operator as sent" : "settled by the operator as failed");
	rc = ledger_append(l, rec, err);
	cJSON_Delete(rec);
	return rc;
}

int
ledger_unresolved(const struct ledger *l)
{
	int i, n = 0;

	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].state == LEDGER_PENDING ||
		    l->entries[i].state == LEDGER_UNKNOWN)
			n++;
	return n;
}

int
ledger_sent_posts(const struct ledger *l, bool unresolved,
    struct ledger_sent **out)
{
	int i, n = 0;

	*out = xcalloc((size_t)l->nentries + 1, sizeof **out);
	for (i = 0; i < l->nentries; i++) {
		if (l->entries[i].part > 1 ||
		    l->entries[i].state == LEDGER_FAILED ||
		    l->entries[i].state == LEDGER_SKIPPED ||
		    (l->entries[i].state != LEDGER_SENT && !unresolved))
			continue;
		(*out)[n].front = l->entries[i].front;
		(*out)[n].draft = l->entries[i].draft;
		(*out)[n].at = l->entries[i].attempted;
		n++;
	}
	return n;
}
