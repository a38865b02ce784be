/*
 * platform_x — X, through Composio's tools: TWITTER_CREATION_OF_A_POST
 * (or the front's composio.tool) takes the text as `text`, and a thread's
 * later parts reply to the part before; each image goes to Composio's
 * file store and then to TWITTER_UPLOAD_MEDIA (its file argument `media`,
 * `media_category` tweet_image), whose media id the post names in
 * media__media_ids; the tweet lookup refreshes the counts of the posts
 * fronts knows.
 */
#include "net/channel_int.h"
#include "net/check_int.h"
#include "net/platform.h"
#include "net/pull.h"
#include "net/pull_int.h"

static char *
x_post_url(const char *id)
{
	char *url;

	xasprintf(&url, "https://x.com/i/web/status/%s", id);
	return url;
}

static const char *const x_media_fixed[] = {
	"media_category", "tweet_image", NULL
};

static const struct platform_composio x_composio = {
	.text_arg = "text",
	.replies = true,
	.post_url = x_post_url,
	.read_tool = pull_x_read_tool,
	.read_args = pull_x_lookup_args,
	.toolkit = "twitter",
	.media_tool = "TWITTER_UPLOAD_MEDIA",
	.media_file_arg = "media",
	.media_fixed = x_media_fixed,
	.media_ids_arg = "media__media_ids",
};

const struct platform_handler platform_x = {
	.platform = PLATFORM_X,
	.name = "x",
	PLATFORM_COMPOSIO_STEPS,
	.max_images = 4,
	.pull = pull_composio,
	.composio = &x_composio,
};
