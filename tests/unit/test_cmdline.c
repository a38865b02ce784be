/* Unit tests for the `:` command line's parser (cmdline_run): numbers and
 * their ranges, :theme, unknown commands, and the messages each leaves on
 * the status line. No terminal: the commands change struct ui only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ui/ui_int.h"

static int
setup(void **state)
{
	struct ui *ui = calloc(1, sizeof *ui);

	setenv("FRONTS_THEMES", "themes", 1);	/* tests run from the top */
	theme_default(&ui->theme);
	ui->params.iterations = 20000;
	ui->params.seed = 1;
	ui->params.workers = 2;
	*state = ui;
	return 0;
}

static int
teardown(void **state)
{
	struct ui *ui = *state;

	dialog_close(ui);
	free(ui);
	return 0;
}

static void
test_plan(void **state)
{
	struct ui *ui = *state;

	ui->params.seconds = 30;
	assert_int_equal(cmdline_run(ui, "plan 50000"), 0);
	assert_int_equal(ui->params.iterations, 50000);
	assert_true(ui->params.seconds == 0);	/* iterations, not time */
	/* It then starts the planner, which has no model to run. */
	assert_non_null(strstr(ui->msg, "no model to plan with"));
	assert_int_equal(cmdline_run(ui, ":plan"), 0);
	assert_int_equal(ui->params.iterations, 50000);
}

static void
test_plan_errors(void **state)
{
	static const char *bad[] = { "plan 0", "plan -5", "plan 12x",
	    "plan 100000001", "plan 1e5", "plan 99999999999999999999999" };
	struct ui *ui = *state;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ui->msg[0] = '\0';
		assert_int_equal(cmdline_run(ui, bad[i]), -1);
		assert_string_equal(ui->msg, ":plan needs a number from 1 to "
		    "100000000");
		assert_int_equal(ui->msg_role, THEME_ERROR);
		assert_int_equal(ui->params.iterations, 20000);
	}
}

static void
test_seed(void **state)
{
	struct ui *ui = *state;

	assert_int_equal(cmdline_run(ui, "seed 7"), 0);
	assert_int_equal(ui->params.seed, 7);
	assert_string_equal(ui->msg, "seed: 7 (next plan)");
	/* Leading ':' and blanks around the name and argument are skipped. */
	assert_int_equal(cmdline_run(ui, "  :seed   18446744073709551615  "),
	    0);
	assert_true(ui->params.seed == 18446744073709551615ULL);
	assert_int_equal(cmdline_run(ui, "seed 0"), 0);
	assert_int_equal(ui->params.seed, 0);
	assert_int_equal(cmdline_run(ui, "seed"), -1);
	assert_int_equal(cmdline_run(ui, "seed 18446744073709551616"), -1);
	assert_int_equal(cmdline_run(ui, "seed seven"), -1);
	assert_string_equal(ui->msg, ":seed needs a number from 0 to "
	    "18446744073709551615");
	assert_int_equal(ui->params.seed, 0);
}

static void
test_workers_seconds_isolation(void **state)
{
	struct ui *ui = *state;

	assert_int_equal(cmdline_run(ui, "workers 4"), 0);
	assert_int_equal(ui->params.workers, 4);
	assert_string_equal(ui->msg, "workers: 4 (next plan)");
	assert_int_equal(cmdline_run(ui, "workers 257"), -1);
	assert_int_equal(cmdline_run(ui, "workers 0"), -1);
	assert_int_equal(ui->params.workers, 4);
	assert_int_equal(cmdline_run(ui, "seconds 2.5"), 0);
	assert_true(ui->params.seconds == 2.5);
	assert_int_equal(ui->params.iterations, 0);
	assert_int_equal(cmdline_run(ui, "seconds 0"), -1);
	assert_int_equal(cmdline_run(ui, "seconds 86401"), -1);
	assert_int_equal(cmdline_run(ui, "seconds 3s"), -1);
	assert_string_equal(ui->msg, ":seconds needs a number of seconds (up "
	    "to 86400)");
	assert_true(ui->params.seconds == 2.5);
	assert_int_equal(cmdline_run(ui, "isolation thread"), 0);
	assert_int_equal(ui->params.isolation, ISOLATION_THREAD);
	assert_int_equal(cmdline_run(ui, "isolation sideways"), -1);
	assert_string_equal(ui->msg, ":isolation takes process or thread");
	assert_int_equal(ui->params.isolation, ISOLATION_THREAD);
}

static void
test_theme(void **state)
{
	struct ui *ui = *state;

	assert_int_equal(cmdline_run(ui, "theme"), 0);
	assert_non_null(strstr(ui->msg, "theme default; available:"));
	assert_non_null(strstr(ui->msg, " dark"));
	assert_non_null(strstr(ui->msg, " high-contrast"));
	assert_int_equal(cmdline_run(ui, "theme dark"), 0);
	assert_string_equal(ui->theme.name, "dark");
	assert_string_equal(ui->msg, "theme dark");
	assert_int_equal(cmdline_run(ui, "theme no-such-theme"), -1);
	assert_non_null(strstr(ui->msg, "no theme named 'no-such-theme'"));
	assert_string_equal(ui->theme.name, "dark");
}

static void
test_unknown_and_others(void **state)
{
	struct ui *ui = *state;

	assert_int_equal(cmdline_run(ui, "bogus 1"), -1);
	assert_string_equal(ui->msg, "unknown command :bogus (:help lists "
	    "them)");
	/* A prefix is not a command. */
	assert_int_equal(cmdline_run(ui, "pla 5"), -1);
	assert_int_equal(cmdline_run(ui, "  "), 0);	/* nothing to run */
	assert_int_equal(cmdline_run(ui, "write"), -1);
	assert_string_equal(ui->msg, ":write needs a file name");
	assert_int_equal(cmdline_run(ui, "write /tmp/never.json"), -1);
	assert_string_equal(ui->msg, "no plan to write yet (p plans)");
	assert_int_equal(cmdline_run(ui, "open"), -1);
	assert_string_equal(ui->msg, ":open needs a file");
	assert_int_equal(cmdline_run(ui, "help"), 0);
	assert_int_equal(dialog_kind(ui), MODAL_HELP);
	assert_false(ui->quit);
	assert_int_equal(cmdline_run(ui, "q"), 0);
	assert_true(ui->quit);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_seed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_workers_seconds_isolation,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_theme, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_and_others, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
