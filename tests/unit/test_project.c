/* Unit tests for project loading: the bundled demo, the ctx handed to the
 * world model, and every error path of the four project files (each must
 * name the file, the line for JSON lines, and the field, and must leave
 * nothing loaded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "core/clock.h"
#include "core/project.h"
#include "core/timeutil.h"

#ifndef TOP
#define TOP "."
#endif

static const char *good_fronts =
    "{\"name\": \"t\", \"timezone\": \"Europe/Berlin\",\n"
    " \"start\": \"2026-12-01T08:00:00Z\", \"slot_minutes\": 60,\n"
    " \"horizon_slots\": 24,\n"
    " \"fronts\": [\n"
    "  {\"id\": \"x\", \"platform\": \"x\", \"limits\": {\"quiet_hours\": [23, 7]}},\n"
    "  {\"id\": \"m\", \"platform\": \"mastodon\", \"instance\": \"https://m.example\"}\n"
    " ]}\n";
static const char *good_history =
    "{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"2026-11-20T09:05:00+01:00\","
    "\"text\":\"hi\",\"topics\":[\"a\"],\"metrics\":{\"impressions\":10,\"likes\":1}}\n"
    "{\"id\":\"h2\",\"front\":\"m\",\"posted_at\":\"2026-11-21T09:05:00Z\","
    "\"text\":\"yo\",\"metrics\":{}}\n";
static const char *good_drafts =
    "{\"id\":\"d1\",\"text\":\"one\",\"topics\":[\"a\"]}\n"
    "{\"id\":\"d2\",\"text\":\"two\",\"fronts\":[\"m\"]}\n";

struct files {
	const char	*fronts, *rules, *history, *drafts;
};

/* pins.jsonl of the next make_project (NULL: none). */
static const char *pins_text;

static void
put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (text == NULL) {
		unlink(path);
		return;
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* A fresh project directory with the good files, then the overrides
 * (NULL: keep the good one; "": delete the file). */
static char *
make_project(const struct files *o)
{
	static char dir[64];

	strcpy(dir, "/tmp/fronts-proj-XXXXXX");
	assert_non_null(mkdtemp(dir));
	put(dir, "fronts.json", o->fronts != NULL ? o->fronts : good_fronts);
	put(dir, "rules.md", o->rules != NULL ? o->rules : "# rules\n");
	put(dir, "history.jsonl", o->history != NULL ? o->history : good_history);
	put(dir, "drafts.jsonl", o->drafts != NULL ? o->drafts : good_drafts);
	if (o->fronts != NULL && *o->fronts == '\0')
		put(dir, "fronts.json", NULL);
	if (o->rules != NULL && *o->rules == '\0')
		put(dir, "rules.md", NULL);
	if (o->history != NULL && *o->history == '\0')
		put(dir, "history.jsonl", NULL);
	if (o->drafts != NULL && *o->drafts == '\0')
		put(dir, "drafts.jsonl", NULL);
	put(dir, "pins.jsonl", pins_text);
	return dir;
}

static void
remove_project(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static struct project *
load_ok(const struct files *o)
{
	struct error err = { 0 };
	struct project *p = NULL;
	char *dir = make_project(o);

	if (project_load(dir, &p, &err) != 0)
		fail_msg("load failed: %s", err.msg);
	remove_project(dir);
	return p;
}

static bool
has_warning(const struct project *p, const char *needle)
{
	int i;

	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], needle) != NULL)
			return true;
	return false;
}

/* Error cases: one file replaced, and the substrings the message must hold. */
struct bad {
	const char	*name;
	struct files	 files;
	const char	*want[3];
};

#define F(s) { s, NULL, NULL, NULL }
#define H(s) { NULL, NULL, s, NULL }
#define D(s) { NULL, NULL, NULL, s }
#define FRONTS_WITH(front) \
    "{\"name\": \"t\", \"timezone\": \"Europe/Berlin\", \"start\": \"2026-12-01T08:00:00Z\"," \
    " \"slot_minutes\": 60, \"horizon_slots\": 24, \"fronts\": [" front "]}"
#define TOPLEVEL(rest) \
    "{\"name\": \"t\", \"fronts\": [{\"id\": \"x\", \"platform\": \"x\"}], " rest "}"
#define FRONTS_OBJ(obj) \
    "{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": \"2026-12-01T08:00:00Z\"," \
    " \"slot_minutes\": 60, \"horizon_slots\": 24, \"objective\": " obj "," \
    " \"fronts\": [{\"id\": \"x\", \"platform\": \"x\"}]}"
#define HLINE(rest) \
    "{\"id\":\"h9\",\"front\":\"x\",\"posted_at\":\"2026-11-20T09:05:00+01:00\"," \
    "\"text\":\"t\"," rest "}\n"

