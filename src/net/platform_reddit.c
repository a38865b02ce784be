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
	PLATFORM_COMPOSIO_STEPS,
	.composio = &reddit_composio,
};
