/*
 * platform — one const table per platform fronts posts to, holding what
 * differs between them: the channel it publishes through, the variable
 * its credential comes from, the steps of a post (build the requests,
 * send them and read the answer), the history pull and `fronts check`.
 * The rest of net/ calls through the table and never asks which platform
 * a front is on.
 *
 * Each table is in its own platform_NAME.c; its steps are in
 * channel_NAME.c (publishing), pull_NAME.c (history) and check_NAME.c
 * (`fronts check`), where X, LinkedIn and Reddit share Composio's.
 * Adding a platform is adding those files and one line to platform.c.
 *
 * The limits a plan must keep (length, links, images per post, sizes)
 * are core's, in text.c and legal_media.c: the planner needs them and
 * core sees nothing of net. What is here is what the sender itself
 * holds to (max_images).
 */
#ifndef FRONTS_PLATFORM_H
#define FRONTS_PLATFORM_H

#include <stdbool.h>
#include <time.h>

#include "core/project.h"
#include "core/util.h"
#include "net/channel.h"
#include "net/check.h"

struct pull_session;

/* An argument a Composio tool cannot do without: the front's
 * composio.arguments value, else dflt (NULL: the front must give it). */
struct platform_arg {
	const char	*name;
	const char	*dflt;
};

/* What a platform reached through Composio's tools differs in. */
struct platform_composio {
	const char			*text_arg;	/* carries the post's text */
	const struct platform_arg	*needs;		/* ends with a NULL name */
	bool				 replies;	/* a thread's parts reply */
	/* The post's address from the id the tool answered, or NULL. */
	char				*(*post_url)(const char *id);
	/* The read tool a pull calls and the arguments it sends (NULL:
	 * none), for `fronts check` to compare with the tool's. */
	const char			*(*read_tool)(const struct front *);
	const char *const		*read_args;
	/* Images (NULL media_tool: none go): the toolkit Composio's file
	 * store files them under, the tool that hands one to the platform
	 * (its file argument, then name/value pairs of its fixed arguments,
	 * ending with NULL), and the post's argument that names what that
	 * tool answered. A platform whose post tool takes the files
	 * themselves (LinkedIn) has no media tool: the files are staged for
	 * the post tool and media_files_arg, an array, names them. */
	const char			*toolkit;
	const char			*media_tool;
	const char			*media_file_arg;
	const char *const		*media_fixed;
	const char			*media_ids_arg;
	const char			*media_files_arg;
};

struct platform_handler {
	enum platform		 platform;
	const char		*name;		/* platform_name(): "x", … */
	const char		*channel;	/* "composio", "mastodon", … */
	enum channel_kind	 kind;
	/* The credential: the variable a front's secret_field names, else
	 * secret_default. */
	const char		*secret_field;
	const char		*secret_default;
	/* A front field the channel cannot work without (need_block's
	 * need_field; NULL: none), and the service it names in saying so. */
	const char		*need_block, *need_field;
	const char		*service;
	/* Images per post the builder uploads (at most CHANNEL_MAX_IMAGES);
	 * 0: it refuses images. */
	int			 max_images;

	/* Publishing (channel.h). call_name: the call's name ("composio/
	 * TOOL"; NULL: channel). key: the idempotency or record key of a
	 * ledger entry at its planned time. build: every request of the
	 * post into the call. send: sends them and reads the answer.
	 * upload_then: what the post waits for after its uploads, as a dry
	 * run says it (NULL: the upload's answer). */
	char		*(*call_name)(const struct front *);
	char		*(*key)(const char *entry_id, time_t at);
	int		 (*build)(struct channel_call *,
			    const struct channel_post *, time_t now,
			    struct error *);
	void		 (*send)(struct channel_call *, struct channel_result *);
	const char	*upload_then;

	/* `fronts history pull` (pull.h); NULL: the platform has no read
	 * API fronts uses (import its export instead). */
	int		 (*pull)(struct pull_session *, struct error *);

	/* `fronts check`: the read-only calls after the credential step.
	 * check_unset: they run without the credential too (Mastodon reads
	 * the instance's limits anonymously). */
	void		 (*check)(struct check_target *, const struct project *,
			    const struct front *);
	bool		 check_unset;

	const struct platform_composio	*composio;	/* NULL: direct */
};

/* What X's, LinkedIn's and Reddit's tables share: Composio's channel,
 * key and steps (channel_composio.c, check_composio.c). */
#define PLATFORM_COMPOSIO_STEPS						\
	.channel = "composio", .kind = CHANNEL_COMPOSIO,			\
	.secret_field = "api_key_env", .secret_default = "COMPOSIO_API_KEY",	\
	.need_block = "composio", .need_field = "tool",			\
	.service = "Composio", .call_name = channel_composio_name,		\
	.key = channel_composio_key, .build = channel_composio_open,		\
	.send = channel_composio_send, .check = check_composio

extern const struct platform_handler platform_x, platform_linkedin,
	    platform_reddit, platform_mastodon, platform_bluesky;

/* The table of a platform; NULL for one fronts has no channel to
 * (Threads). */
const struct platform_handler *platform_of(enum platform);
/* The front's platform's table, or NULL with err (EXIT_ERROR) naming
 * what keeps the front from publishing. */
const struct platform_handler *platform_front(const struct front *,
	    struct error *err);
/* The name of a front's call: "composio/TOOL", "mastodon", … (caller
 * frees). */
char	*platform_call_name(const struct platform_handler *,
	    const struct front *);
/* The variable the front's credential comes from. */
const char *platform_secret_var(const struct platform_handler *,
	    const struct front *);

#endif