static const struct bad bad_cases[] = {
	/* missing files */
	{ "missing fronts.json", F(""), { "fronts.json", NULL } },
	{ "missing rules.md", { NULL, "", NULL, NULL }, { "rules.md", NULL } },
	{ "missing history.jsonl", H(""), { "history.jsonl", NULL } },
	{ "missing drafts.jsonl", D(""), { "drafts.jsonl", NULL } },
	{ "rules not utf-8", { NULL, "caf\xe9\n", NULL, NULL },
	  { "rules.md", "UTF-8" } },
	/* fronts.json */
	{ "fronts syntax", F("{\"name\": \"t\",\n \"fronts\": [\n}"),
	  { "fronts.json", "invalid JSON at line 3" } },
	{ "fronts not object", F("[1, 2]"), { "fronts.json", "expected a JSON object" } },
	{ "fronts trailing", F("{} {}"), { "fronts.json", "invalid JSON" } },
	{ "name missing", F("{\"timezone\": \"UTC\"}"), { "fronts.json", "\"name\"", "missing" } },
	{ "name not string", F("{\"name\": 3}"), { "\"name\"", "expected a string", "got 3" } },
	{ "timezone unknown", F(TOPLEVEL("\"timezone\": \"Mars/Base\"")),
	  { "fronts.json", "\"timezone\"", "IANA" } },
	{ "timezone traversal", F(TOPLEVEL("\"timezone\": \"../../etc/passwd\"")),
	  { "\"timezone\"", "IANA", NULL } },
	{ "objective not object", F(FRONTS_OBJ("3")),
	  { "fronts.json", "\"objective\"", "weights" } },
	{ "objective unknown metric", F(FRONTS_OBJ("{\"likes\": 1, \"shares\": 2}")),
	  { "\"objective.shares\"", "not a metric", NULL } },
	{ "objective weight not number", F(FRONTS_OBJ("{\"likes\": \"1\"}")),
	  { "\"objective.likes\"", "number", NULL } },
	{ "objective weight negative", F(FRONTS_OBJ("{\"likes\": 1, \"replies\": -1}")),
	  { "\"objective.replies\"", "from 0 to", NULL } },
	{ "objective all zero", F(FRONTS_OBJ("{\"likes\": 0}")),
	  { "\"objective\"", "not 0", NULL } },
	{ "start missing", F(TOPLEVEL("\"timezone\": \"UTC\"")), { "\"start\"", "missing" } },
	{ "start no offset", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"2026-12-01T08:00:00\"")),
	  { "\"start\"", "ISO-8601", "\"now\"" } },
	{ "start bad date", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"2026-02-30T08:00:00Z\"")),
	  { "\"start\"", "ISO-8601" } },
	{ "start 04-31", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"2026-04-31T08:00:00Z\"")),
	  { "\"start\"", "ISO-8601" } },
	{ "start month 13", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"2026-13-01T08:00:00Z\"")),
	  { "\"start\"", "ISO-8601" } },
	{ "start 24:00", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"2026-12-01T24:00:00Z\"")),
	  { "\"start\"", "ISO-8601" } },
	{ "start leap day 2025", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"2025-02-29T08:00:00Z\"")),
	  { "\"start\"", "ISO-8601" } },
	{ "history 02-30", H("{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"2026-02-30T09:05:00Z\",\"text\":\"t\",\"metrics\":{}}\n"),
	  { "history.jsonl:1:", "\"posted_at\"", "ISO-8601" } },
	{ "history leap day 2025", H("{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"2025-02-29T09:05:00Z\",\"text\":\"t\",\"metrics\":{}}\n"),
	  { "history.jsonl:1:", "\"posted_at\"", "ISO-8601" } },
	{ "start number", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": 5")), { "\"start\"", "got 5" } },
	{ "slot_minutes missing", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"now\"")),
	  { "\"slot_minutes\"", "missing" } },
	{ "slot_minutes zero", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"now\", \"slot_minutes\": 0")),
	  { "\"slot_minutes\"", "1..1440", "got 0" } },
	{ "slot_minutes fraction", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"now\", \"slot_minutes\": 1.5")),
	  { "\"slot_minutes\"", "integer" } },
	{ "horizon negative", F(TOPLEVEL("\"timezone\": \"UTC\", \"start\": \"now\", \"slot_minutes\": 60, "
	  "\"horizon_slots\": -4")), { "\"horizon_slots\"", "got -4" } },
	{ "fronts missing", F("{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": \"now\", "
	  "\"slot_minutes\": 60, \"horizon_slots\": 3}"), { "\"fronts\"", "missing" } },
	{ "fronts empty", F(FRONTS_WITH("")), { "\"fronts\"", "non-empty array" } },
	{ "front not object", F(FRONTS_WITH("3")), { "\"fronts[0]\"", "object" } },
	{ "keep_metadata not bool",
	  F(FRONTS_WITH("{\"id\": \"x\", \"platform\": \"x\", \"keep_metadata\": \"yes\"}")),
	  { "\"fronts[0].keep_metadata\"", "true or false" } },
	{ "front id missing", F(FRONTS_WITH("{\"platform\": \"x\"}")),
	  { "\"fronts[0].id\"", "missing" } },
	{ "front id chars", F(FRONTS_WITH("{\"id\": \"a b\", \"platform\": \"x\"}")),
	  { "\"fronts[0].id\"", "letters" } },
	{ "front duplicate", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\"},"
	  "{\"id\": \"a\", \"platform\": \"bluesky\"}")),
	  { "\"fronts[1].id\"", "duplicate front id \"a\"" } },
	{ "platform unknown", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"myspace\"}")),
	  { "\"fronts[0].platform\"", "expected one of", "got \"myspace\"" } },
	{ "platform missing", F(FRONTS_WITH("{\"id\": \"a\"}")),
	  { "\"fronts[0].platform\"", "missing" } },
	{ "limits not object", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", \"limits\": 3}")),
	  { "\"fronts[0].limits\"", "object" } },
	{ "quiet hours range", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"quiet_hours\": [24, 7]}}")),
	  { "\"fronts[0].limits.quiet_hours\"", "0..23", "got [24,7]" } },
	{ "quiet hours arity", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"quiet_hours\": [3]}}")),
	  { "\"fronts[0].limits.quiet_hours\"", "[start, end]" } },
	{ "quiet hours negative", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"quiet_hours\": [22, -1]}}")),
	  { "quiet_hours", "0..23" } },
	{ "cap negative", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"max_posts_per_day\": -1}}")),
	  { "\"fronts[0].limits.max_posts_per_day\"", "got -1" } },
	{ "gap fraction", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"min_gap_minutes\": 2.5}}")),
	  { "\"fronts[0].limits.min_gap_minutes\"", "integer" } },
	{ "max_length zero", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"max_length\": 0}}")),
	  { "\"fronts[0].limits.max_length\"", "1..1000000" } },
	{ "links string", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"max_links\": \"1\"}}")),
	  { "\"fronts[0].limits.max_links\"", "integer" } },
	{ "hashtags negative", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"limits\": {\"max_hashtags\": -2}}")),
	  { "\"fronts[0].limits.max_hashtags\"", "got -2" } },
	{ "composio no tool", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"composio\": {\"user_id\": \"u\"}}")),
	  { "\"fronts[0].composio.tool\"", "missing" } },
	{ "composio not object", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"composio\": \"TOOL\"}")),
	  { "\"fronts[0].composio\"", "object" } },
	{ "instance not url", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"mastodon\", "
	  "\"instance\": \"mastodon.example\"}")),
	  { "\"fronts[0].instance\"", "URL" } },
	{ "provider not object", F("{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": \"now\", "
	  "\"slot_minutes\": 60, \"horizon_slots\": 3, \"provider\": \"anthropic\"}"),
	  { "\"provider\"", "object" } },
	{ "provider name missing", F("{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": \"now\", "
	  "\"slot_minutes\": 60, \"horizon_slots\": 3, \"provider\": {\"model\": \"m\"}}"),
	  { "\"provider.name\"", "missing" } },
	{ "account not string", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", \"account\": 7}")),
	  { "\"fronts[0].account\"", "expected a string", "got 7" } },
	{ "handle empty", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"bluesky\", \"handle\": \"\"}")),
	  { "\"fronts[0].handle\"", "non-empty" } },
	{ "composio user_id number", F(FRONTS_WITH("{\"id\": \"a\", \"platform\": \"x\", "
	  "\"composio\": {\"tool\": \"T\", \"user_id\": 5}}")),
	  { "\"fronts[0].composio.user_id\"", "got 5" } },
	{ "too many fronts", F(FRONTS_WITH(
	  "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},"
	  "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}")),
	  { "\"fronts\"", "at most 64" } },
	{ "fronts.json not utf-8", F("{\"name\": \"\xc3\x28\"}"), { "fronts.json", "UTF-8" } },
	{ "fronts.json empty", F("  \n"), { "fronts.json", "invalid JSON" } },
	/* history.jsonl */
	{ "history syntax", H("{\"id\": \"h1\",\n"), { "history.jsonl:1:", "invalid JSON" } },
	{ "history line 3 syntax", H(HLINE("\"metrics\":{}") "\n{oops}\n"),
	  { "history.jsonl:3:", "invalid JSON" } },
	{ "history not object", H("[1]\n"), { "history.jsonl:1:", "JSON object" } },
	{ "history bad utf-8", H("{\"id\":\"h\xff\"}\n"), { "history.jsonl:1:", "UTF-8" } },
	{ "history id missing", H("{\"front\":\"x\"}\n"), { "history.jsonl:1:", "\"id\"", "missing" } },
	{ "history unknown front", H("{\"id\":\"h1\",\"front\":\"tiktok\"}\n"),
	  { "history.jsonl:1:", "\"front\"", "got \"tiktok\"" } },
	{ "history bad time", H("{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"yesterday\"}\n"),
	  { "history.jsonl:1:", "\"posted_at\"", "ISO-8601" } },
	{ "history time no offset", H("{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"2026-11-20T09:05:00\"}\n"),
	  { "history.jsonl:1:", "\"posted_at\"", NULL } },
	{ "history text missing", H("{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"2026-11-20T09:05:00Z\"}\n"),
	  { "history.jsonl:1:", "\"text\"", "missing" } },
	{ "history topics type", H(HLINE("\"topics\":\"launch\",\"metrics\":{}")),
	  { "history.jsonl:1:", "\"topics\"", "array" } },
	{ "history topic empty", H(HLINE("\"topics\":[\"a\",\"\"],\"metrics\":{}")),
	  { "history.jsonl:1:", "\"topics[1]\"", NULL } },
	{ "history metrics missing", H(HLINE("\"topics\":[]")),
	  { "history.jsonl:1:", "\"metrics\"", "missing" } },
	{ "history metrics type", H(HLINE("\"metrics\":[1]")),
	  { "history.jsonl:1:", "\"metrics\"", "object" } },
	{ "history negative metric", H(HLINE("\"metrics\":{\"likes\":-3}")),
	  { "history.jsonl:1:", "\"metrics.likes\"", "got -3" } },
	{ "history metric string", H(HLINE("\"metrics\":{\"clicks\":\"12\"}")),
	  { "history.jsonl:1:", "\"metrics.clicks\"", "non-negative number" } },
	{ "history duplicate id", H("\n" HLINE("\"metrics\":{}") HLINE("\"metrics\":{}")),
	  { "history.jsonl:3:", "duplicate id \"h9\"", "first on line 2" } },
	{ "history id control char", H("{\"id\":\"h\\u0001\"}\n"),
	  { "history.jsonl:1:", "\"id\"", "control" } },
	{ "history text number", H("{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":\"2026-11-20T09:05:00Z\",\"text\":1}\n"),
	  { "history.jsonl:1:", "\"text\"", "got 1" } },
	{ "history line is a string", H("\"hello\"\n"), { "history.jsonl:1:", "JSON object" } },
	{ "history two objects on a line", H("{\"id\":\"a\"} {\"id\":\"b\"}\n"),
	  { "history.jsonl:1:", "invalid JSON" } },
	{ "history metric infinite", H(HLINE("\"metrics\":{\"likes\":1e999}")),
	  { "history.jsonl:1:", "\"metrics.likes\"", NULL } },
	/* drafts.jsonl */
	{ "draft syntax", D("{\"id\":\"d1\",\"text\":\"a\"}\n{\"id\":\n"),
	  { "drafts.jsonl:2:", "invalid JSON" } },
	{ "draft text missing", D("{\"id\":\"d1\"}\n"), { "drafts.jsonl:1:", "\"text\"", "missing" } },
	{ "draft text empty", D("{\"id\":\"d1\",\"text\":\"\"}\n"),
	  { "drafts.jsonl:1:", "\"text\"", "non-empty" } },
	{ "draft text number", D("{\"id\":\"d1\",\"text\":5}\n"),
	  { "drafts.jsonl:1:", "\"text\"", "got 5" } },
	{ "draft unknown front", D("{\"id\":\"d1\",\"text\":\"a\",\"fronts\":[\"x\",\"y\"]}\n"),
	  { "drafts.jsonl:1:", "\"fronts[1]\"", "got \"y\"" } },
	{ "draft front twice", D("{\"id\":\"d1\",\"text\":\"a\",\"fronts\":[\"x\",\"x\"]}\n"),
	  { "drafts.jsonl:1:", "\"fronts[1]\"", "twice" } },
	{ "draft fronts empty", D("{\"id\":\"d1\",\"text\":\"a\",\"fronts\":[]}\n"),
	  { "drafts.jsonl:1:", "\"fronts\"", "non-empty" } },
	{ "draft fronts not array", D("{\"id\":\"d1\",\"text\":\"a\",\"fronts\":\"x\"}\n"),
	  { "drafts.jsonl:1:", "\"fronts\"", NULL } },
	{ "draft topics not array", D("{\"id\":\"d1\",\"text\":\"a\",\"topics\":{}}\n"),
	  { "drafts.jsonl:1:", "\"topics\"", "array" } },
	{ "draft id empty", D("{\"id\":\"\",\"text\":\"a\"}\n"),
	  { "drafts.jsonl:1:", "\"id\"", "non-empty" } },
	/* Threads, images, variants and windows (README "Drafts"). */
	{ "thread not array", D("{\"id\":\"d1\",\"text\":\"a\",\"thread\":\"b\"}\n"),
	  { "drafts.jsonl:1:", "\"thread\"", "parts after the first" } },
	{ "thread part empty", D("{\"id\":\"d1\",\"text\":\"a\",\"thread\":[\"b\",\"\"]}\n"),
	  { "drafts.jsonl:1:", "\"thread[1]\"", "non-empty" } },
	{ "thread part number", D("{\"id\":\"d1\",\"text\":\"a\",\"thread\":[3]}\n"),
	  { "drafts.jsonl:1:", "\"thread[0]\"", "got 3" } },
	{ "thread part without text", D("{\"id\":\"d1\",\"text\":\"a\",\"thread\":[{\"media\":[]}]}\n"),
	  { "drafts.jsonl:1:", "\"thread[0].text\"", "missing" } },
	{ "media not array", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":{\"path\":\"a.png\"}}\n"),
	  { "drafts.jsonl:1:", "\"media\"", "array" } },
	{ "media a string", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":[\"a.png\"]}\n"),
	  { "drafts.jsonl:1:", "\"media[0]\"", "\"path\"" } },
	{ "media without path", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":[{\"alt\":\"x\"}]}\n"),
	  { "drafts.jsonl:1:", "\"media[0].path\"", "missing" } },
	{ "media absolute path", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":[{\"path\":\"/etc/passwd\"}]}\n"),
	  { "drafts.jsonl:1:", "\"media[0].path\"", "inside it" } },
	{ "media path escapes", D("{\"id\":\"d1\",\"text\":\"a\",\"thread\":[{\"text\":\"b\","
	  "\"media\":[{\"path\":\"media/../../x.png\"}]}]}\n"),
	  { "drafts.jsonl:1:", "\"thread[0].media[0].path\"", "inside it" } },
	{ "media path the dir", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":[{\"path\":\"./\"}]}\n"),
	  { "drafts.jsonl:1:", "\"media[0].path\"", "inside it" } },
	{ "media alt empty", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":[{\"path\":\"a.png\",\"alt\":\"\"}]}\n"),
	  { "drafts.jsonl:1:", "\"media[0].alt\"", "non-empty" } },
	{ "media too many", D("{\"id\":\"d1\",\"text\":\"a\",\"media\":[{\"path\":\"a\"},"
	  "{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},"
	  "{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},"
	  "{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},"
	  "{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"},{\"path\":\"a\"}]}\n"),
	  { "drafts.jsonl:1:", "\"media\"", "at most 20" } },
	{ "variants not object", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":[\"b\"]}\n"),
	  { "drafts.jsonl:1:", "\"variants\"", "front ids or platform names" } },
	{ "variant unknown key", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":{\"myspace\":\"b\"}}\n"),
	  { "drafts.jsonl:1:", "\"variants.myspace\"", "platform name" } },
	{ "variant key twice", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":{\"x\":\"b\",\"x\":\"c\"}}\n"),
	  { "drafts.jsonl:1:", "\"variants.x\"", "twice" } },
	{ "variant empty text", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":{\"x\":\"\"}}\n"),
	  { "drafts.jsonl:1:", "\"variants.x\"", "non-empty" } },
	{ "variant without text", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":{\"mastodon\":{\"thread\":[\"b\"]}}}\n"),
	  { "drafts.jsonl:1:", "\"variants.mastodon.text\"", "missing" } },
	{ "variant bad thread part", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":{\"m\":{\"text\":\"b\","
	  "\"thread\":[\"c\",{\"text\":\"d\",\"media\":[{\"path\":\"../e.png\"}]}]}}}\n"),
	  { "drafts.jsonl:1:", "\"variants.m.thread[1].media[0].path\"", "inside it" } },
	{ "variant a number", D("{\"id\":\"d1\",\"text\":\"a\",\"variants\":{\"x\":7}}\n"),
	  { "drafts.jsonl:1:", "\"variants.x\"", "got 7" } },
	{ "not_before not a time", D("{\"id\":\"d1\",\"text\":\"a\",\"not_before\":\"monday\"}\n"),
	  { "drafts.jsonl:1:", "\"not_before\"", "ISO-8601" } },
	{ "not_after without offset", D("{\"id\":\"d1\",\"text\":\"a\",\"not_after\":\"2026-12-01T10:00:00\"}\n"),
	  { "drafts.jsonl:1:", "\"not_after\"", "offset" } },
	{ "window inverted", D("{\"id\":\"d1\",\"text\":\"a\",\"not_before\":\"2026-12-02T10:00:00Z\","
	  "\"not_after\":\"2026-12-02T10:00:00Z\"}\n"),
	  { "drafts.jsonl:1:", "\"not_after\"", "after not_before" } },
	{ "draft duplicate id", D("{\"id\":\"d1\",\"text\":\"a\"}\r\n{\"id\":\"d1\",\"text\":\"b\"}\r\n"),
	  { "drafts.jsonl:2:", "duplicate id \"d1\"", "first on line 1" } },
};
#define NBAD (sizeof bad_cases / sizeof bad_cases[0])

