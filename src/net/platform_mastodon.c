/*
 * platform_mastodon — a Mastodon instance, directly: statuses under the
 * front's token (MASTODON_ACCESS_TOKEN or its "token_env") with an
 * Idempotency-Key, images through /api/v2/media; the account's statuses
 * for history; verify_credentials and the instance's limits for check,
 * whose limits are read without the token too.
 */
#include "net/channel_int.h"
#include "net/check_int.h"
#include "net/platform.h"
#include "net/pull_int.h"

const struct platform_handler platform_mastodon = {
	.platform = PLATFORM_MASTODON,
	.name = "mastodon",
	.channel = "mastodon",
	.kind = CHANNEL_MASTODON,
	.secret_field = "token_env",
	.secret_default = "MASTODON_ACCESS_TOKEN",
	.max_images = 4,
	.key = channel_mastodon_key,
	.build = channel_mastodon_build,
	.send = channel_mastodon_send,
	.upload_then = "once the upload is processed (GET /api/v1/media/ID "
	    "until it is)",
	.pull = pull_mastodon,
	.check = check_mastodon,
	.check_unset = true,
};
