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
/* Parses "2026-12-01T08:00:00Z", "…+01:00", "….123+0100". -1 on error. */
int	time_parse_iso(const char *s, time_t *out);
/* "2026-12-01T09:00:00+01:00" in the process time zone; buf >= 32. */
void	time_format_local(time_t t, char *buf, size_t len);
/* Local hour 0..23 and minute. */
int	time_local_hour(time_t t);
/* A number that is equal for two instants on the same local calendar day. */
long	time_local_day(time_t t);
/* The next multiple of slot_minutes after local midnight, strictly after now
 * unless now is exactly on one. */
time_t	time_round_up_slot(time_t now, int slot_minutes);

#endif