static void
test_bad(void **state)
{
	const struct bad *b = *state;
	struct error err = { 0 };
	struct project *p = (struct project *)0x1;
	char *dir = make_project(&b->files);
	int i;

	assert_int_equal(project_load(dir, &p, &err), -1);
	remove_project(dir);
	assert_null(p);
	assert_int_equal(err.code, EXIT_ERROR);
	print_message("%s\n", err.msg);
	for (i = 0; i < 3 && b->want[i] != NULL; i++)
		if (strstr(err.msg, b->want[i]) == NULL)
			fail_msg("%s: no \"%s\" in: %s", b->name, b->want[i], err.msg);
}

static void
test_nul_byte(void **state)
{
	struct error err = { 0 };
	struct project *p = NULL;
	char *dir = make_project(&(struct files){ 0 }), path[128];
	static const char text[] = "{\"id\":\"d1\",\"text\":\"a\"}\n{\"id\":\"d\0\"}\n";
	FILE *f;

	snprintf(path, sizeof path, "%s/drafts.jsonl", dir);
	assert_non_null(f = fopen(path, "w"));
	fwrite(text, 1, sizeof text - 1, f);
	fclose(f);
	assert_int_equal(project_load(dir, &p, &err), -1);
	remove_project(dir);
	assert_null(p);
	assert_non_null(strstr(err.msg, "drafts.jsonl:2:"));
	assert_non_null(strstr(err.msg, "NUL"));
}

