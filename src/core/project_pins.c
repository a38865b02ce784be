/*
 * project_pins — pins.jsonl, the operator's fixed decisions: a draft kept
 * out of every plan ({"draft": "d4", "drop": true}), kept on one front
 * ({"draft": "d3", "front": "x"}) or put there at a time ({"draft": "d3",
 * "front": "x", "at": "2026-12-02T10:00:00+01:00"}).
 *
 * The file is optional. Loading checks what needs no plan: the draft and
 * the front exist, a draft is not both dropped and pinned, and no draft is
 * pinned twice to one front. Whether a pin's time and front are legal
 * (slot boundary, horizon, caps, gaps, quiet hours) depends on the plan's
 * start and the posts already made: legal_pins_check() decides that
 * before any search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/project_int.h"
#include "core/timeutil.h"

static int
pin_front(const struct json_loc *l, const struct project *p,
    const cJSON *obj, struct pin *pin)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "front");

	if (v == NULL)
		return json_fail(l, "front", NULL, "missing (a pin names "
		    "a front, or \"drop\": true)");
	if (!cJSON_IsString(v) ||
	    (pin->front = project_front_index(p, v->valuestring)) < 0)
		return json_fail(l, "front", v,
		    "expected the id of a front in fronts.json");
	return 0;
}

static int
pin_at(const struct json_loc *l, const cJSON *obj, struct pin *pin)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "at");

	if (v == NULL)
		return 0;
	if (!cJSON_IsString(v) || time_parse_iso(v->valuestring, &pin->at) != 0)
		return json_fail(l, "at", v, "expected an ISO-8601 time "
		    "with offset, like \"2026-12-02T10:00:00+01:00\"");
	pin->has_at = true;
	pin->at_text = xstrdup(v->valuestring);
	return 0;
}

/* A second pin of the same draft: the same front twice, or a drop beside
 * anything else, contradict each other. */
static int
pin_conflict(const struct json_loc *l, const struct project *p,
    const struct pin *pin)
{
	const struct pin *o;
	int i;

	for (i = 0; i < p->npins; i++) {
		o = &p->pins[i];
		if (o->draft != pin->draft)
			continue;
		if (o->drop || pin->drop)
			return json_fail(l, "draft", NULL, "draft \"%s\" is "
			    "both dropped and pinned (first on line %d)",
			    p->drafts[pin->draft].id, o->line);
		if (o->front == pin->front)
			return json_fail(l, "front", NULL, "draft \"%s\" "
			    "pinned to front \"%s\" twice (first on line %d)",
			    p->drafts[pin->draft].id,
			    p->fronts[pin->front].id, o->line);
	}
	return 0;
}

static int
load_pin_line(const struct json_loc *l, const cJSON *obj, void *arg)
{
	static const char *known[] = { "draft", "front", "at", "drop", NULL };
	struct project *p = arg;
	const cJSON *v;
	struct pin pin;
	char *id = NULL;

	memset(&pin, 0, sizeof pin);
	pin.line = l->line;
	pin.front = -1;
	if (json_get_string(l, obj, "", "draft", JSON_FILLED, &id) != 0)
		return -1;
	pin.draft = project_draft_index(p, id);
	free(id);
	if (pin.draft < 0)
		return json_fail(l, "draft", cJSON_GetObjectItemCaseSensitive(
		    obj, "draft"), "expected the id of a draft in drafts.jsonl");
	v = cJSON_GetObjectItemCaseSensitive(obj, "drop");
	if (v != NULL && !cJSON_IsBool(v))
		return json_fail(l, "drop", v, "expected true or false");
	pin.drop = cJSON_IsTrue(v);
	if (pin.drop && (cJSON_GetObjectItemCaseSensitive(obj, "front") !=
	    NULL || cJSON_GetObjectItemCaseSensitive(obj, "at") != NULL))
		return json_fail(l, "drop", v, "a dropped draft takes no "
		    "\"front\" or \"at\"");
	if (!pin.drop && (pin_front(l, p, obj, &pin) != 0 ||
	    pin_at(l, obj, &pin) != 0))
		return -1;
	if (pin_conflict(l, p, &pin) != 0) {
		free(pin.at_text);
		return -1;
	}
	json_warn_unknown(l, obj, "", known);
	p->pins = xrealloc(p->pins, (p->npins + 1) * sizeof *p->pins);
	p->pins[p->npins++] = pin;
	return 0;
}

