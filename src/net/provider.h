/*
 * provider — one conversation turn with a language model, whatever answers
 * it: the Anthropic Messages API, OpenAI Chat Completions, or recordings
 * of earlier exchanges (replay). --record wraps a real provider and stores
 * each exchange it makes.
 *
 * Every request also has a canonical form (provider, model, max_tokens,
 * system, messages) whose sha256 names its recording, so replay finds the
 * answer to exactly this request and nothing else.
 *
 * Both real APIs are asked to stream (server-sent events): a long answer
 * then never sits silent on the connection, and the timeout that matters
 * is the longest silence, not the length of the answer.
 */
#ifndef FRONTS_PROVIDER_H
#define FRONTS_PROVIDER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/util.h"

struct llm_message {
	const char	*role;		/* "user" or "assistant" */
	const char	*content;
};

struct llm_request {
	const char			*model;
	const char			*system;
	const struct llm_message	*messages;
	int				 nmessages;
	int				 max_tokens;
};

struct llm_answer {
	char	*text;			/* the answer's text, all blocks joined */
	char	*stop_reason;		/* as the API said it */
	char	*stop_details;		/* a refusal's category and
					   explanation, when given */
	bool	 truncated;		/* stopped at max_tokens / length */
	long	 input_tokens;
	long	 output_tokens;
	char	*request_id;		/* NULL for replay */
	char	*recording;		/* replay: the file that answered */
	int	 tries;			/* HTTP attempts (retries included) */
	char	*wire_request;		/* the body sent (for --record) */
	char	*wire_response;		/* the body received (for --record) */
};

enum provider_kind { PROVIDER_ANTHROPIC, PROVIDER_OPENAI, PROVIDER_REPLAY };

struct provider_options {
	const char	*name;		/* "anthropic", "openai", "replay" */
	const char	*api;		/* replay: whose requests to match;
					   "anthropic" when NULL */
	const char	*model;
	long		 timeout_ms;	/* longest silence while the answer
					   streams in; 0: 300 s */
	double		 retry_scale;	/* multiplies backoff waits; 0: 1 */
	bool		 record;	/* store every exchange in record_dir */
	const char	*record_dir;
	const char	*const *replay_dirs;	/* NULL-terminated search list */
	/* Set by another thread: a request under way stops (http.h). */
	const atomic_bool *cancel;
};

struct provider;

/* The model used when neither fronts.json nor --llm-model names one: the
 * provider's current recommendation, kept here and nowhere else. */
const char	*provider_default_model(const char *api);
/* Creates a provider. A real one needs its key in the environment
 * (ANTHROPIC_API_KEY / OPENAI_API_KEY): a missing key is an error naming
 * the variable. */
int	provider_open(const struct provider_options *, struct provider **out,
	    struct error *err);
void	provider_close(struct provider *);
const char	*provider_name(const struct provider *);
const char	*provider_model(const struct provider *);
/* The API the requests are shaped for ("anthropic" or "openai"). */
const char	*provider_api(const struct provider *);
/* One turn. An answer that did not end by itself (max_tokens, a refusal,
 * a full context window, a paused turn, a content filter) is an error
 * (EXIT_NETWORK) saying which. */
int	provider_complete(struct provider *, const struct llm_request *,
	    struct llm_answer *, struct error *err);
void	llm_answer_free(struct llm_answer *);

/* The environment variable holding the key for api, and its value (NULL
 * when unset or empty). */
const char	*provider_key_var(const char *api);
const char	*provider_key(const char *api);
#endif