/* What the model sees of test_draft_shape's drafts: the parts, each
 * image's alt text only (no path, no bytes), the variant per front id,
 * the window in the project's zone. */
static void
ctx_shape(const struct project *p)
{
	cJSON *ctx = project_ctx_json(p), *d, *pt, *v;
	char *s;

	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "drafts"), 0);
	pt = cJSON_GetObjectItem(d, "parts");
	assert_int_equal(cJSON_GetArraySize(pt), 3);
	s = cJSON_PrintUnformatted(cJSON_GetArrayItem(pt, 0));
	assert_string_equal(s, "{\"text\":\"one\",\"images\":[{\"alt\":"
	    "\"A harbour\"},{\"alt\":null}]}");
	free(s);
	assert_null(strstr(s = cJSON_PrintUnformatted(ctx), "media/a.png"));
	free(s);
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "variants"), "m");
	assert_string_equal(cJSON_GetObjectItem(v, "key")->valuestring,
	    "mastodon");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "parts")),
	    2);
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "variants"), "x");
	assert_string_equal(cJSON_GetObjectItem(v, "key")->valuestring, "x");
	assert_string_equal(cJSON_GetObjectItem(d, "not_before")->valuestring,
	    "2026-12-01T10:00:00+01:00");
	assert_string_equal(cJSON_GetObjectItem(d, "not_after")->valuestring,
	    "2026-12-03T01:00:00+01:00");
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "drafts"), 1);
	assert_null(cJSON_GetObjectItem(d, "not_before"));
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "variants"), "m");
	assert_string_equal(cJSON_GetObjectItem(v, "key")->valuestring, "m");
	cJSON_Delete(ctx);
}

