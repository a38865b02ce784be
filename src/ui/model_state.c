/*
 * model_state — the model the TUI shows and would plan with: its source
 * read from the file, its sha256, the gate's verdicts and whether the
 * operator approved those exact bytes; `a` asks in a dialog bound to the
 * sha it showed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/approval.h"
#include "ui/ui_int.h"

void
ui_model_clear(struct ui *ui)
{
	free(ui->model_src);
	ui->model_src = NULL;
	ui->model_len = 0;
	if (ui->gate_ran)
		gate_result_free(&ui->gate);
	memset(&ui->gate, 0, sizeof ui->gate);
	ui->gate_ran = false;
	ui->gate_error[0] = '\0';
	ui->model_sha[0] = '\0';
	ui->approved = false;
	memset(&ui->conform, 0, sizeof ui->conform);
	ui->plan_pending = false;
}

void
ui_load_model(struct ui *ui, const char *path)
{
	struct error err = { 0 };
	char *copy = xstrdup(path);

	ui_model_clear(ui);
	free(ui->model_path);
	ui->model_path = copy;
	ui->panes[PANE_MODEL].top = 0;
	ui->dirty = true;
	if (access(path, F_OK) != 0 && errno == ENOENT) {
		snprintf(ui->gate_error, sizeof ui->gate_error, "no world model "
		    "yet: s synthesises one, :synth builtin writes the builtin "
		    "model (no language model needed)");
		return;
	}
	if (file_read(path, &ui->model_src, &ui->model_len, &err) != 0) {
		snprintf(ui->gate_error, sizeof ui->gate_error, "%s", err.msg);
		return;
	}
	sha256_hex(ui->model_src, ui->model_len, ui->model_sha);
	if (gate_check_source(ui->model_src, ui->model_len, &ui->gate,
	    &err) != 0)
		snprintf(ui->gate_error, sizeof ui->gate_error, "gate: %s",
		    err.msg);
	else
		ui->gate_ran = true;
	ui->approved = approval_is_approved(ui->dir, ui->model_sha);
	conform_read(ui->dir, ui->model_sha, &ui->conform);
	ui_accuracy_model(ui);
}

/* The model's sha is the one the dialog showed: the binding checked it. */
static void
ui_approve_yes(struct ui *ui, void *ctx)
{
	struct error err = { 0 };

	if (approval_add(ui->dir, ui->model_sha, &err) != 0) {
		ui_message(ui, THEME_ERROR, "approve: %s", err.msg);
		return;
	}
	ui->approved = true;
	ui_accuracy_model(ui);
	ui_message(ui, THEME_OK, "approved %.12s…", ui->model_sha);
}

static void
ui_approve_no(struct ui *ui, void *ctx)
{
	ui_message(ui, THEME_NORMAL, "not approved");
}

static const struct modal_ops ui_approve_ops = {
	.kind = MODAL_APPROVE,
	.subject = DIALOG_MODEL,
	.footer = DIALOG_YES_NO,
	.refused = "approved",
	.yes = ui_approve_yes,
	.no = ui_approve_no,
};

void
ui_approve(struct ui *ui)
{
	char *body;

	if (ui->model_src == NULL) {
		ui_message(ui, THEME_ERROR, "no model to approve");
		return;
	}
	if (!ui->gate_ran || !ui->gate.accepted) {
		ui_message(ui, THEME_ERROR, "refused: the gate rejected it; it "
		    "cannot be approved");
		return;
	}
	if (ui->approved) {
		ui_message(ui, THEME_OK, "this model is already approved");
		return;
	}
	xasprintf(&body, "Approve %s to run?\n\nsha256 %s\n"
	    "(%zu bytes, %s)\n\nApprove only code you have read. "
	    "y approves; any other key cancels.", ui->model_path,
	    ui->model_sha, ui->model_len, "gate: accepted");
	dialog_open(ui, &ui_approve_ops, -1, "Approve model", body, NULL);
}
