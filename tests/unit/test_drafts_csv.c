/* Unit tests for drafts from a spreadsheet: the --map, quoted newlines,
 * ids already taken (by drafts.jsonl or an earlier row), ids made from
 * the text, every refusal naming its line and column, and the append. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture_project.h"
#include "core/drafts_csv.h"

static struct project *
two_fronts(void)
{
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 24, 2,
	    2);

	p->fronts[1].platform = PLATFORM_BLUESKY;
	return p;
}

static void
test_map_parse(void **state)
{
	struct drafts_csv_map m;
	char a[] = "text=Post,id=ID,topics=Tags,fronts=Where,not_before=From,"
	    "not_after=To", b[] = "id=ID", c[] = "text=A,text=B",
	    d[] = "text=A,time=B", e[] = "text=";

	assert_int_equal(drafts_csv_map_parse(a, &m), 0);
	assert_string_equal(m.text, "Post");
	assert_string_equal(m.not_after, "To");
	assert_int_equal(drafts_csv_map_parse(b, &m), -1);	/* no text */
	assert_int_equal(drafts_csv_map_parse(c, &m), -1);	/* twice */
	assert_int_equal(drafts_csv_map_parse(d, &m), -1);	/* unknown */
	assert_int_equal(drafts_csv_map_parse(e, &m), -1);
}

/* A quoted field holds commas, doubled quotes and line breaks (CRLF in
 * the text becomes "\n"); the line numbers after it stay right. */
static void
test_rows(void **state)
{
	static const char csv[] =
	    "\xEF\xBB\xBFID,Post,Tags,Where,From\r\n"
	    "n1,\"Hello, \"\"world\"\"\r\nsecond line\",launch; pricing,"
	    "f0;f1,2026-12-01T10:00:00+01:00\r\n"
	    "d0,taken,,,\r\n"
	    ",made id,,,\r\n"
	    ",,,,\r\n"
	    "n1,again,,,\r\n";
	struct drafts_csv_map m = { "Post", "ID", "Tags", "Where", "From",
	    NULL };
	struct project *p = two_fronts();
	struct drafts_import im;
	struct error err = { 0 };
	char hex[65], want[64];

	assert_int_equal(drafts_csv_read(p, "s.csv", csv, sizeof csv - 1, &m,
	    &im, &err), 0);
	assert_int_equal(im.added, 2);
	sha256_hex("made id", 7, hex);
	snprintf(want, sizeof want, "{\"id\":\"csv-%.10s\",\"text\":\"made "
	    "id\"}\n", hex);
	assert_non_null(strstr(im.lines, want));
	assert_memory_equal(im.lines, "{\"id\":\"n1\",\"text\":\"Hello, "
	    "\\\"world\\\"\\nsecond line\",\"topics\":[\"launch\",\"pricing\"],"
	    "\"fronts\":[\"f0\",\"f1\"],\"not_before\":\"2026-12-01T10:00:00+01:00\"}"
	    "\n", 126);
	assert_int_equal(im.nexisting, 2);
	assert_string_equal(im.existing[0], "line 4: id \"d0\" already in "
	    "drafts.jsonl");
	assert_string_equal(im.existing[1], "line 7: id \"n1\" already in an "
	    "earlier row");
	assert_int_equal(im.nskipped, 1);
	assert_string_equal(im.skipped[0], "line 6: no text");
	drafts_import_free(&im);
	fx_free(p);
}

struct bad {
	const char	*name;
	const char	*csv;
	const char	*want;
};

