/*
 * project_media — reads every image a project's drafts name, once, as
 * the project loads, so that the legality engine (which may run where
 * files can no longer be opened) judges what the files are, not what
 * their names say. A file that is missing, corrupt, not an image, or
 * reached through a link out of the project directory is not an error
 * of the project: its image carries the problem, and the legality engine
 * refuses it on every front, naming its path.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/media.h"
#include "core/project_int.h"

/* Whether path, resolved, lies inside the project directory root. */
static bool
media_inside(const char *root, const char *path)
{
	char *r = realpath(path, NULL);
	size_t n = strlen(root);
	bool in;

	if (r == NULL)
		return true;	/* missing: media_probe says so */
	in = strncmp(r, root, n) == 0 && (r[n] == '/' || root[n - 1] == '/');
	free(r);
	return in;
}

static void
media_read(const char *dir, const char *root, struct media *m)
{
	struct image_facts *x = &m->facts;
	struct media_info info;
	struct error err = { 0 };
	char *path = path_join(dir, m->path);

	memset(x, 0, sizeof *x);
	x->probed = true;
	if (root != NULL && !media_inside(root, path))
		x->problem = xstrdup("a link out of the project directory");
	else if (media_probe(path, &info, &err) != 0)
		/* The legality engine names the image by its path as
		 * written; the reader's message may begin with the full one. */
		x->problem = xstrdup(strncmp(err.msg, path, strlen(path)) == 0 &&
		    strncmp(err.msg + strlen(path), ": ", 2) == 0 ?
		    err.msg + strlen(path) + 2 : err.msg);
	else {
		/* enum media_type and enum image_type list the same types. */
		x->type = info.type <= MEDIA_WEBP ? (enum image_type)info.type :
		    IMAGE_UNKNOWN;
		x->bytes = (long)info.bytes;
		x->width = info.width;
		x->height = info.height;
		x->frames = info.frames;
	}
	free(path);
}

static void
media_read_body(const char *dir, const char *root, struct body *b)
{
	int i, j;

	for (i = 0; i < b->nparts; i++)
		for (j = 0; j < b->parts[i].nmedia; j++)
			media_read(dir, root, &b->parts[i].media[j]);
}

void
project_probe_media(struct project *p)
{
	char *root = realpath(p->dir, NULL);
	int d, v;

	for (d = 0; d < p->ndrafts; d++) {
		media_read_body(p->dir, root, &p->drafts[d].body);
		for (v = 0; v < p->drafts[d].nvariants; v++)
			media_read_body(p->dir, root,
			    &p->drafts[d].variants[v].body);
	}
	free(root);
}