/* The whole shape of a draft: a thread with images, variants by front
 * and by platform, a window; and which body each front gets. */
static void
test_draft_shape(void **state)
{
	struct files o = { 0, 0, 0,
		"{\"id\":\"d1\",\"text\":\"one\",\"media\":[{\"path\":\"media/a.png\","
		"\"alt\":\"A harbour\"},{\"path\":\"./b.jpg\"}],\"thread\":[\"two\","
		"{\"text\":\"three\",\"media\":[{\"path\":\"c/../c.png\",\"alt\":\"C\"}]}],"
		"\"variants\":{\"x\":\"short\",\"mastodon\":{\"text\":\"toot\",\"thread\":[\"more\"]},"
		"\"bluesky\":\"never\"},"
		"\"not_before\":\"2026-12-01T10:00:00+01:00\",\"not_after\":\"2026-12-03T00:00:00Z\"}\n"
		"{\"id\":\"d2\",\"text\":\"plain\",\"variants\":{\"m\":\"front wins\",\"mastodon\":\"no\"}}\n"
	};
	struct project *p = load_ok(&o);
	const struct draft *d = &p->drafts[0];
	const struct body *b;
	time_t t;

	assert_int_equal(d->body.nparts, 3);
	assert_string_equal(d->text, "one");
	assert_string_equal(d->body.parts[0].text, "one");
	assert_int_equal(d->body.parts[0].nmedia, 2);
	assert_string_equal(d->body.parts[0].media[0].path, "media/a.png");
	assert_string_equal(d->body.parts[0].media[0].alt, "A harbour");
	assert_null(d->body.parts[0].media[1].alt);
	assert_int_equal(d->body.parts[1].nmedia, 0);
	assert_string_equal(d->body.parts[2].text, "three");
	assert_string_equal(d->body.parts[2].media[0].alt, "C");
	assert_int_equal(d->nvariants, 3);
	assert_true(d->has_not_before && d->has_not_after);
	assert_int_equal(time_parse_iso("2026-12-01T09:00:00Z", &t), 0);
	assert_int_equal(d->not_before, t);
	/* x: by front id (a one-part variant inherits nothing). */
	b = project_draft_body(p, 0, project_front_index(p, "x"));
	assert_int_equal(b->nparts, 1);
	assert_string_equal(b->parts[0].text, "short");
	assert_int_equal(b->parts[0].nmedia, 0);
	/* m: by its platform. */
	b = project_draft_body(p, 0, project_front_index(p, "m"));
	assert_int_equal(b->nparts, 2);
	assert_string_equal(b->parts[1].text, "more");
	/* A front id wins over the platform. */
	b = project_draft_body(p, 1, project_front_index(p, "m"));
	assert_string_equal(b->parts[0].text, "front wins");
	b = project_draft_body(p, 1, project_front_index(p, "x"));
	assert_ptr_equal(b, &p->drafts[1].body);
	assert_int_equal(project_draft_variant(p, 1, 0), -1);
	assert_false(p->drafts[1].has_not_before);
	/* No front of d1 is on Bluesky: a warning, not an error. */
	assert_true(has_warning(p, "drafts.jsonl:1: field \"variants.bluesky\""));
	ctx_shape(p);
	project_free(p);
}

/* Every image is read as the project loads: a real one gives its type,
 * bytes and size; a missing one, or a link out of the project directory,
 * carries its problem (never the file behind the link). */
static void
test_media_probed(void **state)
{
	struct files o = { 0, 0, 0,
		"{\"id\":\"d1\",\"text\":\"a\",\"media\":[{\"path\":\"media/h.png\"},"
		"{\"path\":\"media/none.png\"},{\"path\":\"media/out.png\"}]}\n" };
	struct error err = { 0 };
	struct project *p = NULL;
	const struct media *m;
	char *dir = make_project(&o), cmd[512];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/media' && cp '%s/fixtures/demo/"
	    "media/harbour.png' '%s/media/h.png' && ln -s /etc/passwd "
	    "'%s/media/out.png'", dir, TOP, dir, dir);
	assert_int_equal(system(cmd), 0);
	if (project_load(dir, &p, &err) != 0)
		fail_msg("%s", err.msg);
	remove_project(dir);
	m = p->drafts[0].body.parts[0].media;
	assert_true(m[0].facts.probed);
	assert_null(m[0].facts.problem);
	assert_int_equal(m[0].facts.type, IMAGE_PNG);
	assert_int_equal(m[0].facts.bytes, 839);
	assert_int_equal(m[0].facts.width, 96);
	assert_int_equal(m[0].facts.height, 64);
	assert_non_null(m[1].facts.problem);
	assert_non_null(strstr(m[1].facts.problem, "No such file"));
	assert_null(strstr(m[1].facts.problem, "/media/none.png"));
	assert_string_equal(m[2].facts.problem,
	    "a link out of the project directory");
	project_free(p);
}

