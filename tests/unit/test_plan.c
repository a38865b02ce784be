/* Unit tests for plan JSON (both ways) and for building a plan from a
 * search result with the legality re-check. */
#include "testutil.h"
#include "fixture_project.h"
#include "core/plan.h"

static struct project *
plan_project(void)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T08:00:00Z", 60, 12, 2, 3);

	p->fronts[0].limits.max_posts_per_day = 1;
	p->drafts[2].front_mask = 2;		/* f1 only */
	return p;
}

static struct search_edge
edge(int kind, int d, int f, int slot, double r)
{
	struct search_edge e;

	memset(&e, 0, sizeof e);
	e.action.kind = kind;
	e.action.draft = d;
	e.action.front = f;
	e.slot = slot;
	e.visits = 100;
	e.reward_mean = r;
	e.mean = r;
	e.ci_lo = r - 1;
	e.ci_hi = r + 1;
	return e;
}

/* A front with a variant gets the variant's first post in the plan, and
 * that text is not an edit; the other front gets the default. */
static void
test_build_takes_the_variant(void **state)
{
	struct project *p = plan_project();
	struct legal *lg;
	struct search_edge pv[2];
	struct search_result r = { pv, 2, NULL, 0, 2 };
	struct plan pl;
	char **dropped;
	int nd;

	fx_variant(p, 0, "f1", "short for f1");
	lg = legal_new(p, NULL, 0, NULL);
	pv[0] = edge(ACTION_POST, 0, 0, 0, 1);
	pv[1] = edge(ACTION_POST, 0, 1, 0, 1);
	assert_int_equal(plan_build(p, lg, &r, &pl, &dropped, &nd), 0);
	assert_int_equal(nd, 0);
	free(dropped);
	assert_int_equal(pl.nposts, 2);
	assert_string_equal(pl.posts[0].text, "draft number 0");
	assert_string_equal(pl.posts[1].text, "short for f1");
	assert_false(plan_post_edited(p, &pl.posts[1]));
	assert_string_equal(project_draft_text(p, 0, 1), "short for f1");
	plan_free(&pl);
	legal_free(lg);
	fx_free(p);
}

static void
test_build_and_roundtrip(void **state)
{
	struct project *p = plan_project();
	struct legal *lg = legal_new(p, NULL, 0, NULL);
	struct search_edge pv[5];
	struct search_alt alts[2];
	struct search_result r = { pv, 5, alts, 2, 30.5 };
	struct plan pl, back;
	struct error err = { 0 };
	char **dropped;
	int nd, i;
	cJSON *j;
	char *s;

	pv[0] = edge(ACTION_POST, 0, 0, 0, 10);
	pv[1] = edge(ACTION_WAIT, 0, 0, 0, 0);
	pv[2] = edge(ACTION_POST, 1, 0, 1, 12);	/* cap 1 a day: dropped */
	pv[3] = edge(ACTION_POST, 2, 1, 1, 8);
	pv[4] = edge(ACTION_POST, 2, 0, 1, 99);	/* not allowed: dropped */
	alts[0].step = 0;
	alts[0].edge = edge(ACTION_POST, 1, 0, 0, 9);
	alts[1].step = 1;
	alts[1].edge = edge(ACTION_POST, 1, 1, 0, 7);
	assert_int_equal(plan_build(p, lg, &r, &pl, &dropped, &nd), 0);
	assert_int_equal(pl.nposts, 2);
	assert_int_equal(nd, 2);
	assert_non_null(strstr(dropped[0], "d1 on f0 dropped: cap"));
	assert_non_null(strstr(dropped[1], "not-allowed"));
	for (i = 0; i < nd; i++)
		free(dropped[i]);
	free(dropped);
	assert_int_equal(pl.posts[1].slot, 1);
	assert_string_equal(pl.posts[1].text, "draft number 2");
	assert_int_equal(pl.nalts, 2);
	assert_int_equal(pl.alts[0].decision, 0);
	assert_int_equal(pl.alts[1].decision, 1);	/* next post */
	pl.stats.iterations = 1000;
	pl.stats.seed = 7;
	pl.stats.workers = 2;
	pl.stats.isolation = ISOLATION_THREAD;

	j = plan_to_json(p, &pl);
	s = cJSON_PrintUnformatted(j);
	assert_non_null(strstr(s, "\"at\":\"2026-12-01T09:00:00+01:00\""));
	assert_non_null(strstr(s, "\"ci95\":[9,11]"));
	assert_non_null(strstr(s, "\"expected_total\":30.5"));
	assert_non_null(strstr(s, "\"isolation\":\"thread\""));
	assert_int_equal(plan_from_json(p, j, &back, &err), 0);
	assert_int_equal(back.nposts, 2);
	assert_int_equal(back.posts[1].front, 1);
	assert_int_equal(back.posts[1].draft, 2);
	assert_int_equal(back.posts[1].at, pl.posts[1].at);
	assert_int_equal(back.nalts, 2);
	assert_int_equal(back.stats.seed, 7);
	assert_int_equal(back.stats.isolation, ISOLATION_THREAD);
	assert_string_equal(back.id, pl.id);
	free(s);
	cJSON_Delete(j);
	plan_free(&back);
	plan_free(&pl);
	legal_free(lg);
	fx_free(p);
}

