/*
 * platform_reddit — Reddit, through Composio's tools: the post's text is
 * the submission's `title` (the length limit is the title's), in the
 * front's `subreddit`, a self post (`kind` "self", `text` "") unless the
 * front's composio.arguments say otherwise; a post takes no replies, and
 * there is no read tool.
 */
#include "net/channel_int.h"
#include "net/check_int.h"
#include "net/platform.h"

static const struct platform_arg reddit_needs[] = {
	{ "subreddit", NULL },
	{ "kind", "self" },
	{ "text", "" },
	{ NULL, NULL }
};

static const struct platform_composio reddit_composio = {
	.text_arg = "title",
	.needs = reddit_needs,
};

const struct platform_handler platform_reddit = {
	.platform = PLATFORM_REDDIT,
	.name = "reddit",
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
	.check = check_composio,
	.composio = &reddit_composio,
};
