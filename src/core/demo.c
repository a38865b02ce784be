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

#define DEMO_ENTRY(name, s) { name, s##_start, 0 }
struct demo_file {
	const char		*name;	/* "fronts.json", … */
	const unsigned char	*data;
	size_t			 len;
};

static struct demo_file files[] = {
	DEMO_ENTRY("fronts.json", demo_fronts_json),
	DEMO_ENTRY("rules.md", demo_rules_md),
	DEMO_ENTRY("history.jsonl", demo_history_jsonl),
	DEMO_ENTRY("drafts.jsonl", demo_drafts_jsonl),
	DEMO_ENTRY("model.py", demo_model_py),
	DEMO_ENTRY("media/harbour.png", demo_harbour_png),
};
#define NFILES ((int)(sizeof files / sizeof files[0]))

/* The embedded files; returns their count. */
static int
demo_files(const struct demo_file **out)
{
	const unsigned char *ends[NFILES] = { demo_fronts_json_end,
	    demo_rules_md_end, demo_history_jsonl_end, demo_drafts_jsonl_end,
	    demo_model_py_end, demo_harbour_png_end };
	int i;

	for (i = 0; i < NFILES; i++)
		files[i].len = (size_t)(ends[i] - files[i].data);
	*out = files;
	return NFILES;
}

static void
remove_written(const char *dir, int n)
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
	if (file_write_atomic(tmp, f->data, f->len, err) != 0) {
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
demo_scaffold(const char *dir, struct error *err)
{
	const struct demo_file *f;
	struct stat sb;
	char *path;
	int i, n = demo_files(&f);

	for (i = 0; i < n; i++) {
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
	path = path_join(dir, "media");
	if (dir_ensure(path, err) != 0) {
		free(path);
		return -1;
	}
	free(path);
	for (i = 0; i < n; i++)
		if (place(dir, &f[i], err) != 0) {
			remove_written(dir, i);
			return -1;
		}
	return 0;
}