int
project_load_pins(struct project *p, const char *path, struct error *err)
{
	struct json_loc l = project_loc(p, path, err);
	size_t len;
	char *text;
	int rc;

	if (access(path, F_OK) != 0)
		return 0;
	if (file_read(path, &text, &len, err) != 0)
		return -1;
	rc = json_each_line(&l, text, len, load_pin_line, p);
	free(text);
	return rc;
}

static void
pin_remove(struct project *p, int d)
{
	int i, n = 0;

	for (i = 0; i < p->npins; i++) {
		if (p->pins[i].draft == d) {
			free(p->pins[i].at_text);
			continue;
		}
		p->pins[n++] = p->pins[i];
	}
	p->npins = n;
}

static void
pin_renumber(struct project *p)
{
	int i;

	for (i = 0; i < p->npins; i++)
		p->pins[i].line = i + 1;
}

static struct pin *
pin_append(struct project *p, int d)
{
	struct pin *pin;

	p->pins = xrealloc(p->pins, (p->npins + 1) * sizeof *p->pins);
	pin = &p->pins[p->npins++];
	memset(pin, 0, sizeof *pin);
	pin->draft = d;
	pin->front = -1;
	return pin;
}

void
project_pin_set(struct project *p, int d, int f, const char *at_text,
    time_t at)
{
	struct pin *pin = NULL;
	int i, n = 0;

	for (i = 0; i < p->npins; i++) {
		if (p->pins[i].draft == d && (p->pins[i].drop ||
		    p->pins[i].front == f)) {
			free(p->pins[i].at_text);
			continue;
		}
		p->pins[n++] = p->pins[i];
	}
	p->npins = n;
	pin = pin_append(p, d);
	pin->front = f;
	if (at_text != NULL) {
		pin->has_at = true;
		pin->at = at;
		pin->at_text = xstrdup(at_text);
	}
	pin_renumber(p);
}

void
project_pin_drop(struct project *p, int d)
{
	pin_remove(p, d);
	pin_append(p, d)->drop = true;
	pin_renumber(p);
}

void
project_pin_clear(struct project *p, int d)
{
	pin_remove(p, d);
	pin_renumber(p);
}

cJSON *
project_pin_json(const struct project *p, const struct pin *pin)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "draft", p->drafts[pin->draft].id);
	if (pin->drop) {
		cJSON_AddBoolToObject(o, "drop", true);
		return o;
	}
	cJSON_AddStringToObject(o, "front", p->fronts[pin->front].id);
	if (pin->has_at)
		cJSON_AddStringToObject(o, "at", pin->at_text);
	return o;
}

int
project_pins_save(const struct project *p, struct error *err)
{
	char *path = path_join(p->dir, "pins.jsonl"), *line;
	size_t len = 0, cap = 256;
	char *buf = xmalloc(cap);
	cJSON *o;
	int i, rc;

	buf[0] = '\0';
	for (i = 0; i < p->npins; i++) {
		o = project_pin_json(p, &p->pins[i]);
		line = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
		while (len + strlen(line) + 2 > cap)
			buf = xrealloc(buf, cap *= 2);
		len += (size_t)sprintf(buf + len, "%s\n", line);
		free(line);
	}
	rc = file_write_atomic(path, buf, len, err);
	free(buf);
	free(path);
	return rc;
}

int
project_reload_pins(struct project *p, struct error *err)
{
	char *path = path_join(p->dir, "pins.jsonl");
	int i, rc;

	for (i = 0; i < p->npins; i++)
		free(p->pins[i].at_text);
	free(p->pins);
	p->pins = NULL;
	p->npins = 0;
	rc = project_load_pins(p, path, err);
	free(path);
	return rc;
}
