/* Unit tests for args, the one parser of every command's options: flags,
 * values given as --opt=value and --opt value, short options, abbreviations,
 * "--", positional arguments wherever they stand, and the one wording of
 * each usage error (unknown, ambiguous, missing value, bad number). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "cli/args.h"

static const struct args_option common[] = {
	{ .name = "dir", .letter = 'C', .short_only = true,
	  .kind = ARGS_STRING, .metavar = "DIR" },
	{ .name = NULL }
};

static const struct args_option opts[] = {
	{ .name = "live", .kind = ARGS_FLAG },
	{ .name = "json", .kind = ARGS_FLAG },
	{ .name = "model", .kind = ARGS_STRING, .metavar = "FILE" },
	{ .name = "out", .letter = 'o', .short_only = true,
	  .kind = ARGS_STRING, .metavar = "FILE" },
	{ .name = "seed", .kind = ARGS_WHOLE, .min = 0, .max = UINT64_MAX },
	{ .name = "seconds", .kind = ARGS_DURATION, .unit = "seconds",
	  .over = 0, .upto = 1e6, .below = true },
	{ .name = "workers", .kind = ARGS_WHOLE, .min = 1, .max = 256 },
	{ .name = "window", .kind = ARGS_NUMBER, .over = 0, .upto = 1,
	  .below = true },
	{ .name = "late", .kind = ARGS_DURATION, .unit = "minutes",
	  .min = 0, .max = 100000 },
	{ .name = "timeout-ms", .kind = ARGS_DURATION,
	  .unit = "milliseconds", .min = 1, .max = 3600000 },
	{ .name = "isolation", .kind = ARGS_CHOICE,
	  .choices = "process|thread" },
	{ .name = NULL }
};

/* Parses the NULL-ended words after "cmd"; 0 or -1 with err. */
static int
parse(struct args *a, struct error *err, ...)
{
	char *argv[32];
	va_list ap;
	int argc = 0;

	argv[argc++] = "cmd";
	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	memset(err, 0, sizeof *err);
	return args_parse(common, opts, argc, argv, a, err);
}

/* The parse fails with exactly msg, as a usage error. */
static void
refused(const char *msg, int rc, struct args *a, struct error *err)
{
	assert_int_equal(rc, -1);
	assert_int_equal(err->code, EXIT_USAGE);
	assert_string_equal(err->msg, msg);
	assert_int_equal(args_count(a), 0);
	args_free(a);
}

static void
test_flags_and_defaults(void **state)
{
	struct args a;
	struct error err;

	assert_int_equal(parse(&a, &err, "--live", NULL), 0);
	assert_true(args_has(&a, "live"));
	assert_false(args_has(&a, "json"));
	assert_null(args_string(&a, "model"));
	assert_int_equal(args_whole(&a, "workers", 7), 7);
	assert_true(args_number(&a, "window", 0.5) == 0.5);
	assert_int_equal(args_ms(&a, "timeout-ms", 30000), 30000);
	assert_int_equal(args_count(&a), 0);
	assert_null(args_arg(&a, 0));
	args_free(&a);
}

static void
test_values_both_spellings(void **state)
{
	struct args a;
	struct error err;

	assert_int_equal(parse(&a, &err, "--model=m.py", "--workers", "4",
	    "-C", "proj", "-oplan.json", "--seed=0", NULL), 0);
	assert_string_equal(args_string(&a, "model"), "m.py");
	assert_int_equal(args_whole(&a, "workers", 1), 4);
	assert_string_equal(args_string(&a, "dir"), "proj");
	assert_string_equal(args_string(&a, "out"), "plan.json");
	assert_true(args_has(&a, "seed"));
	assert_int_equal(args_whole(&a, "seed", 1), 0);
	args_free(&a);

	/* -CDIR, -o FILE; the value given last wins, as with getopt. */
	assert_int_equal(parse(&a, &err, "-Cproj", "-o", "x", "--model", "a",
	    "--model", "b", "--model=", NULL), 0);
	assert_string_equal(args_string(&a, "dir"), "proj");
	assert_string_equal(args_string(&a, "out"), "x");
	assert_string_equal(args_string(&a, "model"), "");
	args_free(&a);
}

