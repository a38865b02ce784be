/*
 * fixture_fake — what the unit tests that talk to the fake platforms
 * (tests/servers/fake_social.py) share: where the repository is, and
 * counting the lines of the fake's log that hold a string.
 */
#ifndef FRONTS_FIXTURE_FAKE_H
#define FRONTS_FIXTURE_FAKE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

/* The repository root: $TOP, or the current directory. */
static inline const char *
top(void)
{
	const char *t = getenv("TOP");

	return t != NULL ? t : ".";
}

/* Lines of the fake's log (or of any file) that contain s. */
static inline int
count(const char *path, const char *s)
{
	char line[16384];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		n += strstr(line, s) != NULL;
	fclose(f);
	return n;
}

/* The port the fake writes to pf once it listens (0: it never did). */
static inline int
fake_port(const char *pf)
{
	char *data;
	int i, port = 0;

	for (i = 0; i < 1000 && port == 0; i++) {
		if (file_read(pf, &data, NULL, NULL) == 0) {
			port = atoi(data);
			free(data);
		} else
			usleep(10000);
	}
	return port;
}

#endif
