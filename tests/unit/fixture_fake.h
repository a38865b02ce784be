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

#endif