static void
test_value_may_look_like_an_option(void **state)
{
	struct args a;
	struct error err;

	/* As getopt_long: a value is the next word whatever it is. */
	assert_int_equal(parse(&a, &err, "--model", "--live", NULL), 0);
	assert_string_equal(args_string(&a, "model"), "--live");
	assert_false(args_has(&a, "live"));
	args_free(&a);
}

static void
test_abbreviations(void **state)
{
	struct args a;
	struct error err;

	assert_int_equal(parse(&a, &err, "--li", "--wor=3", "--mod", "f",
	    NULL), 0);
	assert_true(args_has(&a, "live"));
	assert_int_equal(args_whole(&a, "workers", 1), 3);
	assert_string_equal(args_string(&a, "model"), "f");
	args_free(&a);
	/* A prefix of two names is neither. */
	refused("ambiguous option --se", parse(&a, &err, "--se", "1", NULL),
	    &a, &err);
	/* -C and -o have no long spelling. */
	refused("unknown option --out", parse(&a, &err, "--out", "x", NULL),
	    &a, &err);
	refused("unknown option --dir", parse(&a, &err, "--dir=x", NULL),
	    &a, &err);
}

static void
test_positional_and_double_dash(void **state)
{
	struct args a;
	struct error err;

	assert_int_equal(parse(&a, &err, "plan.json", "--live", "-", "more",
	    "--", "--json", "-C", NULL), 0);
	assert_true(args_has(&a, "live"));
	assert_false(args_has(&a, "json"));
	assert_null(args_string(&a, "dir"));
	assert_int_equal(args_count(&a), 5);
	assert_string_equal(args_arg(&a, 0), "plan.json");
	assert_string_equal(args_arg(&a, 1), "-");
	assert_string_equal(args_arg(&a, 2), "more");
	assert_string_equal(args_arg(&a, 3), "--json");
	assert_string_equal(args_arg(&a, 4), "-C");
	assert_null(args_arg(&a, 5));
	args_free(&a);
}

static void
test_unknown_and_missing(void **state)
{
	struct args a;
	struct error err;

	refused("unknown option --frob", parse(&a, &err, "--frob", NULL), &a,
	    &err);
	refused("unknown option -x", parse(&a, &err, "-x", NULL), &a, &err);
	refused("--model: expected FILE, got nothing", parse(&a, &err,
	    "--model", NULL), &a, &err);
	refused("-C: expected DIR, got nothing", parse(&a, &err, "-C", NULL),
	    &a, &err);
	refused("--seed: expected a whole number from 0 to "
	    "18446744073709551615, got nothing", parse(&a, &err, "--seed",
	    NULL), &a, &err);
	refused("--live: expected no value, got 'yes'", parse(&a, &err,
	    "--live=yes", NULL), &a, &err);
}

static void
test_whole_numbers(void **state)
{
	static const char *bad[] = { "-1", "+5", " 5", "5 ", "5x", "0x10",
	    "", "1e3", "18446744073709551616", "99999999999999999999999" };
	struct args a;
	struct error err;
	char want[200];
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(want, sizeof want, "--seed: expected a whole number "
		    "from 0 to 18446744073709551615, got '%s'", bad[i]);
		refused(want, parse(&a, &err, "--seed", bad[i], NULL), &a,
		    &err);
	}
	refused("--workers: expected a whole number from 1 to 256, got '0'",
	    parse(&a, &err, "--workers", "0", NULL), &a, &err);
	refused("--workers: expected a whole number from 1 to 256, got '257'",
	    parse(&a, &err, "--workers=257", NULL), &a, &err);
	assert_int_equal(parse(&a, &err, "--seed", "18446744073709551615",
	    "--workers", "256", NULL), 0);
	assert_true(args_whole(&a, "seed", 0) == UINT64_MAX);
	assert_int_equal(args_whole(&a, "workers", 0), 256);
	args_free(&a);
}

