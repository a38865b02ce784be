/*
 * fuzz_drafts_csv — libFuzzer harness for `fronts drafts import`: the
 * input is a CSV read against a small valid project with every column
 * mapped. An import either fails with a message and holds nothing, or
 * each line it would append passes drafts.jsonl's own rules.
 */
#include "fuzz_project_common.h"
#include "core/drafts_csv.h"

static struct project *fuzz_p;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err = { 0 };

	fuzz_setup();
	if (project_load(fuzz_dir, &fuzz_p, &err) != 0)
		abort();
	return 0;
}

static void
fuzz_check_lines(const struct drafts_import *im)
{
	struct error err = { 0 };
	const char *s = im->lines, *e;
	cJSON *o;
	int n = 0;

	while (s != NULL && s < im->lines + im->len) {
		e = memchr(s, '\n', (size_t)(im->lines + im->len - s));
		if (e == NULL)
			abort();	/* every line ends */
		o = cJSON_ParseWithLength(s, (size_t)(e - s));
		if (o == NULL || project_draft_check(fuzz_p, "fuzz", ++n, o,
		    &err) != 0)
			abort();
		cJSON_Delete(o);
		s = e + 1;
	}
	if (n != im->added)
		abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct drafts_csv_map m = { "Post", "ID", "Tags", "Where", "From",
	    "To" };
	struct drafts_import im;
	struct error err = { 0 };

	if (drafts_csv_read(fuzz_p, "fuzz.csv", (const char *)data, len, &m,
	    &im, &err) != 0) {
		if (err.msg[0] == '\0' || im.lines != NULL || im.added != 0)
			abort();
		return 0;
	}
	fuzz_check_lines(&im);
	drafts_import_free(&im);
	return 0;
}
