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

#include "cli/args.h"
#include "core/util.h"

struct cli {
	const char	*dir;		/* -C DIR; "." by default */
	const char	*argv0;		/* path of this binary, for re-exec */
};

struct cmd_entry {
	const char	*name;
	const char	*summary;
	const char	*usage;		/* option lines after "fronts NAME" */
	/* Its options (ended by a NULL name), besides -C DIR and --help,
	 * which every command takes; --help lists them. */
	const struct args_option *options;
	int		(*exec)(struct cli *, struct args *);
	bool		 hidden;	/* not listed in --help */
	bool		 raw;		/* arguments unparsed, all positional */
	int		 args_max;	/* positional arguments it takes (more
					 * are a usage error); -1: it checks */
	const char	*details;	/* `fronts NAME --help` only; or NULL */
	/* Words after NAME that pick another entry ("history import"): its
	 * options and exec; errors and --help stay the command's. */
	const struct cmd_entry *const *subcommands;
};

/* Options several commands share, spelt and explained the same way. */
#define CLI_OPTION_JSON \
	{ .name = "json", .kind = ARGS_FLAG, \
	  .help = "print JSON (docs/DESIGN.md) instead of text" }
#define CLI_OPTION_MODEL \
	{ .name = "model", .kind = ARGS_STRING, .metavar = "FILE", \
	  .help = "the world model (default DIR/model.py)" }
#define CLI_OPTION_ISOLATION \
	{ .name = "isolation", .kind = ARGS_CHOICE, \
	  .choices = "process|thread", .metavar = "process|thread", \
	  .help = "run the model in sandboxed workers (default) or in\n" \
	  "this process, unsandboxed, one worker" }
#define CLI_OPTION_ITERATIONS(deflt) \
	{ .name = "iterations", .kind = ARGS_WHOLE, .metavar = "N", \
	  .min = 1, .max = 1ULL << 40, \
	  .help = "search iterations (default " deflt ")" }
#define CLI_OPTION_WORKERS \
	{ .name = "workers", .kind = ARGS_WHOLE, .metavar = "N", \
	  .min = 1, .max = 256, \
	  .help = "search workers (default: the cores, at most 8)" }
#define CLI_OPTION_SEED \
	{ .name = "seed", .kind = ARGS_WHOLE, .metavar = "N", \
	  .min = 0, .max = UINT64_MAX, \
	  .help = "the random seed (default 1)" }
#define CLI_OPTION_WAIT \
	{ .name = "wait", .kind = ARGS_FLAG, \
	  .help = "wait for the project lock, not refuse" }
#define CLI_OPTION_NOTIFY \
	{ .name = "notify", .kind = ARGS_STRING, .metavar = "CMD", \
	  .help = "run CMD when a post comes due" }
#define CLI_OPTION_TIMEOUT_MS \
	{ .name = "timeout-ms", .kind = ARGS_DURATION, .metavar = "MS", \
	  .unit = "milliseconds", .min = 1, .max = 3600000, \
	  .help = "the longest one request may take (default 30000)" }
/* The limits plan, validate and synth share, with the command's default
 * time limit. */
#define CLI_OPTION_TIME_LIMIT(deflt) \
	{ .name = "time-limit", .kind = ARGS_DURATION, .metavar = "S", \
	  .unit = "seconds", .over = 0, .upto = 1e6, \
	  .help = "wall clock (default " deflt }
#define CLI_OPTION_MEMORY_MB \
	{ .name = "memory-mb", .kind = ARGS_WHOLE, .metavar = "MB", \
	  .min = 64, .max = 1048576, \
	  .help = "memory budget of all workers together (default\n" \
	  "2048): each of N workers gets MB/N" }

int	cli_main(int argc, char **argv);
/* Prints "fronts NAME: message" and the usage line; returns EXIT_USAGE. */
int	cli_usage_error(const char *name, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
struct search_params;
/* The search options plan and run share (CLI_OPTION_ITERATIONS,
 * _WORKERS, _ISOLATION, _SEED) over sp's defaults; thread isolation has
 * one worker. */
void	cli_search_options(const struct args *, struct search_params *sp);
struct termios;
/* Puts the terminal on stdin in raw mode (no echo, a key at a time),
 * discarding what was typed before, and asks question: so no key is
 * pressed ahead of seeing what it answers. *old is for cli_key_end. -1
 * when stdin is not a terminal. */
int	cli_key_begin(const char *question, struct termios *old);
void	cli_key_end(const struct termios *old);
/* Prints "fronts NAME: err->msg" to stderr; returns err->code (or 1). */
int	cli_report(const char *name, const struct error *err);
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