static void
expect_error(const struct project *p, const char *json, const char *msg)
{
	struct error err = { 0 };
	struct plan pl;
	cJSON *j = cJSON_Parse(json);

	assert_non_null(j);
	assert_int_equal(plan_from_json(p, j, &pl, &err), -1);
	if (strstr(err.msg, msg) == NULL)
		fail_msg("wanted \"%s\", got \"%s\"", msg, err.msg);
	cJSON_Delete(j);
}

static void
test_errors_name_fields(void **state)
{
	struct project *p = plan_project();

	expect_error(p, "[]", "not a JSON object");
	expect_error(p, "{}", "plan: missing");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"y\","
	    "\"draft\":\"d0\",\"text\":\"t\"}]}",
	    "plan[0].front: unknown front \"y\"");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\",\"text\":\"t\"},{\"slot\":-1}]}",
	    "plan[1].slot");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"zz\",\"text\":\"t\"}]}", "plan[0].draft: unknown");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\"}]}", "plan[0].text: missing");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\",\"text\":\"t\",\"at\":\"noon\"}]}",
	    "plan[0].at");
	expect_error(p, "{\"plan\":[],\"alternatives\":[{\"decision\":0,"
	    "\"slot\":0,\"action\":\"like\"}]}", "alternatives[0].action");
	expect_error(p, "{\"plan\":[],\"stats\":{\"iterations\":\"x\"}}",
	    "stats.iterations");
	expect_error(p, "{\"plan\":[],\"stats\":{\"workers\":1.5}}",
	    "stats.workers: 1.5 is not a whole number");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\",\"text\":\"t\",\"ci95\":[1,1e999]}]}",
	    "plan[0].ci95");
	fx_free(p);
}

/*
 * Leaves a pattern (all bits set: a NaN as a double) where the loader's
 * locals will be, so that a field read without having been set fails the
 * test instead of passing by luck of a zeroed stack.
 */
static void __attribute__((noinline))
paint_stack(void)
{
	volatile unsigned char junk[32768];
	size_t i;

	for (i = 0; i < sizeof junk; i++)
		junk[i] = 0xff;
}

static void
load_ok(const struct project *p, const char *json, struct plan *pl)
{
	struct error err = { 0 };
	cJSON *j = cJSON_Parse(json);

	assert_non_null(j);
	paint_stack();
	if (plan_from_json(p, j, pl, &err) != 0)
		fail_msg("%s: %s", json, err.msg);
	cJSON_Delete(j);
}

