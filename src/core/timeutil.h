/*
 * timeutil — ISO-8601 parsing and formatting, and local-time questions
 * (hour of day, calendar day) in the project's IANA time zone.
 *
 * The time zone is a process-wide singleton: timeutil_set_zone() sets TZ and
 * calls tzset() once, when a project is loaded. Local-time functions use the
 * reentrant libc calls after that and are safe from any thread.
 */
#ifndef FRONTS_TIMEUTIL_H
#define FRONTS_TIMEUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* Returns 0, or -1 when the zone is not a known IANA name. */
int	timeutil_set_zone(const char *iana);
/* Is iana a zone of the system's zone database (TZDIR or
 * /usr/share/zoneinfo)? Names with "..", a leading '/' or odd characters
 * never are. */
bool	timeutil_zone_exists(const char *iana);
/* Days since 1970-01-01 of a proleptic Gregorian date. */
long	time_days_from_civil(int y, int m, int d);
/* Parses "2026-12-01T08:00:00Z", "…+01:00", "….123+0100". -1 on error. */
int	time_parse_iso(const char *s, time_t *out);
/* "2026-12-01T09:00:00+01:00" in the process time zone; buf >= 32. */
void	time_format_local(time_t t, char *buf, size_t len);
/* "2026-12-01T08:00:00Z": the times fronts writes into its own records
 * (the ledger, the caches), independent of the project's zone. */
void	time_format_utc(time_t t, char *buf, size_t len);
/* Local hour 0..23 and minute. */
int	time_local_hour(time_t t);
/* A number that is equal for two instants on the same local calendar day
 * (days since 1970-01-01 of the local date). */
long	time_local_day(time_t t);
/* Local day of the week, 0 = Monday. */
int	time_local_weekday(time_t t);
/* The start of t's local calendar day. */
time_t	time_local_midnight(time_t t);
/* The next multiple of slot_minutes after local midnight, strictly after now
 * unless now is exactly on one. */
time_t	time_round_up_slot(time_t now, int slot_minutes);

#endif
