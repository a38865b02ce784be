/*
 * platform_x — X, through Composio's tools: TWITTER_CREATION_OF_A_POST
 * (or the front's composio.tool) takes the text as `text`, and a thread's
 * later parts reply to the part before; the tweet lookup refreshes the
 * counts of the posts fronts knows.
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

static const struct platform_composio x_composio = {
	.text_arg = "text",
	.replies = true,
	.post_url = x_post_url,
	.read_tool = pull_x_read_tool,
	.read_args = pull_x_lookup_args,
};

const struct platform_handler platform_x = {
	.platform = PLATFORM_X,
	.name = "x",
	.channel = "composio",
	.kind = CHANNEL_COMPOSIO,
	.secret_field = "api_key_env",
	.secret_default = "COMPOSIO_API_KEY",
	.need_block = "composio",
	.need_field = "tool",
	.service = "Composio",
	.call_name = channel_composio_name,
	.key = channel_composio_key,
	.build = channel_composio_open,
	.send = channel_composio_send,
	.pull = pull_composio,
	.check = check_composio,
	.composio = &x_composio,
};
