/* Unit tests for synthesis: code extraction from answers, the refine
 * message, the prompt's untrusted-rules markers, and refinement on the
 * backtest. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fakellm.h"
#include "fixture_history.h"
#include "core/validate.h"
#include "net/provider.h"
#include "runs/synth.h"
#include "sandbox/builtin.h"

#ifndef TOP
#define TOP "."
#endif

static void
test_extract_one_block(void **state)
{
	char *why, *code;

	code = synth_extract("Here:\n\n```python\ndef f():\n    return 1\n```\n"
	    "Done.\n", &why);
	assert_non_null(code);
	assert_null(why);
	assert_string_equal(code, "def f():\n    return 1\n");
	free(code);
}

static void
test_extract_none(void **state)
{
	char *why;

	assert_null(synth_extract("No code today.", &why));
	assert_non_null(strstr(why, "no ```python code block"));
	free(why);
}

static void
test_extract_conflicting(void **state)
{
	char *why;

	assert_null(synth_extract("```python\nx = 1\n```\nor\n```python\n"
	    "x = 2\n```\n", &why));
	assert_non_null(strstr(why, "2 different code blocks"));
	free(why);
}

static void
test_extract_identical_blocks_count_once(void **state)
{
	char *why, *code;

	code = synth_extract("```python\nx = 1\n```\nagain:\n```python\nx = 1\n"
	    "```\n", &why);
	assert_non_null(code);
	assert_string_equal(code, "x = 1\n");
	free(code);
}

static void
test_extract_python_wins_over_other(void **state)
{
	char *why, *code;

	code = synth_extract("```json\n{}\n```\n```\nplain\n```\n```py\ny = 2\n"
	    "```\n", &why);
	assert_non_null(code);
	assert_string_equal(code, "y = 2\n");
	free(code);
}

static void
test_extract_unclosed(void **state)
{
	char *why;

	assert_null(synth_extract("text\n```python\ndef f(:\n", &why));
	assert_non_null(strstr(why, "opened at line 2 is never closed"));
	free(why);
}

/* An answer of one block of two million lines (4 MiB; answers may be
 * 32 MiB): extracted in linear time (the old extraction measured the code
 * so far for every line, some 10^12 byte reads here). */
static void
test_extract_long_block(void **state)
{
	size_t lines = 2000000, i, n = 10 + 2 * lines + 4;
	char *answer = xmalloc(n + 1), *code, *why;

	memcpy(answer, "```python\n", 10);
	for (i = 0; i < lines; i++)
		memcpy(answer + 10 + 2 * i, "x\n", 2);
	memcpy(answer + 10 + 2 * lines, "```\n", 4);
	answer[n] = '\0';
	code = synth_extract(answer, &why);
	assert_non_null(code);
	assert_int_equal(strlen(code), 2 * lines);
	assert_string_equal(code + 2 * lines - 4, "x\nx\n");
	free(code);
	free(answer);
}

/* The task prompt says what a draft holds beyond its first text: its
 * parts, images, the fronts with their own version, its window; the
 * system prompt describes ctx's parts, images and windows. */
