/* Unit tests for the dialog binding: an answer applies only to the model,
 * plan and post the dialog showed. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ui/ui.h"

static struct ui *
fake_ui(const char *sha, unsigned gen, int nposts)
{
	struct ui *ui = calloc(1, sizeof *ui);

	snprintf(ui->model_sha, sizeof ui->model_sha, "%s", sha);
	ui->plan_gen = gen;
	ui->have_plan = nposts > 0;
	ui->plan.nposts = nposts;
	return ui;
}

static void
test_model_binding(void **state)
{
	struct ui *ui = fake_ui("aaaa", 1, 3);
	struct dialog_bind shown, now;

	dialog_bind(ui, DIALOG_MODEL, -1, &shown);
	dialog_bind(ui, DIALOG_MODEL, -1, &now);
	assert_null(dialog_bind_changed(&shown, &now));
	ui->plan_gen++;		/* a new plan does not touch the model */
	dialog_bind(ui, DIALOG_MODEL, -1, &now);
	assert_null(dialog_bind_changed(&shown, &now));
	snprintf(ui->model_sha, sizeof ui->model_sha, "bbbb");
	dialog_bind(ui, DIALOG_MODEL, -1, &now);
	assert_string_equal(dialog_bind_changed(&shown, &now), "model changed");
	ui->model_sha[0] = '\0';	/* the model went away */
	dialog_bind(ui, DIALOG_MODEL, -1, &now);
	assert_non_null(dialog_bind_changed(&shown, &now));
	free(ui);
}

static void
test_post_binding(void **state)
{
	struct ui *ui = fake_ui("aaaa", 4, 3);
	struct dialog_bind shown, now;

	dialog_bind(ui, DIALOG_POST, 2, &shown);
	dialog_bind(ui, DIALOG_POST, 2, &now);
	assert_null(dialog_bind_changed(&shown, &now));
	snprintf(ui->model_sha, sizeof ui->model_sha, "bbbb");
	dialog_bind(ui, DIALOG_POST, 2, &now);
	assert_null(dialog_bind_changed(&shown, &now));
	/* A new plan, even as long: the post shown is not its post 3. */
	ui->plan_gen++;
	dialog_bind(ui, DIALOG_POST, 2, &now);
	assert_string_equal(dialog_bind_changed(&shown, &now), "plan changed");
	/* A shorter plan under the same generation cannot pass either. */
	ui->plan_gen = 4;
	ui->plan.nposts = 2;
	dialog_bind(ui, DIALOG_POST, 2, &now);
	assert_non_null(dialog_bind_changed(&shown, &now));
	/* Nor a post that was never in the plan. */
	dialog_bind(ui, DIALOG_POST, 5, &shown);
	dialog_bind(ui, DIALOG_POST, 5, &now);
	assert_non_null(dialog_bind_changed(&shown, &now));
	free(ui);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_binding),
		cmocka_unit_test(test_post_binding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
