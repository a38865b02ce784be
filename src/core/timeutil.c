/*
 * timeutil — ISO-8601 parsing and formatting, and local-time questions in
 * the project's IANA time zone.
 *
 * Parsing does its own calendar arithmetic instead of going through
 * mktime(), so it never depends on the process time zone: an instant with
 * an offset means the same thing whatever TZ says. Local questions go
 * through localtime_r()/mktime(), which know the zone's daylight-saving
 * rules.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/timeutil.h"

#define DAY_SECONDS 86400L

long
time_days_from_civil(int y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/* The zone database directory: TZDIR where set (as glibc honours it). */
static const char *
zone_dir(void)
{
	const char *d = getenv("TZDIR");

	return d != NULL && *d != '\0' ? d : "/usr/share/zoneinfo";
}

static bool
zone_name_ok(const char *iana)
{
	const char *p;

	if (iana == NULL || *iana == '\0' || *iana == '/' || strlen(iana) > 200)
		return false;
	if (strstr(iana, "..") != NULL)
		return false;
	for (p = iana; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("/_+-", *p) == NULL)
			return false;
	return true;
}

bool
timeutil_zone_exists(const char *iana)
{
	char path[512], magic[4];
	struct stat sb;
	FILE *f;
	bool ok;

	if (!zone_name_ok(iana))
		return false;
	if (strcmp(iana, "UTC") == 0)
		return true;
	snprintf(path, sizeof path, "%s/%s", zone_dir(), iana);
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return false;
	if ((f = fopen(path, "rb")) == NULL)
		return false;
	ok = fread(magic, 1, 4, f) == 4 && memcmp(magic, "TZif", 4) == 0;
	fclose(f);
	return ok;
}

int
timeutil_set_zone(const char *iana)
{
	if (!timeutil_zone_exists(iana))
		return -1;
	if (setenv("TZ", iana, 1) != 0)
		return -1;
	tzset();
	return 0;
}

/* Reads exactly n digits. */
static int
digits(const char **sp, int n, int *out)
{
	const char *s = *sp;
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*sp = s + n;
	*out = v;
	return 0;
}

static int
expect(const char **sp, char c)
{
	if (**sp != c)
		return -1;
	(*sp)++;
	return 0;
}

/* "Z", "+HH:MM", "+HHMM" or "+HH"; seconds east of UTC. */
static int
parse_offset(const char *s, long *out)
{
	int sign, h, m = 0;

	if ((s[0] == 'Z' || s[0] == 'z') && s[1] == '\0') {
		*out = 0;
		return 0;
	}
	if (s[0] != '+' && s[0] != '-')
		return -1;
	sign = s[0] == '-' ? -1 : 1;
	s++;
	if (digits(&s, 2, &h) != 0)
		return -1;
	if (*s == ':')
		s++;
	if (*s != '\0' && digits(&s, 2, &m) != 0)
		return -1;
	if (*s != '\0' || h > 23 || m > 59)
		return -1;
	*out = sign * (h * 3600L + m * 60L);
	return 0;
}

int
time_parse_iso(const char *s, time_t *out)
{
	int y, mo, d, h, mi, sec = 0;
	long off, days;

	if (s == NULL || digits(&s, 4, &y) != 0 || expect(&s, '-') != 0 ||
	    digits(&s, 2, &mo) != 0 || expect(&s, '-') != 0 ||
	    digits(&s, 2, &d) != 0)
		return -1;
	if (*s != 'T' && *s != 't' && *s != ' ')
		return -1;
	s++;
	if (digits(&s, 2, &h) != 0 || expect(&s, ':') != 0 ||
	    digits(&s, 2, &mi) != 0)
		return -1;
	if (*s == ':') {
		s++;
		if (digits(&s, 2, &sec) != 0)
			return -1;
		if (*s == '.' || *s == ',') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			while (isdigit((unsigned char)*s))
				s++;	/* fractions below a second are dropped */
		}
	}
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) ||
	    h > 23 || mi > 59 || sec > 59)
		return -1;
	if (parse_offset(s, &off) != 0)
		return -1;
	days = time_days_from_civil(y, mo, d);
	*out = (time_t)(days * DAY_SECONDS + h * 3600L + mi * 60L + sec - off);
	return 0;
}

void
time_format_local(time_t t, char *buf, size_t len)
{
	struct tm tm;
	long off;
	char sign;

	if (localtime_r(&t, &tm) == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	off = tm.tm_gmtoff;
	sign = off < 0 ? '-' : '+';
	if (off < 0)
		off = -off;
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d%c%02ld:%02ld",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, sign, off / 3600, (off % 3600) / 60);
}

void
time_format_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(buf, len,
	    "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "?");
}

int
time_local_hour(time_t t)
{
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return 0;
	return tm.tm_hour;
}

long
time_local_day(time_t t)
{
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return t / DAY_SECONDS;
	return time_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1,
	    tm.tm_mday);
}

int
time_local_weekday(time_t t)
{
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return 0;
	return (tm.tm_wday + 6) % 7;
}

time_t
time_local_midnight(time_t t)
{
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return t - t % DAY_SECONDS;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

time_t
time_round_up_slot(time_t now, int slot_minutes)
{
	time_t midnight, next, t;
	struct tm tm;
	long slot, k;

	if (slot_minutes <= 0)
		return now;
	slot = slot_minutes * 60L;
	midnight = time_local_midnight(now);
	/* Slots count elapsed time from midnight, so a 23- or 25-hour day
	 * still has evenly spaced slots; a slot that would run past the next
	 * midnight snaps to it. */
	k = (now - midnight + slot - 1) / slot;
	t = midnight + k * slot;
	if (localtime_r(&midnight, &tm) != NULL) {
		tm.tm_mday++;
		tm.tm_isdst = -1;
		next = mktime(&tm);
		if (next != (time_t)-1 && t > next)
			t = next;
	}
	return t;
}
