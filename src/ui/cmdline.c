/*
 * cmdline — the `:` command line and the post editor, both GNU readline
 * run outside curses mode (the screen is saved and restored around it):
 * history, tab completion of commands, theme names and file names, and a
 * prefilled line for editing a post whose prompt counts the post's length
 * on its front as it is typed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "core/text.h"
#include "core/util.h"
#include "ui/ui_int.h"

/* A command runs a function, or opens a full-screen view (views.c). */
struct cmdline_cmd {
	const char	*name;
	const char	*args;
	int		(*run)(struct ui *, const char *arg);
	int		(*view)(struct ui *, struct pane *);
};

static const char *cmdline_initial;	/* text the next readline starts with */
static bool cmdline_cancelled;		/* Ctrl-C ended the last readline */
/* The post editor's front, whose length of the line the prompt counts
 * as it is typed (NULL: a plain prompt), and that prompt. */
static const struct front *cmdline_front;
static const char *cmdline_base;
static char cmdline_counted[200];
/* How the post editor's line ended: CMDLINE_NEXT on Enter and PgDn,
 * CMDLINE_PREV on PgUp (a thread's parts are edited one after another). */
static int cmdline_move;

/* readline's redisplay with the prompt "edit> (x 149/280) " measured on
 * the line as it is now, the way the front's platform counts it. */
static void
cmdline_count_redisplay(void)
{
	const struct front *f = cmdline_front;
	struct text_measure m;
	char next[sizeof cmdline_counted];

	if (text_measure(rl_line_buffer, f->platform, &f->limits, &m) != 0)
		snprintf(next, sizeof next, "%s(%s: not UTF-8) ", cmdline_base,
		    f->id);
	else
		snprintf(next, sizeof next, "%s(%s %d/%d%s) ", cmdline_base,
		    f->id, m.length, m.limit, m.ok ? "" : " OVER");
	/* readline redraws only what it thinks changed, measured against
	 * the prompt it drew; a prompt whose text changed is drawn again
	 * from the start of the line, or a count such as 211 -> 226 can be
	 * left half updated on screen. */
	if (strcmp(next, cmdline_counted) != 0) {
		rl_clear_visible_line();
		rl_on_new_line();
		memcpy(cmdline_counted, next, sizeof cmdline_counted);
		rl_set_prompt(cmdline_counted);
	}
	rl_redisplay();
}

static int
cmdline_startup(void)
{
	if (cmdline_initial != NULL) {
		rl_insert_text(cmdline_initial);
		cmdline_initial = NULL;
	}
	return 0;
}

/* Ctrl-C in the editor or the command line: the line is dropped and
 * readline returns, as if the edit had never started. */
static int
cmdline_cancel(int count, int key)
{
	cmdline_cancelled = true;
	rl_replace_line("", 0);
	rl_done = 1;
	return 0;
}

/* PgUp and PgDn in the post editor end the line as Enter does, moving to
 * the previous or the next part of a thread; elsewhere they do nothing. */
static int
cmdline_part_prev(int count, int key)
{
	if (cmdline_front == NULL)
		return 0;
	cmdline_move = CMDLINE_PREV;
	rl_done = 1;
	return 0;
}

static int
cmdline_part_next(int count, int key)
{
	if (cmdline_front == NULL)
		return 0;
	cmdline_move = CMDLINE_NEXT;
	rl_done = 1;
	return 0;
}

/* readline's terminal set-up, with the terminal's own interrupt key
 * turned into a plain key: Ctrl-C reaches cmdline_cancel() instead of
 * killing fronts (curses, which owns signals here, is not running). */
static void
cmdline_prep_terminal(int meta)
{
	struct termios t;
	int fd = fileno(rl_instream != NULL ? rl_instream : stdin);

	rl_prep_terminal(meta);
	if (tcgetattr(fd, &t) == 0) {
		t.c_lflag &= ~ISIG;
		tcsetattr(fd, TCSANOW, &t);
	}
}

char *
cmdline_read(struct ui *ui, const char *prompt, const char *initial,
    bool history)
{
	char *line;

	def_prog_mode();
	endwin();
	printf("\n");
	fflush(stdout);
	cmdline_initial = initial;
	rl_startup_hook = cmdline_startup;
	cmdline_cancelled = false;
	line = readline(prompt);
	rl_startup_hook = NULL;
	cmdline_initial = NULL;
	if (cmdline_cancelled) {
		free(line);
		line = NULL;
	}
	if (line != NULL && history && *line != '\0')
		add_history(line);
	reset_prog_mode();
	clearok(curscr, TRUE);
	ui->dirty = true;
	ui_redraw(ui);
	return line;
}

