/*
 * cli — the command table and what every subcommand shares: the project
 * directory (-C DIR), usage errors, and the mapping from struct error to
 * an exit code and a message on stderr. Each command owns its
 * `const struct cmd_entry` in its cmd_*.c file (as tmux's cmd-*.c do);
 * adding one is that file plus a pointer in cli.c's table.
 */
#ifndef FRONTS_CLI_H
#define FRONTS_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"

struct cli {
	const char	*dir;		/* -C DIR; "." by default */
	const char	*argv0;		/* path of this binary, for re-exec */
};

struct cmd_entry {
	const char	*name;
	const char	*summary;
	const char	*usage;		/* option lines after "fronts NAME" */
	int		(*exec)(struct cli *, int argc, char **argv);
	bool		 hidden;	/* not listed in --help */
	const char	*details;	/* `fronts NAME --help` only; or NULL */
};

int	cli_main(int argc, char **argv);
/* Prints "fronts NAME: message" and the usage line; returns EXIT_USAGE. */
int	cli_usage_error(const char *name, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * The one parser of an option's number, with one wording for every
 * command: "fronts NAME: --OPT: expected a whole number from 1 to 256,
 * got '-1'". 0, or the usage error printed and EXIT_USAGE. No sign, no
 * spaces, nothing after the digits; a whole number never wraps.
 */
int	cli_whole(const char *name, const char *opt, const char *arg,
	    uint64_t min, uint64_t max, uint64_t *out);
/* A number above over and at most upto (below upto when !upto_in);
 * unit ("seconds", or "") names what it counts in the error. */
int	cli_number(const char *name, const char *opt, const char *arg,
	    double over, double upto, bool upto_in, const char *unit,
	    double *out);
/* The limits plan, validate and synth share: --time-limit S (a wall
 * clock, 0 < S <= 1e6) and --memory-mb MB (64 <= MB <= 1048576). 0, or a
 * usage error (EXIT_USAGE). */
int	cli_time_limit(const char *name, const char *arg, double *out);
/* Their --help lines, with the command's default time limit. */
#define CLI_LIMITS_HELP(deflt) \
	"  --time-limit S    wall clock (default " deflt "\n" \
	"  --memory-mb MB    memory budget of all workers together (default\n" \
	"                    2048): each of N workers gets MB/N\n"
int	cli_memory_mb(const char *name, const char *arg, long *out);
/* Prints "fronts NAME: err->msg" to stderr; returns err->code (or 1). */
int	cli_report(const char *name, const struct error *err);
/* The options of a command that takes only [-C DIR] [--json]: sets
 * cli->dir and *json; a usage error otherwise (EXIT_USAGE). */
int	cli_dir_json_options(struct cli *cli, const char *name, int argc,
	    char **argv, bool *json);
/* Without --model (model NULL), an error saying how to write one when
 * dir has no model.py yet; 0 otherwise. */
int	cli_no_model(const char *dir, const char *model, struct error *err);
struct project;
/* The project in dir and its model at model (default dir/model.py), read
 * and checked against the approvals. *p, *path and *src belong to the
 * caller whatever happens (NULL where not reached). */
int	cli_load_approved(const char *dir, const char *model,
	    struct project **p, char **path, char **src, size_t *len,
	    struct error *err);

struct plan;
/* The calendar of a plan on stdout (see core/calendar.h): 80 columns, or
 * the terminal's width (or $COLUMNS) where that is wider. */
void	cli_print_calendar(const struct project *, const struct plan *);

struct publish_item;
/* What an offered post is beyond its first text, as `publish` and `run`
 * show it before the question: edited, a thread, and where a thread begun
 * goes on (never part 1 again). */
void	cli_print_post_notes(const struct project *,
	    const struct publish_item *);

/* Each command, defined in its cmd_*.c file. */
extern const struct cmd_entry cmd_init_entry;
extern const struct cmd_entry cmd_synth_entry;
extern const struct cmd_entry cmd_gate_entry;
extern const struct cmd_entry cmd_approve_entry;
extern const struct cmd_entry cmd_validate_entry;
extern const struct cmd_entry cmd_drafts_entry;
extern const struct cmd_entry cmd_plan_entry;
extern const struct cmd_entry cmd_publish_entry;
extern const struct cmd_entry cmd_pin_entry;
extern const struct cmd_entry cmd_show_entry;
extern const struct cmd_entry cmd_ledger_entry;
extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_check_entry;
extern const struct cmd_entry cmd_history_entry;
extern const struct cmd_entry cmd_tui_entry;
extern const struct cmd_entry cmd_sandbox_entry;
extern const struct cmd_entry cmd_worker_entry;

#endif
