/*
 * args — parses a command's arguments against its declared options; see
 * args.h. The one place numbers, durations and choices are checked, and
 * the one wording of a usage error: "--OPT: expected WHAT, got 'ARG'".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"

static int
args_total(const struct args *a)
{
	return a->ntable[0] + a->ntable[1];
}

static const struct args_option *
args_option(const struct args *a, int i)
{
	return i < a->ntable[0] ? &a->tables[0][i] :
	    &a->tables[1][i - a->ntable[0]];
}

/* How the option is spelt in messages: "--seed", or "-C". */
static const char *
args_label(const struct args_option *o, char *buf, size_t len)
{
	if (o->short_only)
		snprintf(buf, len, "-%c", o->letter);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

static bool
args_counts_whole(const struct args_option *o)
{
	return o->kind == ARGS_WHOLE || (o->kind == ARGS_DURATION &&
	    strcmp(o->unit, "seconds") != 0);
}

/* What the option's value must be: "a whole number from 1 to 256". */
static void
args_expected(const struct args_option *o, char *buf, size_t len)
{
	const char *unit = o->unit != NULL ? o->unit : "", *p, *bar;
	size_t n = 0;

	if (args_counts_whole(o))
		snprintf(buf, len, "a whole number%s%s from %llu to %llu",
		    unit[0] ? " of " : "", unit, (unsigned long long)o->min,
		    (unsigned long long)o->max);
	else if (o->kind == ARGS_NUMBER || o->kind == ARGS_DURATION)
		snprintf(buf, len, "a number%s%s above %.15g and %s %.15g",
		    unit[0] ? " of " : "", unit, o->over, o->below ? "below" :
		    "at most", o->upto);
	else if (o->kind == ARGS_CHOICE) {
		/* "process|thread" reads "process or thread". */
		buf[0] = '\0';
		for (p = o->choices; n < len; p = bar + 1) {
			bar = strchr(p, '|');
			n += snprintf(buf + n, len - n, "%s%.*s", p == o->choices ?
			    "" : bar == NULL ? " or " : ", ", bar != NULL ?
			    (int)(bar - p) : (int)strlen(p), p);
			if (bar == NULL)
				break;
		}
	} else
		snprintf(buf, len, "%s", o->metavar != NULL ? o->metavar :
		    "a value");
}

static bool
args_whole_ok(const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* No sign, no spaces: strtoull would wrap "-1". */
	if (!isdigit((unsigned char)arg[0]))
		return false;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool
args_number_ok(const struct args_option *o, const char *arg, double *out)
{
	char *end;
	double v;

	/* No sign, as a whole number has none: "+5" is refused too. */
	if (!isdigit((unsigned char)arg[0]) && arg[0] != '.')
		return false;
	errno = 0;
	v = strtod(arg, &end);
	if (errno != 0 || *end != '\0' || !(v > o->over) ||
	    !(o->below ? v < o->upto : v <= o->upto))
		return false;
	*out = v;
	return true;
}

static bool
args_choice_ok(const char *choices, const char *arg)
{
	size_t n = strlen(arg), len;
	const char *p, *bar;

	for (p = choices;; p = bar + 1) {
		bar = strchr(p, '|');
		len = bar != NULL ? (size_t)(bar - p) : strlen(p);
		if (len == n && strncmp(p, arg, n) == 0)
			return true;
		if (bar == NULL)
			return false;
	}
}

/* Stores arg (NULL: none was given) as option i's value. */
static int
args_set(struct args *a, int i, const char *arg, struct error *err)
{
	const struct args_option *o = args_option(a, i);
	char label[64], want[256];
	bool ok = true;

	args_label(o, label, sizeof label);
	if (o->kind == ARGS_FLAG && arg != NULL)
		return error_set(err, EXIT_USAGE, "%s: expected no value, got "
		    "'%s'", label, arg);
	args_expected(o, want, sizeof want);
	if (o->kind != ARGS_FLAG && arg == NULL)
		return error_set(err, EXIT_USAGE, "%s: expected %s, got "
		    "nothing", label, want);
	if (args_counts_whole(o))
		ok = args_whole_ok(arg, o->min, o->max, &a->whole[i]);
	else if (o->kind == ARGS_NUMBER || o->kind == ARGS_DURATION)
		ok = args_number_ok(o, arg, &a->number[i]);
	else if (o->kind == ARGS_CHOICE)
		ok = args_choice_ok(o->choices, arg);
	if (!ok)
		return error_set(err, EXIT_USAGE, "%s: expected %s, got '%s'",
		    label, want, arg);
	a->value[i] = arg != NULL ? arg : "";
	return 0;
}

/* The option "--name" (no "--", no "=VALUE") means: the exact name, else
 * the one option it begins. */
static int
args_find_long(const struct args *a, const char *name, size_t len,
    struct error *err)
{
	const struct args_option *o;
	int i, found = -1, n = 0;

	for (i = 0; i < args_total(a); i++) {
		o = args_option(a, i);
		if (o->short_only || strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return i;
		found = i;
		n++;
	}
	if (n == 1)
		return found;
	return error_set(err, EXIT_USAGE, "%s option --%.*s", n == 0 ?
	    "unknown" : "ambiguous", (int)len, name);
}

static int
args_find_short(const struct args *a, char c, struct error *err)
{
	int i;

	for (i = 0; i < args_total(a); i++)
		if (args_option(a, i)->letter == c)
			return i;
	return error_set(err, EXIT_USAGE, "unknown option -%c", c);
}

/* argv[*ip] is "--NAME[=VALUE]"; a value may be the next argument. */
static int
args_long(struct args *a, int argc, char **argv, int *ip, struct error *err)
{
	const char *s = argv[*ip] + 2, *eq = strchr(s, '=');
	int i;

	if ((i = args_find_long(a, s, eq != NULL ? (size_t)(eq - s) :
	    strlen(s), err)) < 0)
		return -1;
	if (eq != NULL)
		return args_set(a, i, eq + 1, err);
	if (args_option(a, i)->kind == ARGS_FLAG || *ip + 1 == argc)
		return args_set(a, i, NULL, err);
	return args_set(a, i, argv[++*ip], err);
}

/* argv[*ip] is "-X…": flags, then at most one option taking a value,
 * the rest of the word or the next argument. */
static int
args_short(struct args *a, int argc, char **argv, int *ip, struct error *err)
{
	const char *s;
	int i;

	for (s = argv[*ip] + 1; *s != '\0'; s++) {
		if ((i = args_find_short(a, *s, err)) < 0)
			return -1;
		if (args_option(a, i)->kind == ARGS_FLAG) {
			if (args_set(a, i, NULL, err) != 0)
				return -1;
			continue;
		}
		if (s[1] != '\0')
			return args_set(a, i, s + 1, err);
		return args_set(a, i, *ip + 1 < argc ? argv[++*ip] : NULL,
		    err);
	}
	return 0;
}

static int
args_count_table(const struct args_option *t)
{
	int n = 0;

	while (t != NULL && t[n].name != NULL)
		n++;
	return n;
}

int
args_parse(const struct args_option *common, const struct args_option *opts,
    int argc, char **argv, struct args *a, struct error *err)
{
	bool options = true;
	int i, rc = 0;

	memset(a, 0, sizeof *a);
	a->tables[0] = common;
	a->tables[1] = opts;
	a->ntable[0] = args_count_table(common);
	a->ntable[1] = args_count_table(opts);
	if (args_total(a) > ARGS_MAX)
		abort();	/* a table past ARGS_MAX: raise it */
	a->argv = xcalloc((size_t)argc + 1, sizeof *a->argv);
	for (i = 1; i < argc && rc == 0; i++) {
		if (options && strcmp(argv[i], "--") == 0)
			options = false;
		else if (options && strncmp(argv[i], "--", 2) == 0)
			rc = args_long(a, argc, argv, &i, err);
		else if (options && argv[i][0] == '-' && argv[i][1] != '\0')
			rc = args_short(a, argc, argv, &i, err);
		else
			a->argv[a->argc++] = argv[i];
	}
	if (rc != 0) {
		free(a->argv);
		memset(a, 0, sizeof *a);
		return -1;
	}
	return 0;
}

void
args_raw(int argc, char **argv, struct args *a)
{
	int i;

	memset(a, 0, sizeof *a);
	a->argv = xcalloc((size_t)argc + 1, sizeof *a->argv);
	for (i = 1; i < argc; i++)
		a->argv[a->argc++] = argv[i];
}

void
args_free(struct args *a)
{
	free(a->argv);
	a->argv = NULL;
	a->argc = 0;
}

static int
args_index(const struct args *a, const char *name)
{
	int i;

	for (i = 0; i < args_total(a); i++)
		if (strcmp(args_option(a, i)->name, name) == 0)
			return i;
	fprintf(stderr, "fronts: no option --%s declared\n", name);
	abort();
}

bool
args_has(const struct args *a, const char *name)
{
	return a->value[args_index(a, name)] != NULL;
}

const char *
args_string(const struct args *a, const char *name)
{
	return a->value[args_index(a, name)];
}

uint64_t
args_whole(const struct args *a, const char *name, uint64_t deflt)
{
	int i = args_index(a, name);

	return a->value[i] != NULL ? a->whole[i] : deflt;
}

double
args_number(const struct args *a, const char *name, double deflt)
{
	int i = args_index(a, name);

	return a->value[i] != NULL ? a->number[i] : deflt;
}

long
args_ms(const struct args *a, const char *name, long deflt)
{
	int i = args_index(a, name);
	const struct args_option *o = args_option(a, i);

	if (a->value[i] == NULL)
		return deflt;
	if (strcmp(o->unit, "seconds") == 0)
		return (long)(a->number[i] * 1000);
	if (strcmp(o->unit, "minutes") == 0)
		return (long)a->whole[i] * 60000;
	return (long)a->whole[i];
}

int
args_count(const struct args *a)
{
	return a->argc;
}

const char *
args_arg(const struct args *a, int i)
{
	return i >= 0 && i < a->argc ? a->argv[i] : NULL;
}

void
args_print_help(FILE *f, const struct args_option *opts)
{
	const struct args_option *o;
	const char *h, *nl;
	char spelt[64];

	for (o = opts; o != NULL && o->name != NULL; o++) {
		if (o->help == NULL)
			continue;
		args_label(o, spelt, sizeof spelt);
		if (o->kind != ARGS_FLAG)
			snprintf(spelt + strlen(spelt), sizeof spelt -
			    strlen(spelt), " %s", o->metavar != NULL ?
			    o->metavar : "VALUE");
		fprintf(f, "  %-18s", spelt);
		if (strlen(spelt) > 18)
			fprintf(f, "\n  %-18s", "");
		for (h = o->help; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
			fprintf(f, "%.*s\n  %-18s", (int)(nl - h), h, "");
		fprintf(f, "%s\n", h);
	}
}