static void
test_demo_loads(void **state)
{
	struct error err = { 0 };
	struct project *p = NULL;
	time_t start;
	int i, d;

	if (project_load(TOP "/fixtures/demo", &p, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(p->name, "tidewater-launch");
	assert_string_equal(p->timezone, "Europe/Berlin");
	assert_int_equal(time_parse_iso("2026-12-01T08:00:00Z", &start), 0);
	assert_int_equal(p->start, start);
	assert_false(p->start_now);
	assert_int_equal(p->slot_minutes, 60);
	assert_int_equal(p->horizon_slots, 72);
	assert_true(p->nfronts >= 3);
	assert_true(p->nhistory >= 150);
	assert_true(p->ndrafts >= 20);
	for (i = 0; i < p->nwarnings; i++)
		fail_msg("warning: %s", p->warnings[i]);
	assert_int_equal(project_front_index(p, "mastodon"), 2);
	assert_int_equal(project_front_index(p, "nope"), -1);
	assert_int_equal(p->fronts[0].platform, PLATFORM_X);
	assert_int_equal(p->fronts[0].limits.quiet_start, 23);
	assert_int_equal(p->fronts[0].limits.quiet_end, 7);
	assert_int_equal(p->fronts[1].limits.max_length, 1300);
	assert_int_equal(p->fronts[0].limits.max_length, LIMIT_UNSET);
	assert_non_null(cJSON_GetObjectItem(p->fronts[0].raw, "composio"));
	d = project_draft_index(p, "d24");
	assert_true(d >= 0);
	assert_true(project_draft_allows(p, d, 1));
	assert_false(project_draft_allows(p, d, 0));
	assert_int_equal(p->drafts[0].front_mask, (1u << p->nfronts) - 1);
	/* History spans six weeks or more before the start. */
	assert_true(p->start - p->history[0].posted_at >= 42 * 86400);
	assert_true(p->history[p->nhistory - 1].posted_at < p->start);
	assert_int_equal(project_slot_time(p, 3), start + 3 * 3600);
	/* the demo's own objective; unnamed metrics weigh 0 */
	assert_true(p->objective.given);
	assert_true(p->objective.weight[METRIC_REPLIES] == 3);
	assert_true(p->objective.weight[METRIC_IMPRESSIONS] == 0);
	project_free(p);
}

static void
test_ctx_json(void **state)
{
	struct project *p = load_ok(&(struct files){ 0 });
	cJSON *ctx = project_ctx_json(p), *f, *d, *h, *m;

	assert_string_equal(cJSON_GetObjectItem(ctx, "now")->valuestring,
	    "2026-12-01T09:00:00+01:00");
	assert_string_equal(cJSON_GetObjectItem(ctx, "timezone")->valuestring,
	    "Europe/Berlin");
	assert_int_equal(cJSON_GetObjectItem(ctx, "slot_minutes")->valueint, 60);
	assert_int_equal(cJSON_GetObjectItem(ctx, "horizon_slots")->valueint, 24);
	f = cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "fronts"), 0);
	assert_string_equal(cJSON_GetObjectItem(f, "platform")->valuestring, "x");
	m = cJSON_GetObjectItem(cJSON_GetObjectItem(f, "limits"), "quiet_hours");
	assert_int_equal(cJSON_GetArrayItem(m, 0)->valueint, 23);
	assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(f, "limits"),
	    "max_posts_per_day"));
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "drafts"), 0);
	/* Without "fronts" a draft may go everywhere; ctx says so. */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(d, "fronts")), 2);
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "drafts"), 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(d, "topics")), 0);
	h = cJSON_GetArrayItem(cJSON_GetObjectItem(ctx, "history"), 0);
	assert_string_equal(cJSON_GetObjectItem(h, "posted_at")->valuestring,
	    "2026-11-20T09:05:00+01:00");
	m = cJSON_GetObjectItem(h, "metrics");
	assert_int_equal(cJSON_GetObjectItem(m, "impressions")->valueint, 10);
	assert_null(cJSON_GetObjectItem(m, "clicks"));	/* not given */
	/* no objective in fronts.json: the default, every weight spelt out */
	assert_false(p->objective.given);
	m = cJSON_GetObjectItem(ctx, "objective");
	assert_int_equal(cJSON_GetArraySize(m), 5);
	assert_int_equal(cJSON_GetObjectItem(m, "likes")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(m, "impressions")->valueint, 0);
	cJSON_Delete(ctx);
	project_free(p);
}

static void
test_unknown_fields_warn(void **state)
{
	struct files o = {
		"{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": \"now\", "
		"\"slot_minutes\": 30, \"horizon_slots\": 5, \"colour\": \"red\", "
		"\"fronts\": [{\"id\": \"x\", \"platform\": \"x\", \"flair\": 1, "
		"\"limits\": {\"max_post_per_day\": 3}}, "
		"{\"id\": \"m\", \"platform\": \"mastodon\"}]}",
		NULL,
		HLINE("\"mood\":\"happy\",\"metrics\":{\"bookmarks\":3}"),
		"{\"id\":\"d1\",\"text\":\"a\",\"poll\":[],"
		"\"thread\":[{\"text\":\"b\",\"mood\":1}]}\n"
	};
	struct project *p = load_ok(&o);

	assert_int_equal(p->nwarnings, 7);
	assert_true(has_warning(p, "fronts.json: field \"colour\": unknown"));
	assert_true(has_warning(p, "field \"fronts[0].flair\""));
	assert_true(has_warning(p, "field \"fronts[0].limits.max_post_per_day\""));
	assert_true(has_warning(p, "history.jsonl:1: field \"mood\""));
	assert_true(has_warning(p, "history.jsonl:1: field \"metrics.bookmarks\""));
	assert_true(has_warning(p, "drafts.jsonl:1: field \"poll\""));
	assert_true(has_warning(p, "drafts.jsonl:1: field \"thread[0].mood\""));
	project_free(p);
}

/* Keys starting with _comment are the operator's notes (fronts init
 * --empty writes some): no warning, at any level, in any file. */
static void
test_comment_keys_silent(void **state)
{
	struct files o = {
		"{\"_comment\": \"top\", \"name\": \"t\", \"timezone\": "
		"\"UTC\", \"start\": \"now\", \"slot_minutes\": 30, "
		"\"horizon_slots\": 5, \"fronts\": [{\"_comment_x\": \"a front\", "
		"\"id\": \"x\", \"platform\": \"x\", \"limits\": {\"_comment\": 1}}, "
		"{\"id\": \"m\", \"platform\": \"mastodon\", \"_commentary\": 2}]}",
		NULL,
		HLINE("\"_comment\":\"an import\",\"metrics\":{}"),
		"{\"id\":\"d1\",\"text\":\"a\",\"_comment\":\"later\"}\n"
	};
	struct project *p = load_ok(&o);

	assert_int_equal(p->nwarnings, 0);
	project_free(p);
}