/* Every optional field of docs/DESIGN.md's object left out. */
static void
test_optional_fields_absent(void **state)
{
	struct project *p = plan_project();
	struct plan pl;

	load_ok(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\",\"text\":\"t\"}]}", &pl);
	assert_int_equal(pl.nposts, 1);
	assert_int_equal(pl.posts[0].at, project_slot_time(p, 1));
	assert_true(pl.posts[0].expected_reward == 0);
	assert_true(pl.posts[0].ci_lo == 0 && pl.posts[0].ci_hi == 0);
	assert_int_equal(pl.posts[0].visits, 0);
	assert_int_equal(pl.nalts, 0);
	assert_true(pl.expected_total == 0);
	assert_int_equal(pl.stats.iterations, 0);
	plan_free(&pl);

	load_ok(p, "{\"plan\":[],\"alternatives\":[{\"decision\":0,"
	    "\"slot\":2,\"action\":\"wait\"}],\"stats\":{}}", &pl);
	assert_int_equal(pl.nalts, 1);
	assert_int_equal(pl.alts[0].visits, 0);
	assert_true(pl.alts[0].mean == 0);
	assert_int_equal(pl.stats.iterations, 0);
	assert_int_equal(pl.stats.model_calls, 0);
	assert_int_equal(pl.stats.illegal_proposals, 0);
	assert_int_equal(pl.stats.seed, 0);
	assert_int_equal(pl.stats.workers, 0);
	assert_true(pl.stats.seconds == 0 && pl.stats.model_seconds == 0);
	assert_false(pl.stats.stopped);
	assert_int_equal(pl.stats.isolation, ISOLATION_PROCESS);
	plan_free(&pl);

	/* The report's case: stats without iterations (and a key that only
	 * differs in case, which is not the field). */
	load_ok(p, "{\"plan\":[],\"stats\":{\"Iterations\":5,"
	    "\"model_calls\":3,\"seconds\":1.5,\"isolation\":\"thread\"}}",
	    &pl);
	assert_int_equal(pl.stats.iterations, 0);
	assert_int_equal(pl.stats.model_calls, 3);
	assert_true(pl.stats.seconds == 1.5);
	assert_int_equal(pl.stats.isolation, ISOLATION_THREAD);
	plan_free(&pl);
	fx_free(p);
}

/* A deep copy: every post's text and the alternatives are the copy's
 * own, so editing or freeing one plan leaves the other as it was. */
static void
test_copy(void **state)
{
	struct plan src, dst;
	int i;

	memset(&src, 0, sizeof src);
	src.nposts = 2;
	src.posts = xcalloc(3, sizeof *src.posts);
	src.posts[0] = (struct plan_post){ .slot = 1, .front = 1, .draft = 2,
	    .text = xstrdup("first"), .expected_reward = 1.5, .visits = 7 };
	src.posts[1] = (struct plan_post){ .slot = 4,
	    .text = xstrdup("second") };
	src.nalts = 1;
	src.alts = xcalloc(2, sizeof *src.alts);
	src.alts[0] = (struct plan_alt){ .decision = 1, .slot = 3, .visits = 9,
	    .mean = 0.25 };
	src.expected_total = 2.5;
	src.stats.iterations = 100;
	snprintf(src.id, sizeof src.id, "p0123456789abcdef");
	snprintf(src.model_sha256, sizeof src.model_sha256, "%064d", 0);

	plan_copy(&dst, &src);
	assert_int_equal(dst.nposts, 2);
	assert_int_equal(dst.nalts, 1);
	assert_ptr_not_equal(dst.posts, src.posts);
	assert_ptr_not_equal(dst.alts, src.alts);
	for (i = 0; i < 2; i++) {
		assert_ptr_not_equal(dst.posts[i].text, src.posts[i].text);
		assert_string_equal(dst.posts[i].text, src.posts[i].text);
		assert_int_equal(dst.posts[i].slot, src.posts[i].slot);
	}
	assert_int_equal(dst.posts[0].draft, 2);
	assert_true(dst.posts[0].expected_reward == 1.5);
	assert_int_equal(dst.alts[0].visits, 9);
	assert_true(dst.expected_total == 2.5);
	assert_int_equal(dst.stats.iterations, 100);
	assert_string_equal(dst.id, src.id);
	assert_string_equal(dst.model_sha256, src.model_sha256);
	/* An edit of the original does not reach the copy. */
	free(src.posts[0].text);
	src.posts[0].text = xstrdup("edited");
	assert_string_equal(dst.posts[0].text, "first");
	plan_free(&src);
	assert_string_equal(dst.posts[1].text, "second");
	assert_true(dst.alts[0].mean == 0.25);
	plan_free(&dst);
	/* An empty plan copies to an empty plan. */
	memset(&src, 0, sizeof src);
	plan_copy(&dst, &src);
	assert_int_equal(dst.nposts, 0);
	assert_non_null(dst.posts);
	plan_free(&dst);
}