static void
test_prompt_draft_shape(void **state)
{
	struct project *p = NULL;
	struct error err = { 0 };
	char *sys, *task;

	if (project_load(TOP "/fixtures/demo", &p, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(synth_prompt(p, &sys, &task, &err), 0);
	assert_non_null(strstr(task, "- d1 [launch] on x,linkedin,mastodon,"
	    "bluesky (1 image; x: own version of 1 part; linkedin: own version "
	    "of 1 part): "));
	assert_non_null(strstr(task, " (bluesky: own version of 3 parts): "));
	assert_non_null(strstr(task, "(not after 2026-12-03T19:00:00+01:00)"));
	assert_non_null(strstr(sys, "\"images\":"));
	assert_non_null(strstr(sys, "\"not_before\""));
	free(sys);
	free(task);
	project_free(p);
}

static void
test_refine_prompt(void **state)
{
	char *s = synth_refine_prompt(3, "line 1, col 0 [import]: no");

	assert_non_null(strstr(s, "candidate 3"));
	assert_non_null(strstr(s, "line 1, col 0 [import]: no"));
	assert_null(strstr(s, "{{"));
	free(s);
}

/* Problems past SYNTH_PROBLEMS_MAX bytes are cut after a whole line,
 * with how much was left out. */
static void
test_refine_prompt_cut(void **state)
{
	size_t n = 100000, i, bare;
	char *problems = xmalloc(n + 1), *s;

	s = synth_refine_prompt(1, "");
	bare = strlen(s);
	free(s);
	for (i = 0; i < n; i++)
		problems[i] = i % 100 == 99 ? '\n' : 'x';
	problems[n] = '\0';
	s = synth_refine_prompt(1, problems);
	assert_true(strlen(s) < bare + SYNTH_PROBLEMS_MAX + 100);
	assert_non_null(strstr(s,
	    "x\n[83700 more bytes of this report left out]"));
	free(s);
	free(problems);
}

/* Candidates are "validated" by the C models of fixture_history.h: a
 * module saying "# true" is the history's process, any other the
 * uninformed model. */
static int
fh_validate(void *arg, const struct project *p, const char *src, size_t len,
    cJSON **report, char **text, struct error *err)
{
	struct validate_params vp = { .rollouts = 2, .draws = 50, .seed = 1 };
	struct fh_model m = { .p = p, .rng = 1 };
	struct validate_report r;

	m.kind = strstr(src, "# true") != NULL ? FH_TRUE : FH_UNINFORMED;
	if (validate_run(p, &fh_ops, &m, NULL, &vp, &r, err) != 0)
		return -1;
	*report = validate_report_json(p, &r);
	*text = validate_report_text(p, &r);
	validate_report_free(&r);
	return 0;
}

/* A module as a JSON string's contents: newlines and quotes escaped. */
#define FH_MODULE(tag) \
	"```python\\n# " tag "\\ndef initial_state(ctx):\\n    return 0\\n" \
	"def legal_actions(s):\\n    return [(\\\"wait\\\",)]\\n" \
	"def apply(s, a, rng):\\n    return s, 0.0\\n" \
	"def is_terminal(s):\\n    return True\\n```"

/* Runs synthesis against the fake server scripted with script; the
 * requests it received into *log (malloc'd). */
static void
fh_synth(const struct project *p, const char *script, int rounds,
    struct synth_result *r, char **log)
{
	struct provider_options po = { 0 };
	struct synth_options so = { 0 };
	struct error err = { 0 };
	struct provider *prov;
	struct fakellm f;
	char *path;

	assert_int_equal(fakellm_start(&f, script, "k"), 0);
	setenv("ANTHROPIC_BASE_URL", f.url, 1);
	setenv("ANTHROPIC_API_KEY", "k", 1);
	po.name = "anthropic";
	po.model = "fake-model";
	po.timeout_ms = 5000;
	po.retry_scale = 0.001;
	assert_int_equal(provider_open(&po, &prov, &err), 0);
	so.rounds = rounds;
	so.validate = fh_validate;
	if (synth_run(p, prov, &so, r, &err) != 0)
		fail_msg("synth: %s", err.msg);
	path = path_join(f.dir, "requests.jsonl");
	assert_int_equal(file_read(path, log, NULL, &err), 0);
	free(path);
	provider_close(prov);
	fakellm_stop(&f);
}

/* An uninformed first candidate conforms but loses to the baselines:
 * round 2 refines it with its figures and worst posts, and the model
 * written as the process beats them and ends the loop. */
static void
test_refine_on_backtest(void **state)
{
	static const char script[] = "[{\"text\": \"" FH_MODULE("uninformed")
	    "\"}, {\"text\": \"" FH_MODULE("true") "\"}, {\"text\": "
	    "\"never asked\"}]";
	struct project *p = fh_project(1);
	struct synth_result r;
	char *data;
	cJSON *rep, *cb;

	fh_synth(p, script, 3, &r, &data);
	assert_int_equal(r.ncands, 2);
	assert_true(r.cands[0].all_pass && r.cands[0].measured);
	assert_false(r.cands[0].beats);
	assert_true(r.cands[0].losses > r.cands[0].wins);
	assert_int_equal(r.cands[1].parent, 0);
	assert_true(r.cands[1].beats);
	assert_int_equal(r.best, 1);
	assert_non_null(strstr(data, "worst-predicted posts"));
	assert_non_null(strstr(data, "hour_weekday"));
	rep = synth_report_json(&r, "anthropic", "anthropic", "fake-model",
	    NULL);
	cb = cJSON_GetObjectItemCaseSensitive(rep, "chosen_backtest");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cb,
	    "beats_baselines")));
	cJSON_Delete(rep);
	free(data);
	synth_result_free(&r);
	fx_free(p);
}

