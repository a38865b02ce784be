/*
 * fuzz_history — libFuzzer harness for the export parsers: the first byte
 * picks the format (X archive, Mastodon outbox or statuses, Bluesky CAR or
 * feed, LinkedIn, mapped CSV), the rest is the file. A refusal must leave
 * an empty batch and a message; an accepted batch holds no post dated
 * after now and must merge into history.jsonl as lines that are each
 * one JSON object. The first byte's high bit says whether another
 * account's outbox is forced in.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/history_int.h"
#include "core/history_merge.h"
#include "core/timeutil.h"

static void
check_merge(const struct hist_batch *b)
{
	static const char old[] = "{\"id\":\"h1\",\"front\":\"f\","
	    "\"platform_id\":\"1\",\"metrics\":{\"likes\":3}}\n";
	struct hist_merge_in in = { "history.jsonl", old, sizeof old - 1, "f",
	    NULL, 1800000000 };
	struct hist_merge m;
	struct error err = { 0 };
	char *line, *save = NULL;
	cJSON *j;

	if (hist_merge(&in, b, &m, &err) != 0)
		abort();
	for (line = strtok_r(m.text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((j = cJSON_Parse(line)) == NULL || !cJSON_IsObject(j))
			abort();
		cJSON_Delete(j);
	}
	hist_merge_free(&m);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	timeutil_set_zone("UTC");
	return 0;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct hist_csv_map map = { .time = "when", .text = "body",
	    .id = "id", .url = "url" };
	struct hist_opts o = { "fuzz", "@me", &map, 1800000000, true };
	struct hist_batch b;
	struct error err = { 0 };
	char *copy, *html;
	int i, rc;

	if (len == 0)
		return 0;
	map.metrics[HIST_LIKES] = "likes";
	o.force = (data[0] & 0x80) == 0;
	copy = malloc(len);
	memcpy(copy, data + 1, len - 1);
	copy[len - 1] = '\0';
	rc = hist_parse((enum hist_format)(data[0] % HIST_FMT_COUNT), &o, copy,
	    len - 1, &b, &err);
	if (rc != 0 && (b.nitems != 0 || err.msg[0] == '\0'))
		abort();
	for (i = 0; rc == 0 && i < b.nitems; i++)
		if (b.items[i].text == NULL ||
		    b.items[i].posted_at > o.now + HIST_FUTURE_SLACK)
			abort();
	if (rc == 0)
		check_merge(&b);
	hist_batch_free(&b);
	html = hist_html_text(copy);
	free(html);
	free(copy);
	return 0;
}
