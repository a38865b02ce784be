/*
 * platform_linkedin — LinkedIn, through Composio's tools: the text goes
 * as `commentary`, with the `author` (a person's or an organization's
 * URN) and the `visibility` the tool needs; a post takes no replies.
 * LinkedIn has no read tool: history comes from its export.
 */
#include <string.h>

#include "net/channel_int.h"
#include "net/check_int.h"
#include "net/platform.h"

/* The share's page, from the URN LinkedIn answers (x_restli_id). */
static char *
linkedin_post_url(const char *id)
{
	char *url;

	if (strncmp(id, "urn:li:", 7) != 0)
		return NULL;
	xasprintf(&url, "https://www.linkedin.com/feed/update/%s/", id);
	return url;
}

static const struct platform_arg linkedin_needs[] = {
	{ "author", NULL },
	{ "visibility", "PUBLIC" },
	{ NULL, NULL }
};

static const struct platform_composio linkedin_composio = {
	.text_arg = "commentary",
	.needs = linkedin_needs,
	.post_url = linkedin_post_url,
};

const struct platform_handler platform_linkedin = {
	.platform = PLATFORM_LINKEDIN,
	.name = "linkedin",
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
	.composio = &linkedin_composio,
};