/* Thompson sampling over the same tests for every candidate: a module
 * the gate refused fails them all, so the conforming one, losing to the
 * baselines but measured, is the one refined again. */
static void
test_refine_picks_the_measured(void **state)
{
	static const char script[] = "[{\"text\": \"" FH_MODULE("uninformed")
	    "\"}, {\"text\": \"```python\\nimport os\\n```\"}, "
	    "{\"text\": \"" FH_MODULE("uninformed again") "\"}]";
	struct project *p = fh_project(2);
	struct synth_result r;
	char *data;

	fh_synth(p, script, 3, &r, &data);
	assert_int_equal(r.ncands, 3);
	assert_false(r.cands[1].gate_accepted);
	assert_true(r.cands[1].fails > r.cands[0].fails / 2);
	assert_int_equal(r.cands[2].parent, 0);
	assert_true(r.best == 0 || r.best == 2);
	free(data);
	synth_result_free(&r);
	fx_free(p);
}

/* --from-builtin: the task as without it, then the builtin model as the
 * starting point, extractable as a module; demo prompt within budget. */
static void
test_prompt_builtin(void **state)
{
	struct project *p;
	struct error err = { 0 };
	char *sys, *task, *with, *code, *why = NULL;
	size_t n;
	const char *src = builtin_source(&n);

	assert_int_equal(project_load("fixtures/demo", &p, &err), 0);
	assert_int_equal(synth_prompt(p, &sys, &task, &err), 0);
	with = synth_prompt_builtin(task);
	assert_memory_equal(with, task, strlen(task));
	assert_non_null(strstr(with + strlen(task), "A STARTING POINT"));
	code = synth_extract(with, &why);
	assert_non_null(code);
	assert_true(strlen(code) + 1 >= n - 1 && strncmp(code, src,
	    strlen(code)) == 0);
	print_message("demo prompt: %zu bytes, with the builtin %zu (budget "
	    "%d)\n", strlen(sys) + strlen(task), strlen(sys) + strlen(with),
	    SYNTH_PROMPT_BUDGET);
	assert_true(strlen(sys) + strlen(with) < SYNTH_PROMPT_BUDGET);
	free(code);
	free(why);
	free(with);
	free(sys);
	free(task);
	project_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extract_one_block),
		cmocka_unit_test(test_extract_none),
		cmocka_unit_test(test_extract_conflicting),
		cmocka_unit_test(test_extract_identical_blocks_count_once),
		cmocka_unit_test(test_extract_python_wins_over_other),
		cmocka_unit_test(test_extract_unclosed),
		cmocka_unit_test(test_extract_long_block),
		cmocka_unit_test(test_refine_prompt),
		cmocka_unit_test(test_prompt_draft_shape),
		cmocka_unit_test(test_refine_prompt_cut),
		cmocka_unit_test(test_refine_on_backtest),
		cmocka_unit_test(test_refine_picks_the_measured),
		cmocka_unit_test(test_prompt_builtin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
