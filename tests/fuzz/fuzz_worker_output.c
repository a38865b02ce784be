/*
 * fuzz_worker_output — libFuzzer harness for everything the parent reads
 * from a sandbox worker, which after an escape is the attacker's: the
 * incremental frame reader fed in pieces through a pipe, and each frame's
 * payload through the parser the parent uses for it, then on through what
 * the parent does next with the result:
 *   S  snapshot -> the TUI's search rows, and a re-encode that must parse
 *   R  search tree -> merged, the plan built from it and printed as JSON;
 *      also as a validation report and rollout stats (the job kind decides
 *      which in the parent; here every reading is tried)
 *   O  ready, with the layers of the lockdown -> their description
 *   E  error frame, Y  refused syscall.
 * The first input byte sets the size of the pieces written to the pipe.
 * Run from the repository root (the project is fixtures/demo's).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/legal.h"
#include "core/plan.h"
#include "core/project.h"
#include "core/search.h"
#include "core/validate.h"
#include "sandbox/frame.h"
#include "sandbox/frame_parse.h"
#include "sandbox/lockdown.h"
#include "core/rollout.h"
#include "sandbox/seccomp.h"
#include "ui/view.h"

/* Undefined behaviour (a double converted out of an integer's range) is
 * a finding like a crash, not a line in the log. */
const char *
__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

static struct project *fuzz_p;
static char fuzz_dir[] = "/tmp/fronts-fuzz-XXXXXX";

/* DIR/name from data. */
static void
fuzz_put(const char *name, const char *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", fuzz_dir, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(data, 1, len, f) != len)
		abort();
	fclose(f);
}

static void
fuzz_copy(const char *name)
{
	struct error err = { 0 };
	char path[128], *text;
	size_t len;

	snprintf(path, sizeof path, "fixtures/demo/%s", name);
	if (file_read(path, &text, &len, &err) != 0) {
		fprintf(stderr, "fuzz_worker_output: %s (run from the "
		    "repository root)\n", err.msg);
		abort();
	}
	fuzz_put(name, text, len);
	free(text);
}

/*
 * The demo project (the seeds' trees index its fronts and drafts), with
 * every draft's text cut to its id: the legality engine analyses each text
 * on every search_new(), which would otherwise be most of each run.
 */
static void
fuzz_drafts(void)
{
	struct error err = { 0 };
	char *text, *line, *next, *out = strdup(""), *more, *s;
	cJSON *j, *id;
	size_t len;

	if (file_read("fixtures/demo/drafts.jsonl", &text, &len, &err) != 0)
		abort();
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((j = cJSON_Parse(line)) == NULL)
			continue;
		id = cJSON_GetObjectItemCaseSensitive(j, "id");
		if (cJSON_IsString(id))
			cJSON_ReplaceItemInObjectCaseSensitive(j, "text",
			    cJSON_CreateString(id->valuestring));
		s = cJSON_PrintUnformatted(j);
		if (xasprintf(&more, "%s%s\n", out, s) < 0)
			abort();
		free(out);
		free(s);
		out = more;
		cJSON_Delete(j);
	}
	fuzz_put("drafts.jsonl", out, strlen(out));
	free(out);
	free(text);
}

static void
fuzz_cleanup(void)
{
	static const char *names[] = { "fronts.json", "rules.md",
	    "history.jsonl", "drafts.jsonl" };
	char path[128];
	size_t i;

	project_free(fuzz_p);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", fuzz_dir, names[i]);
		unlink(path);
	}
	rmdir(fuzz_dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err = { 0 };

	if (mkdtemp(fuzz_dir) == NULL)
		abort();
	atexit(fuzz_cleanup);
	fuzz_copy("fronts.json");
	fuzz_copy("rules.md");
	fuzz_copy("history.jsonl");
	fuzz_drafts();
	if (project_load(fuzz_dir, &fuzz_p, &err) != 0) {
		fprintf(stderr, "fuzz_worker_output: %s\n", err.msg);
		abort();
	}
	return 0;
}

static void
fuzz_snapshot(const char *buf)
{
	struct search_snapshot *s = malloc(sizeof *s), *back = malloc(sizeof *s);
	struct view_row rows[64];
	cJSON *j;
	char *text;

	if (frame_snapshot_parse(buf, s) == 0) {
		view_search_rows(fuzz_p, s, true, rows, 64);
		j = frame_snapshot_json(s);
		text = cJSON_PrintUnformatted(j);
		/* What the parser accepted, the encoder writes back parseably. */
		if (frame_snapshot_parse(text, back) != 0 ||
		    back->nroot != s->nroot || back->npv != s->npv)
			abort();
		free(text);
		cJSON_Delete(j);
	}
	free(back);
	free(s);
}

