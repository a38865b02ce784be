/*
 * demo — lists the embedded demo files and writes them out as a new
 * project. Each file is written to a temporary name and then hard-linked
 * into place: link() fails when the name exists, so an existing project
 * file is never overwritten, even if it appears between check and write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/demo.h"

#define DEMO_SYM(s) \
	extern const unsigned char s##_start[], s##_end[]
DEMO_SYM(demo_fronts_json);
DEMO_SYM(demo_rules_md);
DEMO_SYM(demo_history_jsonl);
DEMO_SYM(demo_drafts_jsonl);
DEMO_SYM(demo_model_py);
DEMO_SYM(demo_harbour_png);
DEMO_SYM(empty_fronts_json);
DEMO_SYM(empty_rules_md);
DEMO_SYM(empty_history_jsonl);
DEMO_SYM(empty_drafts_jsonl);
DEMO_SYM(empty_readme_txt);

#define DEMO_ENTRY(name, s) { name, s##_start, s##_end }
struct demo_file {
	const char		*name;	/* "fronts.json", … */
	const unsigned char	*data, *end;
};

static const struct demo_file demo_files[] = {
	DEMO_ENTRY("fronts.json", demo_fronts_json),
	DEMO_ENTRY("rules.md", demo_rules_md),
	DEMO_ENTRY("history.jsonl", demo_history_jsonl),
	DEMO_ENTRY("drafts.jsonl", demo_drafts_jsonl),
	DEMO_ENTRY("model.py", demo_model_py),
	DEMO_ENTRY("media/harbour.png", demo_harbour_png),
	{ NULL, NULL, NULL }
};

/* No model, no history, no drafts: a project to fill in. */
static const struct demo_file empty_files[] = {
	DEMO_ENTRY("fronts.json", empty_fronts_json),
	DEMO_ENTRY("rules.md", empty_rules_md),
	DEMO_ENTRY("history.jsonl", empty_history_jsonl),
	DEMO_ENTRY("drafts.jsonl", empty_drafts_jsonl),
	DEMO_ENTRY("README.txt", empty_readme_txt),
	{ NULL, NULL, NULL }
};

static void
remove_written(const char *dir, const struct demo_file *files, int n)
{
	char *path;
	int i;

	for (i = 0; i < n; i++) {
		path = path_join(dir, files[i].name);
		unlink(path);
		free(path);
	}
}

/* Writes one file under a temporary name, then links it into place. */
static int
place(const char *dir, const struct demo_file *f, struct error *err)
{
	char *path = path_join(dir, f->name), *tmp;
	const char *base;
	int rc = 0;

	/* The temporary name sits beside the file ("media/.x.png.init-N"). */
	base = strrchr(f->name, '/');
	xasprintf(&tmp, "%s/%.*s.%s.init-%ld", dir,
	    base != NULL ? (int)(base - f->name + 1) : 0, f->name,
	    base != NULL ? base + 1 : f->name, (long)getpid());
	if (file_write_atomic(tmp, f->data, (size_t)(f->end - f->data),
	    err) != 0) {
		free(tmp);
		free(path);
		return -1;
	}
	if (link(tmp, path) != 0)
		rc = error_set(err, EXIT_ERROR,
		    "%s: %s%s", path, strerror(errno), errno == EEXIST ?
		    "; refusing to overwrite an existing project" : "");
	unlink(tmp);
	free(tmp);
	free(path);
	return rc;
}

int
demo_scaffold(const char *dir, bool empty, struct error *err)
{
	const struct demo_file *f = empty ? empty_files : demo_files;
	struct stat sb;
	char *path;
	int i;

	for (i = 0; f[i].name != NULL; i++) {
		path = path_join(dir, f[i].name);
		if (lstat(path, &sb) == 0) {
			error_set(err, EXIT_ERROR, "%s already exists; refusing "
			    "to overwrite an existing project", path);
			free(path);
			return -1;
		}
		free(path);
	}
	if (dir_ensure(dir, err) != 0)
		return -1;
	/* The demo's images (drafts.jsonl names them). */
	if (!empty) {
		path = path_join(dir, "media");
		if (dir_ensure(path, err) != 0) {
			free(path);
			return -1;
		}
		free(path);
	}
	for (i = 0; f[i].name != NULL; i++)
		if (place(dir, &f[i], err) != 0) {
			remove_written(dir, f, i);
			return -1;
		}
	return 0;
}
