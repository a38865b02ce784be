/*
 * platform_linkedin — LinkedIn, through Composio's tools: the text goes
 * as `commentary`, with the `author` (a person's or an organization's
 * URN) and the `visibility` the tool needs; a post takes no replies.
 * Images go to Composio's file store for LINKEDIN_CREATE_LINKED_IN_POST
 * itself (toolkit linkedin), and the post's `images`, an array of file
 * arguments {"name", "mimetype", "s3key"}, carries them: the tool has no
 * separate media tool (`fronts check` verifies its schema says so).
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
	.toolkit = "linkedin",
	.media_files_arg = "images",
};

const struct platform_handler platform_linkedin = {
	.platform = PLATFORM_LINKEDIN,
	.name = "linkedin",
	PLATFORM_COMPOSIO_STEPS,
	.max_images = CHANNEL_MAX_IMAGES,
	.composio = &linkedin_composio,
};