/* A plan is bounded by what the project can produce: 12 slots × 2 fronts
 * here, so 25 posts are refused before any is read; a text over its
 * front's limit is refused with its name. */
static void
test_plan_bounded_by_project(void **state)
{
	struct project *p = plan_project();
	char *json = xstrdup("{\"plan\":["), *next;
	int i;

	for (i = 0; i < 25; i++) {
		xasprintf(&next, "%s%s{\"slot\":%d}", json, i ? "," : "", i);
		free(json);
		json = next;
	}
	xasprintf(&next, "%s]}", json);
	expect_error(p, next, "plan: 25 posts, more than this project can "
	    "produce (12 slots × 2 fronts = 24)");
	free(next);
	free(json);
	p->fronts[0].limits.max_length = 10;
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\",\"text\":\"eleven char\"}]}",
	    "plan[0].text: length 11/10 chars on front f0: over");
	fx_free(p);
}

/* A plan without expected_reward predicts nothing: unknown, not 0. */
static void
test_absent_reward_stays_unknown(void **state)
{
	struct project *p = plan_project();
	struct plan pl;
	cJSON *j;

	load_ok(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\",\"draft\":"
	    "\"d0\",\"text\":\"t\"},{\"slot\":2,\"front\":\"f0\",\"draft\":"
	    "\"d1\",\"text\":\"t\",\"expected_reward\":0}]}", &pl);
	assert_false(pl.posts[0].reward_known);
	assert_true(pl.posts[1].reward_known);
	j = plan_to_json(p, &pl);
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(j, "plan"), 0), "expected_reward"));
	assert_non_null(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(j, "plan"), 1), "expected_reward"));
	cJSON_Delete(j);
	plan_free(&pl);
	fx_free(p);
}

/* Every plan written carries the project's identity: another project's
 * plan is refused, one made before the drafts changed is warned about,
 * an edited text is seen as such. */
static void
test_identity_and_edits(void **state)
{
	struct project *p = plan_project();
	struct error err = { 0 };
	struct plan pl, back;
	char warn[512], *s;
	cJSON *j;

	load_ok(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\",\"draft\":"
	    "\"d0\",\"text\":\"draft number 0\"},{\"slot\":2,\"front\":"
	    "\"f1\",\"draft\":\"d1\",\"text\":\"my own words\"}]}", &pl);
	assert_false(pl.has_project);
	assert_int_equal(plan_identity_check(p, &pl, warn, sizeof warn, &err),
	    0);
	assert_non_null(strstr(warn, "no project identity"));
	assert_false(plan_post_edited(p, &pl.posts[0]));
	assert_true(plan_post_edited(p, &pl.posts[1]));
	j = plan_to_json(p, &pl);
	s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	load_ok(p, s, &back);
	assert_true(back.has_project);
	assert_int_equal(plan_identity_check(p, &back, warn, sizeof warn,
	    &err), 0);
	assert_string_equal(warn, "");
	fx_set_text(p, 1, "a changed draft");
	assert_int_equal(plan_identity_check(p, &back, warn, sizeof warn,
	    &err), 0);
	assert_non_null(strstr(warn, "made before the drafts changed"));
	free(p->name);
	p->name = xstrdup("another");
	assert_int_equal(plan_identity_check(p, &back, warn, sizeof warn,
	    &err), -1);
	assert_non_null(strstr(err.msg, "made for project \"fixture\", not "
	    "\"another\""));
	free(s);
	plan_free(&back);
	plan_free(&pl);
	fx_free(p);
}