static void
fuzz_tree(const char *buf, size_t len)
{
	struct search_params sp = { .iterations = 1, .seed = 1, .workers = 1 };
	struct search_result res;
	struct error err = { 0 };
	struct search *s = search_new(fuzz_p, &sp, 0);
	struct legal *lg;
	struct plan pl;
	char **dropped, *text;
	int nd, i;
	cJSON *j;

	if (search_merge(s, buf, len, &err) == 0) {
		lg = legal_new(fuzz_p, NULL, 0, NULL);
		search_result(s, 3, &res);
		plan_build(fuzz_p, lg, &res, &pl, &dropped, &nd);
		j = plan_to_json(fuzz_p, &pl);
		text = cJSON_PrintUnformatted(j);
		free(text);
		cJSON_Delete(j);
		for (i = 0; i < nd; i++)
			free(dropped[i]);
		free(dropped);
		plan_free(&pl);
		search_result_free(&res);
		legal_free(lg);
	}
	search_free(s);
}

static void
fuzz_result_json(const char *buf)
{
	struct validate_report r;
	struct rollout_stats st;
	struct error err = { 0 };
	cJSON *j = cJSON_Parse(buf);
	char *text;

	if (j == NULL)
		return;
	if (validate_report_from_json(fuzz_p, j, &r, &err) == 0) {
		text = validate_report_text(fuzz_p, &r);
		free(text);
		validate_report_free(&r);
	}
	(void)rollout_stats_from_json(j, &st, &err);
	cJSON_Delete(j);
}

static void
fuzz_ready(const char *buf, size_t len)
{
	struct lockdown ld;
	char text[1024];
	cJSON *j = cJSON_ParseWithLength(buf, len);

	if (lockdown_from_json(j, &ld) == 0)
		lockdown_describe(&ld, text, sizeof text);
	cJSON_Delete(j);
}

static void
fuzz_frame(int type, const char *buf, size_t len)
{
	char msg[1024];
	int code, nr;

	switch (type) {
	case FRAME_READY:
		fuzz_ready(buf, len);
		break;
	case FRAME_SNAPSHOT:
		fuzz_snapshot(buf);
		break;
	case FRAME_RESULT:
		fuzz_tree(buf, len);
		fuzz_result_json(buf);
		break;
	case FRAME_ERROR:
		if (frame_error_parse(buf, &code, msg, sizeof msg) == 0 &&
		    (code < EXIT_ERROR || code > EXIT_NETWORK))
			abort();
		break;
	case FRAME_SYSCALL:
		if (frame_syscall_parse(buf, len, &nr) == 0)
			(void)seccomp_syscall_name(nr);
		break;
	}
}

/* The parent's bounds (worker_parent.c), with a result of at most 1 MiB:
 * no frame over its type's bound may come out of the reader. */
static size_t
fuzz_limit(void *arg, int type)
{
	(void)arg;
	switch (type) {
	case FRAME_READY:
		return FRAME_READY_MAX;
	case FRAME_SNAPSHOT:
		return FRAME_SNAPSHOT_MAX;
	case FRAME_RESULT:
		return 1 << 20;
	case FRAME_ERROR:
		return FRAME_ERROR_MAX;
	case FRAME_SYSCALL:
		return FRAME_SYSCALL_LEN;
	default:
		return 0;
	}
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct frame_reader rd = { .limit = fuzz_limit };
	size_t piece, off = 1, n;
	char *buf;
	size_t blen;
	int fds[2], type, rc;

	if (len < 1)
		return 0;
	piece = (size_t)data[0] * 61 + 7;	/* 7: headers split too */
	if (pipe2(fds, O_NONBLOCK) != 0)
		abort();
	for (;;) {
		n = len - off < piece ? len - off : piece;
		if (n > 0 && write(fds[1], data + off, n) != (ssize_t)n)
			abort();
		off += n;
		if (off == len) {
			close(fds[1]);
			fds[1] = -1;
		}
		while ((rc = frame_reader_fill(&rd, fds[0])) > 0)
			;
		while ((rc = frame_reader_next(&rd, &type, &buf, &blen)) > 0) {
			if (buf[blen] != '\0' || blen > fuzz_limit(NULL, type))
				abort();
			fuzz_frame(type, buf, blen);
			free(buf);
		}
		if (rc < 0 || off == len)
			break;
	}
	if (fds[1] >= 0)
		close(fds[1]);	/* a malformed stream stops before the end */
	close(fds[0]);
	frame_reader_free(&rd);
	return 0;
}
