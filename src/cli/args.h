/*
 * args — a command's options declared once, as a table in its cmd_entry
 * (tmux's args_parse with a template), and its arguments parsed against
 * that table in one place: long options (--name VALUE, --name=VALUE, a
 * unique prefix of the name as getopt_long allows), short ones (-C DIR,
 * -CDIR), "--" ending the options, and the rest positional wherever it
 * stands. Numbers and durations are checked here, so every command words
 * a bad one the same way.
 */
#ifndef FRONTS_ARGS_H
#define FRONTS_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/util.h"

enum args_kind {
	ARGS_FLAG,		/* takes no value */
	ARGS_STRING,		/* any text */
	ARGS_CHOICE,		/* one of .choices ("process|thread") */
	ARGS_WHOLE,		/* a whole number from .min to .max */
	ARGS_NUMBER,		/* a number above .over, up to .upto */
	/* A time counted in .unit: "milliseconds" and "minutes" count whole
	 * (.min to .max), "seconds" any number (.over to .upto, as
	 * ARGS_NUMBER). args_ms() reads it in milliseconds. */
	ARGS_DURATION,
};

struct args_option {
	const char	*name;		/* long name, without "--" */
	char		 letter;	/* short name, or 0 */
	bool		 short_only;	/* only -LETTER (-C, -o) */
	enum args_kind	 kind;
	const char	*metavar;	/* its value in help ("FILE") */
	const char	*help;		/* for --help; lines after the first
					 * are indented under it */
	uint64_t	 min, max;
	double		 over, upto;
	bool		 below;		/* upto itself is out of range */
	const char	*unit;		/* named in errors; durations need one */
	const char	*choices;
};

#define ARGS_MAX	32

/* The parsed arguments: the value given last for each option (NULL when
 * not given, "" for a flag), and the positional arguments in order. */
struct args {
	const struct args_option *tables[2];
	int		 ntable[2];
	const char	*value[ARGS_MAX];
	uint64_t	 whole[ARGS_MAX];
	double		 number[ARGS_MAX];
	int		 argc;
	char		**argv;
};

/*
 * Parses argv[1..argc) (argv[0] is the command's name) against the
 * options of common and then opts (each ended by a NULL name; either may
 * be NULL). -1 with err (EXIT_USAGE) naming the option and what was
 * wrong; *a is then empty. Free with args_free() either way.
 */
int		 args_parse(const struct args_option *common,
		    const struct args_option *opts, int argc, char **argv,
		    struct args *a, struct error *err);
/* Every argument positional: for a command that reads its own. */
void		 args_raw(int argc, char **argv, struct args *a);
void		 args_free(struct args *a);

/* Lookups by long name; a name no table declares is a programming error
 * (abort). */
bool		 args_has(const struct args *, const char *name);
const char	*args_string(const struct args *, const char *name);
uint64_t	 args_whole(const struct args *, const char *name,
		    uint64_t deflt);
double		 args_number(const struct args *, const char *name,
		    double deflt);
long		 args_ms(const struct args *, const char *name, long deflt);
int		 args_count(const struct args *);
/* The i-th positional argument, or NULL past the last. */
const char	*args_arg(const struct args *, int i);

/* The help lines of a table ("  --model FILE      the model …"). */
void		 args_print_help(FILE *f, const struct args_option *opts);

#endif