static void
test_start_now(void **state)
{
	struct files o = { "{\"name\": \"t\", \"timezone\": \"Asia/Kolkata\", "
	    "\"start\": \"now\", \"slot_minutes\": 30, \"horizon_slots\": 5, "
	    "\"fronts\": [{\"id\": \"x\", \"platform\": \"x\"}, "
	    "{\"id\": \"m\", \"platform\": \"mastodon\"}]}", NULL, NULL, NULL };
	time_t before = clock_now();
	struct project *p = load_ok(&o);

	assert_true(p->start_now);
	assert_true(p->start >= before);
	assert_true(p->start <= clock_now() + 30 * 60);
	/* On a half-hour boundary of local time (+05:30). */
	assert_int_equal((p->start - time_local_midnight(p->start)) % 1800, 0);
	project_free(p);
	assert_int_equal(timeutil_set_zone("Europe/Berlin"), 0);
}

static void
test_blank_lines_and_crlf(void **state)
{
	struct files o = { NULL, "",	/* empty rules are allowed */
	    "\n\r\n   \n" HLINE("\"metrics\":{}") "\n",
	    "{\"id\":\"d1\",\"text\":\"a\"}\r\n\r\n{\"id\":\"d2\",\"text\":\"b\"}" };
	struct project *p;

	o.rules = " ";
	p = load_ok(&o);
	assert_int_equal(p->nhistory, 1);
	assert_int_equal(p->history[0].line, 4);
	assert_int_equal(p->ndrafts, 2);
	assert_int_equal(p->drafts[1].line, 3);
	assert_string_equal(p->drafts[0].text, "a");
	project_free(p);
}

static void
test_empty_history_and_future_post(void **state)
{
	struct files o = { NULL, NULL, "\n", NULL };
	struct project *p = load_ok(&o);

	assert_int_equal(p->nhistory, 0);
	project_free(p);
	o.history = "{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":"
	    "\"2026-12-02T09:00:00+01:00\",\"text\":\"t\",\"metrics\":{}}\n";
	p = load_ok(&o);
	assert_true(has_warning(p, "history.jsonl:1: field \"posted_at\": after"));
	project_free(p);
}

/* Every optional field of the four files left out: absent means unset
 * (limits), none (topics, metrics) or all (a draft's fronts). */
static void
test_optional_fields_absent(void **state)
{
	struct files o = {
	    "{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": "
	    "\"2026-12-01T08:00:00Z\", \"slot_minutes\": 60, \"horizon_slots\": 4, "
	    "\"fronts\": [{\"id\": \"x\", \"platform\": \"x\"}, "
	    "{\"id\": \"m\", \"platform\": \"mastodon\", \"limits\": {}}]}",
	    NULL,
	    "{\"id\":\"h1\",\"front\":\"x\",\"posted_at\":"
	    "\"2026-11-20T09:05:00Z\",\"text\":\"\",\"metrics\":{}}\n",
	    "{\"id\":\"d1\",\"text\":\"one\"}\n" };
	const struct limits *l;
	struct project *p = load_ok(&o);
	int i;

	assert_null(p->provider_name);
	assert_null(p->provider_model);
	for (i = 0; i < p->nfronts; i++) {
		assert_null(p->fronts[i].account);
		l = &p->fronts[i].limits;
		assert_int_equal(l->max_length, LIMIT_UNSET);
		assert_int_equal(l->max_posts_per_day, LIMIT_UNSET);
		assert_int_equal(l->min_gap_minutes, LIMIT_UNSET);
		assert_int_equal(l->quiet_start, LIMIT_UNSET);
		assert_int_equal(l->quiet_end, LIMIT_UNSET);
		assert_int_equal(l->max_links, LIMIT_UNSET);
		assert_int_equal(l->max_hashtags, LIMIT_UNSET);
		/* No instance, no cache: Mastodon's own limits unknown. */
		assert_int_equal(l->instance_length, LIMIT_UNSET);
		assert_int_equal(l->url_weight, LIMIT_UNSET);
	}
	assert_int_equal(p->nhistory, 1);
	assert_int_equal(p->history[0].ntopics, 0);
	assert_null(p->history[0].topics);
	assert_int_equal(p->history[0].metrics_set, 0);
	assert_true(p->history[0].impressions == 0 && p->history[0].likes == 0);
	assert_int_equal(p->ndrafts, 1);
	assert_int_equal(p->drafts[0].ntopics, 0);
	assert_int_equal(p->drafts[0].front_mask, 3);
	assert_int_equal(p->nwarnings, 0);
	project_free(p);
	assert_int_equal(timeutil_set_zone("Europe/Berlin"), 0);
}

/* A draft written with "topics": [] is tagged like one without the
 * field, and its empty array is freed, not leaked (found by
 * fuzz_project_jsonl; the ASan run of this test fails on the leak). */
static void
test_draft_empty_topics_tagged(void **state)
{
	struct files o = {
	    "{\"name\": \"t\", \"timezone\": \"UTC\", \"start\": "
	    "\"2026-12-01T08:00:00Z\", \"slot_minutes\": 60, \"horizon_slots\": 4, "
	    "\"topics\": {\"launch\": [\"launch\"]}, "
	    "\"fronts\": [{\"id\": \"x\", \"platform\": \"x\"}]}",
	    NULL, "\n",
	    "{\"id\":\"d1\",\"text\":\"our launch\",\"topics\":[]}\n"
	    "{\"id\":\"d2\",\"text\":\"nothing here\",\"topics\":[]}\n" };
	struct project *p = load_ok(&o);

	assert_int_equal(p->ndrafts, 2);
	assert_int_equal(p->drafts[0].ntopics, 1);
	assert_string_equal(p->drafts[0].topics[0], "launch");
	assert_int_equal(p->drafts[1].ntopics, 0);
	project_free(p);
	assert_int_equal(timeutil_set_zone("Europe/Berlin"), 0);
}

/* Images lose their metadata unless a front keeps it. */
static void
test_keep_metadata(void **state)
{
	struct files o = { FRONTS_WITH(
	    "{\"id\": \"x\", \"platform\": \"x\"},"
	    "{\"id\": \"m\", \"platform\": \"mastodon\", \"keep_metadata\": true}"),
	    NULL, NULL, NULL };
	struct project *p = load_ok(&o);

	assert_false(p->fronts[0].keep_metadata);
	assert_true(p->fronts[1].keep_metadata);
	assert_int_equal(p->nwarnings, 0);
	project_free(p);
}

static void
test_platform_names(void **state)
{
	int i;

	for (i = 0; i < PLATFORM_COUNT; i++)
		assert_int_equal(platform_from_name(platform_name(i)), i);
	assert_int_equal(platform_from_name("X"), -1);
	assert_int_equal(platform_from_name(NULL), -1);
	assert_string_equal(platform_name(PLATFORM_BLUESKY), "bluesky");
}

/* pins.jsonl error cases: the file, and what the message must hold. */
struct bad_pins {
	const char	*name;
	const char	*pins;
	const char	*want[3];
};

