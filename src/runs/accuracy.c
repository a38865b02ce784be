/*
 * accuracy — a model's validation report from a synthesis report, or
 * from the worker (see accuracy.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/accuracy.h"

/* The validation of the candidate with sha in one synthesis report. */
static int
accuracy_in_report(const struct project *p, const char *path,
    const char *sha, struct validate_report *out)
{
	const cJSON *c, *s, *v;
	struct error err = { 0 };
	cJSON *j;
	char *text;
	size_t len;
	int rc = -1;

	if (file_read(path, &text, &len, &err) != 0)
		return -1;
	j = cJSON_ParseWithLength(text, len);
	free(text);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j,
	    "candidates")) {
		s = cJSON_GetObjectItemCaseSensitive(c, "sha256");
		v = cJSON_GetObjectItemCaseSensitive(c, "validation");
		if (cJSON_IsString(s) && strcmp(s->valuestring, sha) == 0 &&
		    cJSON_IsObject(v) &&
		    validate_report_from_json(p, v, out, &err) == 0) {
			rc = 0;
			break;
		}
	}
	cJSON_Delete(j);
	return rc;
}

static int
accuracy_cmp_desc(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

int
accuracy_from_synth(const struct project *p, const char *sha,
    struct validate_report *out, char *source, size_t len)
{
	char *dir = path_join(p->dir, ".fronts"), *path, **names = NULL;
	struct dirent *de;
	size_t n = 0, i, l;
	DIR *d;
	int rc = -1;

	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			l = strlen(de->d_name);
			if (strncmp(de->d_name, "synth-", 6) != 0 || l < 11 ||
			    strcmp(de->d_name + l - 5, ".json") != 0)
				continue;
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(de->d_name);
		}
		closedir(d);
	}
	/* synth-YYYYMMDDTHHMMSSZ.json: by name is by time, newest first */
	if (n > 0)
		qsort(names, n, sizeof *names, accuracy_cmp_desc);
	for (i = 0; i < n && rc != 0; i++) {
		path = path_join(dir, names[i]);
		if ((rc = accuracy_in_report(p, path, sha, out)) == 0)
			snprintf(source, len, "%s", names[i]);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return rc;
}
