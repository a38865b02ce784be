/* Unit tests for the dialogs as UI state: an answer applies only to the
 * model, plan and post the dialog showed; scrolling, cancelling and the
 * quit and help dialogs. No terminal: the dialogs are answered through
 * dialog_key as the event loop would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "sandbox/approval.h"
#include "ui/ui_int.h"

#define SHA_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" \
		"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static struct ui *
fake_ui(const char *sha, unsigned gen, int nposts)
{
	struct ui *ui = calloc(1, sizeof *ui);

	snprintf(ui->model_sha, sizeof ui->model_sha, "%s", sha);
	ui->plan_gen = gen;
	ui->have_plan = nposts > 0;
	ui->plan.nposts = nposts;
	ui->posts = calloc((size_t)nposts + 1, sizeof *ui->posts);
	return ui;
}

static void
fake_free(struct ui *ui)
{
	dialog_close(ui);
	free(ui->posts);
	free(ui->dir);
	free(ui);
}

/* A fake ui with an accepted, unapproved model in a fresh project dir. */
static struct ui *
fake_model_ui(const char *sha)
{
	struct ui *ui = fake_ui(sha, 1, 0);
	char tmpl[] = "/tmp/fronts-test-dialog-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	ui->dir = strdup(tmpl);
	ui->model_path = "model.py";
	ui->model_src = "x = 1\n";
	ui->model_len = 6;
	ui->gate_ran = true;
	ui->gate.accepted = true;
	return ui;
}

static void
fake_model_free(struct ui *ui)
{
	char path[512];

	snprintf(path, sizeof path, "%s/.fronts/approved", ui->dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/.fronts", ui->dir);
	rmdir(path);
	rmdir(ui->dir);
	fake_free(ui);
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
	fake_free(ui);
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
	fake_free(ui);
}

/* The approve dialog is open; a synthesis loads a new model under it. */
static void
test_approve_refused_when_model_changes(void **state)
{
	struct ui *ui = fake_model_ui(SHA_A);

	ui_approve(ui);
	assert_int_equal(dialog_kind(ui), MODAL_APPROVE);
	assert_non_null(strstr(ui->modal.body, SHA_A));
	snprintf(ui->model_sha, sizeof ui->model_sha, "%s", SHA_B);
	ui_key(ui, 'y', false);
	assert_int_equal(dialog_kind(ui), MODAL_NONE);
	assert_string_equal(ui->msg, "model changed while the dialog was "
	    "open: nothing approved");
	assert_false(ui->approved);
	assert_false(approval_is_approved(ui->dir, SHA_A));
	assert_false(approval_is_approved(ui->dir, SHA_B));
	/* The same dialog with nothing changing underneath approves. */
	ui_approve(ui);
	ui_key(ui, 'y', false);
	assert_true(ui->approved);
	assert_true(approval_is_approved(ui->dir, SHA_B));
	assert_false(approval_is_approved(ui->dir, SHA_A));
	fake_model_free(ui);
}

static void
test_approve_cancelled(void **state)
{
	struct ui *ui = fake_model_ui(SHA_A);

	ui_approve(ui);
	ui_key(ui, 'n', false);
	assert_int_equal(dialog_kind(ui), MODAL_NONE);
	assert_string_equal(ui->msg, "not approved");
	assert_false(approval_is_approved(ui->dir, SHA_A));
	/* Nor does a function key approve. */
	ui_approve(ui);
	ui_key(ui, KEY_F(1), true);
	assert_int_equal(dialog_kind(ui), MODAL_NONE);
	assert_false(approval_is_approved(ui->dir, SHA_A));
	fake_model_free(ui);
}

/* The publish dialog is open; the planner hands over a new plan. */
static void
test_publish_refused_when_plan_changes(void **state)
{
	struct ui *ui = fake_ui(SHA_A, 4, 3);

	pubjob_ask(ui, 1, NULL, strdup("DRY RUN — post 2"));
	assert_int_equal(dialog_kind(ui), MODAL_PUBLISH);
	assert_string_equal(ui->modal.title, "Publish (dry run)");
	ui->plan_gen++;
	ui_key(ui, 'y', false);
	assert_int_equal(dialog_kind(ui), MODAL_NONE);
	assert_string_equal(ui->msg, "plan changed while the dialog was open: "
	    "nothing sent");
	assert_int_equal(ui->posts[1].state, UI_POST_NEW);
	/* A shorter plan under the same generation: the post is gone. */
	pubjob_ask(ui, 2, NULL, strdup("post 3"));
	ui->plan.nposts = 2;
	ui_key(ui, 'y', false);
	assert_string_equal(ui->msg, "post no longer in the plan while the "
	    "dialog was open: nothing sent");
	/* Undisturbed, y does what the dialog says. */
	ui->plan.nposts = 3;
	pubjob_ask(ui, 1, NULL, strdup("post 2"));
	ui_key(ui, 'y', false);
	assert_int_equal(ui->posts[1].state, UI_POST_DRYRUN);
	assert_string_equal(ui->msg, "dry run: nothing sent");
	pubjob_ask(ui, 0, NULL, strdup("post 1"));
	ui_key(ui, 'x', false);
	assert_int_equal(ui->posts[0].state, UI_POST_NEW);
	assert_string_equal(ui->msg, "cancelled: nothing was sent");
	fake_free(ui);
}

/* Keys go to the open dialog, never to the panes or global bindings. */
static void
test_dialog_takes_the_keys(void **state)
{
	struct ui *ui = fake_ui(SHA_A, 1, 2);

	ui->live = true;	/* unsent live posts: q asks */
	ui_key(ui, 'q', false);
	assert_int_equal(dialog_kind(ui), MODAL_QUIT);
	ui_key(ui, 'q', false);
	assert_false(ui->quit);
	assert_string_equal(ui->msg, "not quitting");
	ui_key(ui, 'q', false);
	ui_key(ui, 'y', false);
	assert_true(ui->quit);
	fake_free(ui);
}

/* ↑ and PgUp only scroll; ↓ and PgDn scroll until the end, then answer. */
static void
test_dialog_scroll(void **state)
{
	struct ui *ui = fake_ui(SHA_A, 1, 0);

	dialog_help(ui);
	assert_int_equal(dialog_kind(ui), MODAL_HELP);
	ui->modal.nlines = 30;	/* as the last draw measured it */
	ui->modal.inner = 10;
	ui_key(ui, KEY_UP, true);
	assert_int_equal(dialog_kind(ui), MODAL_HELP);
	assert_int_equal(ui->modal.top, 0);
	ui_key(ui, KEY_NPAGE, true);
	ui_key(ui, KEY_NPAGE, true);
	assert_int_equal(ui->modal.top, 20);
	ui_key(ui, KEY_PPAGE, true);
	assert_int_equal(ui->modal.top, 10);
	ui_key(ui, KEY_NPAGE, true);
	ui_key(ui, KEY_DOWN, true);	/* at the end: closes */
	assert_int_equal(dialog_kind(ui), MODAL_NONE);
	dialog_help(ui);
	ui_key(ui, 'y', false);		/* help: any key closes, y too */
	assert_int_equal(dialog_kind(ui), MODAL_NONE);
	assert_false(ui->quit);
	fake_free(ui);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_binding),
		cmocka_unit_test(test_post_binding),
		cmocka_unit_test(test_approve_refused_when_model_changes),
		cmocka_unit_test(test_approve_cancelled),
		cmocka_unit_test(test_publish_refused_when_plan_changes),
		cmocka_unit_test(test_dialog_takes_the_keys),
		cmocka_unit_test(test_dialog_scroll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