static void
test_numbers_and_durations(void **state)
{
	struct args a;
	struct error err;

	assert_int_equal(parse(&a, &err, "--window", "0.25", "--seconds",
	    "1.5", "--late", "3", "--timeout-ms", "250", NULL), 0);
	assert_true(args_number(&a, "window", 0) == 0.25);
	assert_true(args_number(&a, "seconds", 0) == 1.5);
	assert_int_equal(args_ms(&a, "seconds", 0), 1500);
	assert_int_equal(args_ms(&a, "late", 0), 180000);
	assert_int_equal(args_ms(&a, "timeout-ms", 0), 250);
	args_free(&a);
	refused("--window: expected a number above 0 and below 1, got '1'",
	    parse(&a, &err, "--window", "1", NULL), &a, &err);
	refused("--window: expected a number above 0 and below 1, got 'nan'",
	    parse(&a, &err, "--window", "nan", NULL), &a, &err);
	refused("--seconds: expected a number of seconds above 0 and below "
	    "1000000, got 'abc'", parse(&a, &err, "--seconds", "abc", NULL),
	    &a, &err);
	refused("--seconds: expected a number of seconds above 0 and below "
	    "1000000, got '2s'", parse(&a, &err, "--seconds", "2s", NULL),
	    &a, &err);
	refused("--seconds: expected a number of seconds above 0 and below "
	    "1000000, got '-1'", parse(&a, &err, "--seconds", "-1", NULL),
	    &a, &err);
	refused("--seconds: expected a number of seconds above 0 and below "
	    "1000000, got '+2'", parse(&a, &err, "--seconds", "+2", NULL),
	    &a, &err);
	refused("--window: expected a number above 0 and below 1, got ' .5'",
	    parse(&a, &err, "--window", " .5", NULL), &a, &err);
	assert_int_equal(parse(&a, &err, "--window", ".5", "--seconds", "1e3",
	    NULL), 0);
	assert_true(args_number(&a, "window", 0) == 0.5);
	assert_true(args_number(&a, "seconds", 0) == 1000);
	args_free(&a);
	refused("--late: expected a whole number of minutes from 0 to "
	    "100000, got '1.5'", parse(&a, &err, "--late", "1.5", NULL), &a,
	    &err);
	refused("--timeout-ms: expected a whole number of milliseconds from "
	    "1 to 3600000, got '0'", parse(&a, &err, "--timeout-ms", "0",
	    NULL), &a, &err);
}

static void
test_choices(void **state)
{
	struct args a;
	struct error err;

	assert_int_equal(parse(&a, &err, "--isolation", "thread", NULL), 0);
	assert_string_equal(args_string(&a, "isolation"), "thread");
	args_free(&a);
	refused("--isolation: expected process or thread, got 'proc'",
	    parse(&a, &err, "--isolation", "proc", NULL), &a, &err);
	refused("--isolation: expected process or thread, got ''",
	    parse(&a, &err, "--isolation=", NULL), &a, &err);
}

static void
test_raw(void **state)
{
	char *argv[] = { "__worker", "--frob", "x", NULL };
	struct args a;

	args_raw(3, argv, &a);
	assert_int_equal(args_count(&a), 2);
	assert_string_equal(args_arg(&a, 0), "--frob");
	args_free(&a);
}

static void
test_help_lines(void **state)
{
	static const struct args_option help[] = {
		{ .name = "model", .kind = ARGS_STRING, .metavar = "FILE",
		  .help = "the model" },
		{ .name = "hidden", .kind = ARGS_FLAG },
		{ .name = "isolation", .kind = ARGS_CHOICE,
		  .metavar = "process|thread", .help = "one\ntwo" },
		{ .name = NULL }
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	args_print_help(f, help);
	fclose(f);
	assert_string_equal(buf,
	    "  --model FILE      the model\n"
	    "  --isolation process|thread\n"
	    "                    one\n"
	    "                    two\n");
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_and_defaults),
		cmocka_unit_test(test_values_both_spellings),
		cmocka_unit_test(test_value_may_look_like_an_option),
		cmocka_unit_test(test_abbreviations),
		cmocka_unit_test(test_positional_and_double_dash),
		cmocka_unit_test(test_unknown_and_missing),
		cmocka_unit_test(test_whole_numbers),
		cmocka_unit_test(test_numbers_and_durations),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_help_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
