/*
 * provider_replay — recorded exchanges: --record stores each one as
 * DIR/<sha256 of the canonical request>.json holding the canonical request,
 * the request body and the response body (never headers, so never a key);
 * replay answers from the first directory holding that file, parsing the
 * response exactly as the live provider would. A miss names the closest
 * recording and the first thing that differs, since a changed prompt is by
 * far the usual cause.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "net/provider_int.h"

static int
replay_parse(const char *api, const char *body, struct llm_answer *ans,
    struct error *err)
{
	if (strcmp(api, "openai") == 0)
		return openai_parse(body, ans, err);
	return anthropic_parse(body, ans, err);
}

static cJSON *
replay_load(const char *path)
{
	char *data;
	cJSON *j;

	if (file_read(path, &data, NULL, NULL) != 0)
		return NULL;
	j = cJSON_Parse(data);
	free(data);
	return j;
}

/* A short, one-line excerpt of s from offset at. */
static void
replay_excerpt(const char *s, size_t at, char *out, size_t n)
{
	size_t i, o = 0, len = strlen(s);

	for (i = at; i < len && i < at + 32 && o + 3 < n; i++) {
		if (s[i] == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else
			out[o++] = s[i];
	}
	out[o] = '\0';
}

/* Describes how string field name differs; returns 1 if it does. */
static int
replay_diff_str(const char *name, const char *was, const char *now,
    char *out, size_t n)
{
	size_t i = 0;
	char a[80], b[80];

	if (strcmp(was, now) == 0)
		return 0;
	while (was[i] != '\0' && was[i] == now[i])
		i++;
	replay_excerpt(was, i, a, sizeof a);
	replay_excerpt(now, i, b, sizeof b);
	snprintf(out, n, "%s at character %zu (recorded \"%s\", now \"%s\")",
	    name, i, a, b);
	return 1;
}

static const char *
replay_str(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* Counts the differences between two canonical requests and describes
 * the first one. */
static int
replay_diff(const cJSON *was, const cJSON *now, char *out, size_t n)
{
	static const char *const fields[] = { "provider", "model", "system",
	    NULL };
	const cJSON *wm, *nm;
	char name[64], first[512] = "", buf[512];
	int d = 0, i, wn, nn;

	for (i = 0; fields[i] != NULL; i++)
		if (replay_diff_str(fields[i], replay_str(was, fields[i]),
		    replay_str(now, fields[i]), buf, sizeof buf) && d++ == 0)
			memcpy(first, buf, sizeof first);
	if (cJSON_GetNumberValue(cJSON_GetObjectItem(was, "max_tokens")) !=
	    cJSON_GetNumberValue(cJSON_GetObjectItem(now, "max_tokens")) &&
	    d++ == 0)
		snprintf(first, sizeof first, "max_tokens");
	wm = cJSON_GetObjectItem(was, "messages");
	nm = cJSON_GetObjectItem(now, "messages");
	wn = cJSON_GetArraySize(wm);
	nn = cJSON_GetArraySize(nm);
	if (wn != nn && d++ == 0)
		snprintf(first, sizeof first, "the number of messages "
		    "(recorded %d, now %d)", wn, nn);
	for (i = 0; i < wn && i < nn; i++) {
		snprintf(name, sizeof name, "messages[%d].content", i);
		if (replay_diff_str(name, replay_str(cJSON_GetArrayItem(wm, i),
		    "content"), replay_str(cJSON_GetArrayItem(nm, i),
		    "content"), buf, sizeof buf) && d++ == 0)
			memcpy(first, buf, sizeof first);
	}
	snprintf(out, n, "%s", first);
	return d;
}

static void
replay_closest(const char *const *dirs, const cJSON *now, char *out,
    size_t n)
{
	char best[640] = "", why[512], *path;
	struct dirent *de;
	int bestd = 1 << 30, d;
	cJSON *rec;
	DIR *dp;

	for (; *dirs != NULL; dirs++) {
		if ((dp = opendir(*dirs)) == NULL)
			continue;
		while ((de = readdir(dp)) != NULL) {
			if (strlen(de->d_name) != 69 ||
			    strcmp(de->d_name + 64, ".json") != 0)
				continue;
			path = path_join(*dirs, de->d_name);
			if ((rec = replay_load(path)) != NULL) {
				d = replay_diff(cJSON_GetObjectItem(rec,
				    "canonical"), now, why, sizeof why);
				if (d < bestd) {
					bestd = d;
					snprintf(best, sizeof best, "the closest, "
					    "%s, differs in %s%s", path, why,
					    d > 1 ? " and more" : "");
				}
				cJSON_Delete(rec);
			}
			free(path);
		}
		closedir(dp);
	}
	snprintf(out, n, "%s", best[0] != '\0' ? best :
	    "there are no recordings there");
}

static void
replay_dir_list(const char *const *dirs, char *out, size_t n)
{
	size_t o = 0;

	out[0] = '\0';
	for (; *dirs != NULL && o < n; dirs++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", o > 0 ? ", " : "",
		    *dirs);
}

int
replay_complete(const struct provider_options *o,
    const struct llm_request *req, struct llm_answer *ans, struct error *err)
{
	static const char *const none[] = { NULL };
	const char *const *dirs = o->replay_dirs != NULL ? o->replay_dirs : none;
	cJSON *now = provider_canonical(o->api, req), *rec = NULL;
	char hash[65], name[80], list[512], closest[700], *path = NULL, *body;
	int i, rc;

	provider_hash(now, hash);
	snprintf(name, sizeof name, "%s.json", hash);
	for (i = 0; dirs[i] != NULL && rec == NULL; i++) {
		free(path);
		path = path_join(dirs[i], name);
		rec = replay_load(path);
	}
	if (rec == NULL) {
		replay_dir_list(dirs, list, sizeof list);
		replay_closest(dirs, now, closest, sizeof closest);
		cJSON_Delete(now);
		free(path);
		return error_set(err, EXIT_NETWORK, "no recording answers this "
		    "request (%.12s) in %s; %s. The prompt depends on the "
		    "project files and the prompt templates: re-record with "
		    "--record after changing them", hash, list, closest);
	}
	cJSON_Delete(now);
	body = cJSON_PrintUnformatted(cJSON_GetObjectItem(rec, "response"));
	rc = body != NULL ? replay_parse(o->api, body, ans, err) :
	    error_set(err, EXIT_NETWORK, "no response in the recording");
	cJSON_free(body);
	cJSON_Delete(rec);
	if (rc != 0) {
		error_wrap(err, "%s", path);
		free(path);
		return -1;
	}
	ans->recording = path;
	return 0;
}

int
record_store(const struct provider_options *o, const struct llm_request *req,
    const struct llm_answer *ans, char **path, struct error *err)
{
	cJSON *rec = cJSON_CreateObject(), *canon = provider_canonical(o->api,
	    req);
	char hash[65], name[80], *text;
	int rc;

	if (dir_ensure(o->record_dir, err) != 0) {
		cJSON_Delete(rec);
		cJSON_Delete(canon);
		return -1;
	}
	provider_hash(canon, hash);
	snprintf(name, sizeof name, "%s.json", hash);
	cJSON_AddItemToObject(rec, "canonical", canon);
	/* Bodies only: the key travels in a header and never gets here. */
	cJSON_AddItemToObject(rec, "request", cJSON_Parse(ans->wire_request));
	cJSON_AddItemToObject(rec, "response", cJSON_Parse(ans->wire_response));
	text = cJSON_Print(rec);
	cJSON_Delete(rec);
	*path = path_join(o->record_dir, name);
	rc = file_write_atomic(*path, text, strlen(text), err);
	cJSON_free(text);
	return rc;
}
