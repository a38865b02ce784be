/*
 * cli — the command table and what every subcommand shares: the project
 * directory (-C DIR), usage errors, and the mapping from struct error to
 * an exit code and a message on stderr. Adding a subcommand is one entry in
 * cli.c's table plus its cmd_*.c file.
 */
#ifndef FRONTS_CLI_H
#define FRONTS_CLI_H

#include <stdbool.h>

#include "core/util.h"

struct cli {
	const char	*dir;		/* -C DIR; "." by default */
	const char	*argv0;		/* path of this binary, for re-exec */
};

struct cmd {
	const char	*name;
	const char	*summary;
	const char	*usage;		/* option lines after "fronts NAME" */
	int		(*run)(struct cli *, int argc, char **argv);
	bool		 hidden;	/* not listed in --help */
};

/* Every entry, terminated by a NULL name. */
extern const struct cmd cli_commands[];

int	cli_main(int argc, char **argv);
/* Prints "fronts NAME: message" and the usage line; returns EXIT_USAGE. */
int	cli_usage_error(const char *name, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Prints "fronts NAME: err->msg" to stderr; returns err->code (or 1). */
int	cli_report(const char *name, const struct error *err);
/* The options of a command that takes only [-C DIR] [--json]: sets
 * cli->dir and *json; a usage error otherwise (EXIT_USAGE). */
int	cli_dir_json_options(struct cli *cli, const char *name, int argc,
	    char **argv, bool *json);
/* Resolves the absolute path of the running binary (for worker re-exec). */
const char *cli_self_path(void);

/* Each command, defined in its cmd_*.c file. */
int	cmd_init(struct cli *, int, char **);
int	cmd_drafts(struct cli *, int, char **);
int	cmd_gate(struct cli *, int, char **);
int	cmd_approve(struct cli *, int, char **);
int	cmd_validate(struct cli *, int, char **);
int	cmd_plan(struct cli *, int, char **);
int	cmd_synth(struct cli *, int, char **);
int	cmd_publish(struct cli *, int, char **);
int	cmd_ledger(struct cli *, int, char **);
int	cmd_check(struct cli *, int, char **);
int	cmd_tui(struct cli *, int, char **);
int	cmd_worker(struct cli *, int, char **);
int	cmd_sandbox(struct cli *, int, char **);

#endif
