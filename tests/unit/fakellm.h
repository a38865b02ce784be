/*
 * fakellm — starts tests/servers/fake_llm.py on 127.0.0.1 with a script
 * for one test, and stops it. Shared by the net unit tests.
 */
#ifndef FRONTS_TEST_FAKELLM_H
#define FRONTS_TEST_FAKELLM_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

struct fakellm {
	pid_t	pid;
	int	port;
	char	dir[64];
	char	url[128];	/* http://127.0.0.1:PORT */
};

static inline const char *
fakellm_top(void)
{
	const char *top = getenv("TOP");

	return top != NULL ? top : ".";
}

/* Starts the server with script (a JSON list of steps). Returns 0. */
static inline int
fakellm_start(struct fakellm *f, const char *script, const char *expect_key)
{
	char *spath, *log, *pfile, *srv, *data;
	struct error err = { 0 };
	int i;

	memset(f, 0, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/fronts-fake-XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return -1;
	spath = path_join(f->dir, "script.json");
	pfile = path_join(f->dir, "port");
	log = f->dir;
	xasprintf(&srv, "%s/tests/servers/fake_llm.py", fakellm_top());
	if (file_write_atomic(spath, script, strlen(script), &err) != 0)
		return -1;
	if ((f->pid = fork()) == 0) {
		if (expect_key != NULL)
			execl("/usr/bin/python3", "python3", srv, "--script",
			    spath, "--log", log, "--port-file", pfile,
			    "--expect-key", expect_key, (char *)NULL);
		else
			execl("/usr/bin/python3", "python3", srv, "--script",
			    spath, "--log", log, "--port-file", pfile,
			    (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 1000; i++) {
		if (file_read(pfile, &data, NULL, NULL) == 0) {
			f->port = atoi(data);
			free(data);
			break;
		}
		usleep(10000);
	}
	snprintf(f->url, sizeof f->url, "http://127.0.0.1:%d", f->port);
	free(spath);
	free(pfile);
	free(srv);
	return f->port > 0 ? 0 : -1;
}

/* Number of requests the server received. */
static inline int
fakellm_count(const struct fakellm *f)
{
	char *log = path_join(f->dir, "requests.jsonl"), *data, *p;
	int n = 0;

	if (file_read(log, &data, NULL, NULL) == 0) {
		for (p = data; *p != '\0'; p++)
			n += *p == '\n';
		free(data);
	}
	free(log);
	return n;
}

static inline void
fakellm_stop(struct fakellm *f)
{
	char cmd[128];

	if (f->pid > 0) {
		kill(f->pid, SIGTERM);
		waitpid(f->pid, NULL, 0);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", f->dir);
}

#endif