static const struct bad_pins bad_pin_cases[] = {
	{ "pin unknown draft", "{\"draft\":\"zz\",\"front\":\"x\"}\n",
	  { "pins.jsonl:1", "\"draft\"", "drafts.jsonl" } },
	{ "pin unknown front", "\n{\"draft\":\"d1\",\"front\":\"q\"}\n",
	  { "pins.jsonl:2", "\"front\"", "fronts.json" } },
	{ "pin without front", "{\"draft\":\"d1\"}\n",
	  { "pins.jsonl:1", "\"front\"", "missing" } },
	{ "pin drop with front",
	  "{\"draft\":\"d1\",\"drop\":true,\"front\":\"x\"}\n",
	  { "pins.jsonl:1", "\"drop\"", "no \"front\"" } },
	{ "pin drop not bool", "{\"draft\":\"d1\",\"drop\":1}\n",
	  { "pins.jsonl:1", "\"drop\"", "true or false" } },
	{ "pin bad time",
	  "{\"draft\":\"d1\",\"front\":\"x\",\"at\":\"tomorrow\"}\n",
	  { "pins.jsonl:1", "\"at\"", "ISO-8601" } },
	{ "pin twice", "{\"draft\":\"d1\",\"front\":\"x\"}\n"
	  "{\"draft\":\"d1\",\"front\":\"x\",\"at\":\"2026-12-01T10:00:00Z\"}\n",
	  { "pins.jsonl:2", "twice", "line 1" } },
	{ "pin and drop", "{\"draft\":\"d1\",\"front\":\"x\"}\n"
	  "{\"draft\":\"d1\",\"drop\":true}\n",
	  { "pins.jsonl:2", "both dropped and pinned", "line 1" } },
};

static void
test_bad_pins(void **state)
{
	struct error err = { 0 };
	struct project *p = NULL;
	struct files f = { NULL, NULL, NULL, NULL };
	size_t i, k;
	char *dir;

	for (i = 0; i < sizeof bad_pin_cases / sizeof bad_pin_cases[0]; i++) {
		pins_text = bad_pin_cases[i].pins;
		dir = make_project(&f);
		pins_text = NULL;
		assert_int_equal(project_load(dir, &p, &err), -1);
		assert_null(p);
		for (k = 0; k < 3 && bad_pin_cases[i].want[k] != NULL; k++)
			if (strstr(err.msg, bad_pin_cases[i].want[k]) == NULL)
				fail_msg("%s: no \"%s\" in \"%s\"",
				    bad_pin_cases[i].name,
				    bad_pin_cases[i].want[k], err.msg);
		remove_project(dir);
	}
}

/* pins.jsonl loads with its lines; unknown fields warn; the edits keep
 * one pin per draft and front (a drop replacing them all) and survive a
 * save and a reload. */
static void
test_pins_load_edit_save(void **state)
{
	struct files f = { NULL, NULL, NULL, NULL };
	struct error err = { 0 };
	struct project *p, *q;
	char *dir;

	pins_text = "{\"draft\":\"d1\",\"front\":\"x\","
	    "\"at\":\"2026-12-01T10:00:00+01:00\",\"why\":1}\n\n"
	    "{\"draft\":\"d2\",\"drop\":true}\n";
	dir = make_project(&f);
	pins_text = NULL;

	assert_int_equal(project_load(dir, &p, &err), 0);
	assert_int_equal(p->npins, 2);
	assert_int_equal(p->pins[0].draft, 0);
	assert_int_equal(p->pins[0].front, 0);
	assert_true(p->pins[0].has_at);
	assert_int_equal(p->pins[0].line, 1);
	assert_true(p->pins[1].drop);
	assert_int_equal(p->pins[1].line, 3);
	assert_true(has_warning(p, "pins.jsonl:1"));
	project_pin_set(p, 1, 1, NULL, 0);	/* replaces d2's drop */
	project_pin_set(p, 0, 0, NULL, 0);	/* replaces d1's time on x */
	project_pin_set(p, 0, 1, NULL, 0);
	assert_int_equal(p->npins, 3);
	assert_int_equal(project_pins_save(p, &err), 0);
	assert_int_equal(project_load(dir, &q, &err), 0);
	assert_int_equal(q->npins, 3);
	assert_false(q->pins[0].has_at);
	assert_false(q->pins[0].drop);
	project_pin_drop(q, 0);
	assert_int_equal(q->npins, 2);
	assert_true(q->pins[1].drop);
	assert_int_equal(q->pins[1].line, 2);
	project_pin_clear(q, 1);
	assert_int_equal(q->npins, 1);
	project_free(q);
	project_free(p);
	remove_project(dir);
}

/* A start that passed moves to the first slot of its grid from now. */
static void
test_start_at(void **state)
{
	struct project *p = load_ok(&(struct files){ 0 });
	time_t s = p->start;

	assert_false(project_start_at(p, s));
	assert_true(project_start_at(p, s + 3601));
	assert_int_equal(p->start, s + 7200);
	assert_int_equal(p->start_passed, s);
	assert_int_equal(project_next_slot(p, s, s + 60), s + 3600);
	project_free(p);
}

int
main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_demo_loads),
		cmocka_unit_test(test_ctx_json),
		cmocka_unit_test(test_unknown_fields_warn),
		cmocka_unit_test(test_draft_shape),
		cmocka_unit_test(test_comment_keys_silent),
		cmocka_unit_test(test_media_probed),
		cmocka_unit_test(test_start_now),
		cmocka_unit_test(test_blank_lines_and_crlf),
		cmocka_unit_test(test_empty_history_and_future_post),
		cmocka_unit_test(test_keep_metadata),
		cmocka_unit_test(test_platform_names),
		cmocka_unit_test(test_optional_fields_absent),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_draft_empty_topics_tagged),
		cmocka_unit_test(test_pins_load_edit_save),
		cmocka_unit_test(test_bad_pins),
		cmocka_unit_test(test_start_at),
	};
	struct CMUnitTest tests[sizeof fixed / sizeof fixed[0] + NBAD];
	size_t i, n = 0;

	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		tests[n++] = fixed[i];
	for (i = 0; i < NBAD; i++) {
		tests[n] = (struct CMUnitTest)cmocka_unit_test_prestate(test_bad,
		    (void *)&bad_cases[i]);
		tests[n++].name = bad_cases[i].name;
	}
	if (timeutil_set_zone("Europe/Berlin") != 0)
		return 1;
	return _cmocka_run_group_tests("project", tests, n, NULL, NULL);
}