char *
cmdline_read_counted(struct ui *ui, const char *prompt, const char *initial,
    const struct front *f, int *move)
{
	char *line;

	cmdline_front = f;
	cmdline_move = CMDLINE_NEXT;
	cmdline_base = prompt;
	cmdline_counted[0] = '\0';	/* the first redisplay sets it */
	rl_redisplay_function = cmdline_count_redisplay;
	line = cmdline_read(ui, prompt, initial, false);
	rl_redisplay_function = rl_redisplay;
	cmdline_front = NULL;
	cmdline_base = NULL;
	if (move != NULL)
		*move = cmdline_move;
	return line;
}

/* Parses a positive integer argument; -1 with a message when it is not. */
static int
cmdline_number(struct ui *ui, const char *cmd, const char *arg,
    unsigned long long min, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	if (arg == NULL || !isdigit((unsigned char)*arg) ||
	    (*out = strtoull(arg, &end, 10), errno != 0) || *end != '\0' ||
	    *out < min || *out > max) {
		ui_message(ui, THEME_ERROR, ":%s needs a number from %llu to "
		    "%llu", cmd, min, max);
		return -1;
	}
	return 0;
}

static int
cmdline_plan(struct ui *ui, const char *arg)
{
	unsigned long long n;

	if (arg != NULL) {
		if (cmdline_number(ui, "plan", arg, 1, 100000000ULL, &n) != 0)
			return -1;
		ui->params.iterations = n;
		ui->params.seconds = 0;
	}
	ui_plan_start(ui);
	return 0;
}

static int
cmdline_seconds(struct ui *ui, const char *arg)
{
	char *end;
	double s;

	s = arg != NULL ? strtod(arg, &end) : 0;
	if (arg == NULL || *end != '\0' || !(s > 0 && s <= 86400)) {
		ui_message(ui, THEME_ERROR, ":seconds needs a number of "
		    "seconds (up to 86400)");
		return -1;
	}
	ui->params.seconds = s;
	ui->params.iterations = 0;
	ui_plan_start(ui);
	return 0;
}

static int
cmdline_workers(struct ui *ui, const char *arg)
{
	unsigned long long n;

	if (cmdline_number(ui, "workers", arg, 1, 256, &n) != 0)
		return -1;
	ui->params.workers = (int)n;
	ui_message(ui, THEME_OK, "workers: %d (next plan)", (int)n);
	return 0;
}

static int
cmdline_seed(struct ui *ui, const char *arg)
{
	unsigned long long n;

	if (cmdline_number(ui, "seed", arg, 0, ~0ULL, &n) != 0)
		return -1;
	ui->params.seed = n;
	ui_message(ui, THEME_OK, "seed: %llu (next plan)", n);
	return 0;
}

static int
cmdline_isolation(struct ui *ui, const char *arg)
{
	if (arg != NULL && strcmp(arg, "process") == 0)
		ui->params.isolation = ISOLATION_PROCESS;
	else if (arg != NULL && strcmp(arg, "thread") == 0)
		ui->params.isolation = ISOLATION_THREAD;
	else {
		ui_message(ui, THEME_ERROR, ":isolation takes process or "
		    "thread");
		return -1;
	}
	ui_message(ui, THEME_OK, "isolation: %s (next plan)", arg);
	return 0;
}

static int
cmdline_theme(struct ui *ui, const char *arg)
{
	struct error err = { 0 };
	char **names, buf[256] = "";
	size_t k;

	if (arg == NULL) {
		names = theme_list();
		for (k = 0; names[k] != NULL; k++) {
			if (strlen(buf) + strlen(names[k]) + 2 < sizeof buf) {
				strcat(buf, " ");
				strcat(buf, names[k]);
			}
			free(names[k]);
		}
		free(names);
		ui_message(ui, THEME_NORMAL, "theme %s; available:%s",
		    ui->theme.name, buf);
		return 0;
	}
	if (ui_set_theme(ui, arg, &err) != 0) {
		ui_message(ui, THEME_ERROR, "%s", err.msg);
		return -1;
	}
	ui_message(ui, THEME_OK, "theme %s", ui->theme.name);
	return 0;
}

