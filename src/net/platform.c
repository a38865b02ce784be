/*
 * platform — the list of platform tables (platform_*.c) by enum platform,
 * and what every caller asks of a front's table (see platform.h).
 */
#include <stddef.h>

#include "net/platform.h"

static const struct platform_handler *const platforms[PLATFORM_COUNT] = {
	[PLATFORM_X] = &platform_x,
	[PLATFORM_LINKEDIN] = &platform_linkedin,
	[PLATFORM_BLUESKY] = &platform_bluesky,
	[PLATFORM_MASTODON] = &platform_mastodon,
	[PLATFORM_REDDIT] = &platform_reddit,
};

const struct platform_handler *
platform_of(enum platform p)
{
	return (unsigned)p < PLATFORM_COUNT ? platforms[p] : NULL;
}

const struct platform_handler *
platform_front(const struct front *f, struct error *err)
{
	const struct platform_handler *pl = platform_of(f->platform);

	if (pl == NULL) {
		error_set(err, EXIT_ERROR, "front \"%s\": fronts cannot publish "
		    "to %s", f->id, platform_name(f->platform));
		return NULL;
	}
	if (pl->need_field != NULL && channel_front_str(f, pl->need_block,
	    pl->need_field) == NULL) {
		error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": %s.%s is "
		    "missing; publishing to %s goes through %s", f->id,
		    pl->need_block, pl->need_field, platform_name(f->platform),
		    pl->service);
		return NULL;
	}
	return pl;
}

char *
platform_call_name(const struct platform_handler *pl, const struct front *f)
{
	return pl->call_name != NULL ? pl->call_name(f) : xstrdup(pl->channel);
}

const char *
platform_secret_var(const struct platform_handler *pl, const struct front *f)
{
	const char *name = channel_front_str(f, NULL, pl->secret_field);

	return name != NULL ? name : pl->secret_default;
}
