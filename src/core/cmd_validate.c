/*
 * cmd_validate — `fronts validate`: runs the approved world model's
 * conformance checks and its calibration against history.jsonl, prints the
 * report (or --json) and exits 1 when a conformance check failed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/termsafe.h"
#include "core/project.h"
#include "core/validate.h"
#include "sandbox/approval.h"
#include "sandbox/wmodel.h"

static int
validate_options(struct cli *cli, int argc, char **argv, const char **dir,
    const char **model, bool *json)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*dir = cli->dir;
	*model = NULL;
	*json = false;
	while ((c = getopt_long(argc, argv, "C:", opts, NULL)) != -1) {
		switch (c) {
		case 'C': *dir = optarg; break;
		case 'm': *model = optarg; break;
		case 'j': *json = true; break;
		default:
			return cli_usage_error("validate", "unknown option");
		}
	}
	if (optind != argc)
		return cli_usage_error("validate", "unexpected argument %s",
		    argv[optind]);
	return 0;
}

static void
validate_print(const struct project *p, const struct validate_report *r,
    bool json)
{
	char *s;
	cJSON *j;

	if (json) {
		j = validate_report_json(p, r);
		s = cJSON_Print(j);
		termsafe_json_puts(s, stdout);
		cJSON_Delete(j);
	} else {
		s = validate_report_text(p, r);
		termsafe_fputs(s, stdout);
	}
	free(s);
}

int
cmd_validate(struct cli *cli, int argc, char **argv)
{
	struct validate_params vp = { 20, 30, 1 };
	struct validate_hooks hooks = wmodel_validate_hooks;
	struct validate_report r;
	struct project *p = NULL;
	struct wmodel *wm = NULL;
	struct error err = { 0 };
	const char *dir, *model;
	char *path, *src = NULL, sha[65];
	size_t len;
	bool json;
	int rc;

	if ((rc = validate_options(cli, argc, argv, &dir, &model, &json)) != 0)
		return rc;
	memset(&r, 0, sizeof r);
	path = model != NULL ? xstrdup(model) : path_join(dir, "model.py");
	rc = -1;
	if (project_load(dir, &p, &err) != 0 ||
	    file_read(path, &src, &len, &err) != 0)
		goto out;
	sha256_hex(src, len, sha);
	if (approval_check(dir, sha, &err) != 0 ||
	    wmodel_load(p, src, len, 1000, &wm, &err) != 0)
		goto out;
	hooks.source = src;
	hooks.source_len = len;
	wmodel_enter(wm);
	rc = validate_run(p, &wmodel_ops, wm, &hooks, &vp, &r, &err);
	wmodel_leave(wm);
	if (rc == 0) {
		validate_print(p, &r, json);
		if (!r.conformant)
			rc = error_set(&err, EXIT_ERROR, "the model does not "
			    "conform to the contract (see the failed checks)");
	}
out:
	validate_report_free(&r);
	wmodel_free(wm);
	project_free(p);
	free(src);
	free(path);
	return rc == 0 ? EXIT_OK : cli_report("validate", &err);
}