static int
cmdline_synth(struct ui *ui, const char *arg)
{
	if (arg != NULL && *arg != '\0' && strcmp(arg, "builtin") != 0) {
		ui_message(ui, THEME_ERROR, ":synth takes nothing or builtin");
		return -1;
	}
	ui_synth_start(ui, arg != NULL && strcmp(arg, "builtin") == 0);
	return 0;
}

static bool
cmdline_is_json(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

/* :open FILE — a PLAN.json into the Candidates pane, anything else as the
 * model (gated and checked for approval like model.py). */
static int
cmdline_open(struct ui *ui, const char *arg)
{
	struct error err = { 0 };
	struct plan pl;
	cJSON *json;
	char warn[512];
	char *text;
	size_t len;

	if (arg == NULL) {
		ui_message(ui, THEME_ERROR, ":open needs a file");
		return -1;
	}
	if (!cmdline_is_json(arg)) {
		ui_load_model(ui, arg);
		ui_message(ui, ui->model_src ? THEME_OK : THEME_ERROR,
		    "model %s: %s", arg, ui->model_src == NULL ?
		    ui->gate_error : !ui->gate_ran ? ui->gate_error :
		    !ui->gate.accepted ? "refused by the gate" :
		    ui->approved ? "approved" : "not approved (a approves)");
		return 0;
	}
	if (file_read(arg, &text, &len, &err) != 0) {
		ui_message(ui, THEME_ERROR, "%s", err.msg);
		return -1;
	}
	json = cJSON_Parse(text);
	free(text);
	if (json == NULL) {
		ui_message(ui, THEME_ERROR, "%s: not valid JSON", arg);
		return -1;
	}
	memset(&pl, 0, sizeof pl);
	if (plan_from_json(ui->proj, json, &pl, &err) != 0 ||
	    plan_identity_check(ui->proj, &pl, warn, sizeof warn, &err) != 0) {
		cJSON_Delete(json);
		plan_free(&pl);
		ui_message(ui, THEME_ERROR, "%s: %s", arg, err.msg);
		return -1;
	}
	cJSON_Delete(json);
	ui_set_plan(ui, &pl);
	ui->plan_unsaved = false;
	if (warn[0] != '\0')
		ui_message(ui, THEME_WARN, "opened %s: %d posts; %s", arg,
		    ui->plan.nposts, warn);
	else
		ui_message(ui, THEME_OK, "opened %s: %d posts", arg,
		    ui->plan.nposts);
	return 0;
}

static int
cmdline_write(struct ui *ui, const char *arg)
{
	struct error err = { 0 };
	cJSON *json;
	char *text;
	int rc;

	if (arg == NULL) {
		ui_message(ui, THEME_ERROR, ":write needs a file name");
		return -1;
	}
	if (!ui->have_plan) {
		ui_message(ui, THEME_ERROR, "no plan to write yet (p plans)");
		return -1;
	}
	json = plan_to_json(ui->proj, &ui->plan);
	text = cJSON_Print(json);
	cJSON_Delete(json);
	rc = file_write_atomic(arg, text, strlen(text), &err);
	free(text);
	if (rc != 0) {
		ui_message(ui, THEME_ERROR, "%s", err.msg);
		return -1;
	}
	ui->plan_unsaved = false;
	ui_message(ui, THEME_OK, "wrote %s", arg);
	return 0;
}

static int
cmdline_help(struct ui *ui, const char *arg)
{
	dialog_help(ui);
	return 0;
}

static int
cmdline_runmode(struct ui *ui, const char *arg)
{
	if (arg != NULL && strcmp(arg, "off") == 0) {
		runmode_stop(ui);
		return 0;
	}
	if (arg != NULL && *arg != '\0') {
		ui_message(ui, THEME_ERROR, ":run takes nothing or \"off\"");
		return -1;
	}
	return runmode_start(ui);
}

static int
cmdline_quit(struct ui *ui, const char *arg)
{
	ui->quit = true;
	return 0;
}

static const struct cmdline_cmd cmdline_cmds[] = {
	{ "plan", "[N]", cmdline_plan, NULL },
	{ "seconds", "S", cmdline_seconds, NULL },
	{ "workers", "N", cmdline_workers, NULL },
	{ "seed", "N", cmdline_seed, NULL },
	{ "isolation", "process|thread", cmdline_isolation, NULL },
	{ "theme", "[NAME]", cmdline_theme, NULL },
	{ "synth", "[builtin]", cmdline_synth, NULL },
	{ "open", "FILE", cmdline_open, NULL },
	{ "write", "PLAN.json", cmdline_write, NULL },
	{ "accuracy", "", NULL, view_accuracy_open },
	{ "history", "", NULL, view_history_open },
	{ "calendar", "", NULL, view_calendar_open },
	{ "run", "[off]", cmdline_runmode, NULL },
	{ "help", "", cmdline_help, NULL },
	{ "quit", "", cmdline_quit, NULL },
	{ NULL, NULL, NULL, NULL }
};

int
cmdline_run(struct ui *ui, const char *line)
{
	const struct cmdline_cmd *c;
	char *copy, *name, *arg, *end;
	int rc = -1;

	copy = xstrdup(line);
	name = copy + strspn(copy, " \t:");
	end = name + strcspn(name, " \t");
	arg = end + strspn(end, " \t");
	*end = '\0';
	for (end = arg + strlen(arg); end > arg && isspace((unsigned char)
	    end[-1]); )
		*--end = '\0';
	if (*name == '\0') {
		free(copy);
		return 0;
	}
	if (strcmp(name, "q") == 0)
		name = "quit";
	for (c = cmdline_cmds; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			break;
	if (c->name == NULL)
		ui_message(ui, THEME_ERROR, "unknown command :%s (:help lists "
		    "them)", name);
	else if (c->view != NULL)
		rc = ui_view_open(ui, c->view);
	else
		rc = c->run(ui, *arg != '\0' ? arg : NULL);
	free(copy);
	return rc;
}

void
cmdline_command(struct ui *ui)
{
	char *line;

	line = cmdline_read(ui, ":", NULL, true);
	if (line == NULL)
		return;
	cmdline_run(ui, line);
	free(line);
}

/* ---- completion ------------------------------------------------------ */

static char **cmdline_theme_names;

static char *
cmdline_gen_cmd(const char *text, int state)
{
	static int i;
	size_t n = strlen(text);

	if (state == 0)
		i = 0;
	while (cmdline_cmds[i].name != NULL) {
		const char *name = cmdline_cmds[i++].name;

		if (strncmp(name, text, n) == 0)
			return xstrdup(name);
	}
	return NULL;
}

static void
cmdline_end_names(void)
{
	char **p;

	if (cmdline_theme_names == NULL)
		return;
	for (p = cmdline_theme_names; *p != NULL; p++)
		free(*p);
	free(cmdline_theme_names);
	cmdline_theme_names = NULL;
}

static char *
cmdline_gen_theme(const char *text, int state)
{
	static int i;
	size_t n = strlen(text);

	if (state == 0) {
		i = 0;
		cmdline_end_names();
		cmdline_theme_names = theme_list();
	}
	while (cmdline_theme_names[i] != NULL) {
		const char *name = cmdline_theme_names[i++];

		if (strncmp(name, text, n) == 0)
			return xstrdup(name);
	}
	return NULL;
}

static char **
cmdline_complete(const char *text, int start, int end)
{
	const char *buf = rl_line_buffer;
	size_t skip = strspn(buf, " :");

	rl_attempted_completion_over = 1;
	if ((size_t)start <= skip)
		return rl_completion_matches(text, cmdline_gen_cmd);
	if (strncmp(buf + skip, "theme ", 6) == 0)
		return rl_completion_matches(text, cmdline_gen_theme);
	if (strncmp(buf + skip, "open ", 5) == 0 ||
	    strncmp(buf + skip, "write ", 6) == 0) {
		rl_attempted_completion_over = 0;	/* file names */
		return NULL;
	}
	return NULL;
}

void
cmdline_end(void)
{
	cmdline_end_names();
	clear_history();
}

void
cmdline_init(void)
{
	rl_readline_name = "fronts";
	rl_attempted_completion_function = cmdline_complete;
	/* curses owns signals and the window size while the TUI runs. */
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	/* Exported LINES/COLUMNS would pin curses to the old size. */
	rl_change_environment = 0;
	rl_prep_term_function = cmdline_prep_terminal;
	rl_bind_key(3, cmdline_cancel);		/* Ctrl-C */
	rl_bind_keyseq("\033[5~", cmdline_part_prev);	/* PgUp */
	rl_bind_keyseq("\033[6~", cmdline_part_next);	/* PgDn */
	using_history();
	stifle_history(200);
}