static const struct bad bad_cases[] = {
	{ "no text column", "Body\nhi\n", "s.csv: line 1: no column \"Post\"" },
	{ "unknown front", "Post,Where\nok,f0\nno,f0;nowhere\n",
	  "s.csv: line 3: column \"Where\" (fronts): \"nowhere\" is not a front" },
	{ "front twice", "Post,Where\nno,f0;f0\n",
	  "s.csv:2: field \"fronts[1]\": front listed twice" },
	{ "bad time", "Post,From\nno,tomorrow\n",
	  "s.csv: line 2: column \"From\" (not_before): \"tomorrow\" is not an "
	  "ISO-8601 time" },
	{ "window inverted", "Post,From,To\nno,2026-12-02T00:00:00Z,"
	  "2026-12-01T00:00:00Z\n", "s.csv:2: field \"not_after\": expected a "
	  "time after not_before" },
	{ "id with a control character", "ID,Post\n\"a\tb\",no\n",
	  "s.csv:2: field \"id\": expected an id without control characters" },
	{ "truncated quote", "Post\n\"open\n",
	  "the file ends inside a quoted field opened in the record of line 2" },
	{ "quote inside a field", "Post\nab\"c\n",
	  "s.csv: line 2, column 3: a quote or NUL inside an unquoted field" },
	{ "invalid UTF-8", "Post\n\xff\xfe\n",
	  "s.csv: line 2: column \"Post\" (text): not valid UTF-8" },
	{ "empty file", "", "s.csv: empty file" },
};

/* Each refusal names the file, the line (and the column or field), and
 * leaves nothing to append. */
static void
test_bad(void **state)
{
	struct drafts_csv_map m;
	struct drafts_import im;
	struct project *p = two_fronts();
	size_t i;

	for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		struct error err = { 0 };
		const char *c = bad_cases[i].csv;
		size_t hl = strcspn(c, "\n");

		/* Map the columns the case's header has (a mapped column
		 * must be there). */
#define HAS(name) (memmem(c, hl, name, strlen(name)) != NULL ? name : NULL)
		m = (struct drafts_csv_map){ "Post", HAS("ID"), NULL,
		    HAS("Where"), HAS("From"), HAS("To") };
#undef HAS

		if (drafts_csv_read(p, "s.csv", bad_cases[i].csv,
		    strlen(bad_cases[i].csv), &m, &im, &err) != -1)
			fail_msg("%s: accepted", bad_cases[i].name);
		if (strstr(err.msg, bad_cases[i].want) == NULL)
			fail_msg("%s: no \"%s\" in: %s", bad_cases[i].name,
			    bad_cases[i].want, err.msg);
		assert_null(im.lines);
		assert_int_equal(im.added, 0);
	}
	fx_free(p);
}

/* A file whose last byte is the comma before an empty last field, held
 * without a NUL after it (as a fuzzer or a mapped file gives it): the
 * field is empty and nothing is read past the end. */
static void
test_trailing_comma_at_the_end(void **state)
{
	static const char csv[] = "Post,Where\nhi,";
	struct drafts_csv_map m = { "Post", NULL, NULL, "Where", NULL, NULL };
	struct project *p = two_fronts();
	struct drafts_import im;
	struct error err = { 0 };
	char *data = xmalloc(sizeof csv - 1);

	memcpy(data, csv, sizeof csv - 1);
	assert_int_equal(drafts_csv_read(p, "s.csv", data, sizeof csv - 1, &m,
	    &im, &err), 0);
	assert_int_equal(im.added, 1);
	assert_non_null(strstr(im.lines, "\"text\":\"hi\"}"));
	drafts_import_free(&im);
	free(data);
	fx_free(p);
}

/* The append keeps drafts.jsonl's last line whole even when it lacks its
 * newline, and the project loads with the new drafts. */
static void
test_append(void **state)
{
	char dir[] = "/tmp/fronts-dcsv-XXXXXX", *path, *text, cmd[128];
	struct drafts_import im = { 0 };
	struct error err = { 0 };
	size_t len;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "drafts.jsonl");
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"id\":\"d1\",\"text\":\"a\"}", f);
	fclose(f);
	im.lines = xstrdup("{\"id\":\"n1\",\"text\":\"b\"}\n");
	im.len = strlen(im.lines);
	im.added = 1;
	assert_int_equal(drafts_append(dir, &im, &err), 0);
	assert_int_equal(file_read(path, &text, &len, &err), 0);
	assert_string_equal(text, "{\"id\":\"d1\",\"text\":\"a\"}\n"
	    "{\"id\":\"n1\",\"text\":\"b\"}\n");
	free(text);
	drafts_import_free(&im);
	free(path);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_parse),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_trailing_comma_at_the_end),
		cmocka_unit_test(test_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