/* A thread's later parts, once edited, are the plan's: "thread" in the
 * JSON (only then, so other plans keep their ids), copied, counted as an
 * edit, and refused with their field when they are too many, too few or
 * over the front's limit. */
static void
test_edited_later_parts(void **state)
{
	struct project *p = plan_project();
	struct plan pl, back, cp;
	char *s, *big, *json;
	cJSON *j;

	fx_part(&p->drafts[0].body, "part two");
	fx_part(&p->drafts[0].body, "part three");
	load_ok(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\",\"draft\":"
	    "\"d0\",\"text\":\"draft number 0\"}]}", &pl);
	assert_int_equal(plan_post_nparts(p, &pl.posts[0]), 3);
	assert_string_equal(plan_post_part(p, &pl.posts[0], 2), "part three");
	assert_false(plan_post_edited(p, &pl.posts[0]));
	j = plan_to_json(p, &pl);
	s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	assert_null(strstr(s, "\"thread\""));
	free(s);
	plan_post_set_part(p, &pl.posts[0], 2, xstrdup("part three, edited"));
	assert_true(plan_post_edited(p, &pl.posts[0]));
	assert_false(plan_post_part_edited(p, &pl.posts[0], 1));
	assert_true(plan_post_part_edited(p, &pl.posts[0], 2));
	plan_copy(&cp, &pl);
	plan_post_set_part(p, &pl.posts[0], 1, xstrdup("not in the copy"));
	assert_string_equal(plan_post_part(p, &cp.posts[0], 1), "part two");
	assert_string_equal(plan_post_part(p, &cp.posts[0], 2),
	    "part three, edited");
	j = plan_to_json(p, &cp);
	s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	assert_non_null(strstr(s, "\"thread\":[\"part two\","
	    "\"part three, edited\"]"));
	load_ok(p, s, &back);
	assert_string_equal(plan_post_part(p, &back.posts[0], 2),
	    "part three, edited");
	assert_string_not_equal(back.id, pl.id);
	free(s);
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\",\"draft\":"
	    "\"d0\",\"text\":\"x\",\"thread\":[\"only one\"]}]}",
	    "plan[0].thread: not an array of the 2 later parts draft d0 has "
	    "on front f0");
	expect_error(p, "{\"plan\":[{\"slot\":1,\"front\":\"f0\",\"draft\":"
	    "\"d0\",\"text\":\"x\",\"thread\":[\"a\",3]}]}",
	    "plan[0].thread[1]: not a string");
	big = xcalloc(3200, 1);
	memset(big, 'a', 3100);
	xasprintf(&json, "{\"plan\":[{\"slot\":1,\"front\":\"f0\","
	    "\"draft\":\"d0\",\"text\":\"x\",\"thread\":[\"a\",\"%s\"]}]}",
	    big);
	expect_error(p, json, "plan[0].thread[1]: length 3100/3000");
	free(json);
	free(big);
	plan_free(&back);
	plan_free(&cp);
	plan_free(&pl);
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_and_roundtrip),
		cmocka_unit_test(test_build_takes_the_variant),
		cmocka_unit_test(test_errors_name_fields),
		cmocka_unit_test(test_optional_fields_absent),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_plan_bounded_by_project),
		cmocka_unit_test(test_absent_reward_stays_unknown),
		cmocka_unit_test(test_identity_and_edits),
		cmocka_unit_test(test_edited_later_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
