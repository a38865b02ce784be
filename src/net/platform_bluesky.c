/*
 * platform_bluesky — a Bluesky PDS, directly: a session from the front's
 * handle and app password (BLUESKY_APP_PASSWORD or its "password_env"),
 * then createRecord under a record key derived from the ledger entry,
 * images as blobs; the AppView's author feed for history; the same
 * session and getProfile for check.
 */
#include "net/channel_int.h"
#include "net/check_int.h"
#include "net/platform.h"
#include "net/pull_int.h"

const struct platform_handler platform_bluesky = {
	.platform = PLATFORM_BLUESKY,
	.name = "bluesky",
	.channel = "bluesky",
	.kind = CHANNEL_BLUESKY,
	.secret_field = "password_env",
	.secret_default = "BLUESKY_APP_PASSWORD",
	.max_images = 4,
	.key = channel_bluesky_key,
	.build = channel_bluesky_build,
	.send = channel_bluesky_send,
	.pull = pull_bluesky,
	.check = check_bluesky,
};
