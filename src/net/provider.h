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

#include <stdbool.h>

#include <cjson/cJSON.h>

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

/* Provider-independent helpers, shared by the implementations. */
/* The environment variable holding the key for api, and its value (NULL
 * when unset or empty). */
const char	*provider_key_var(const char *api);
const char	*provider_key(const char *api);
/* The canonical request (new object) and its sha256. */
cJSON	*provider_canonical(const char *api, const struct llm_request *);
void	provider_hash(const cJSON *canonical, char out[65]);

/* One call to a real API, as its implementation describes it. */
struct provider_call {
	const char	*service;	/* "the Anthropic API" */
	const char	*url;
	const char	*key_header;
	const char	*key_value;
	const char	*extra_name;	/* or NULL */
	const char	*extra_value;
	const char	*model;		/* named when the API does not know it */
	int		 max_tokens;	/* named when the model allows fewer */
	char		*body;		/* owned by the answer afterwards */
	/* Parses a (non-streamed) answer body. */
	int	(*parse)(const char *, struct llm_answer *, struct error *);
	/* Turns a stream of events into that body (new string); returns
	 * LLM_STREAM_BROKEN when the stream broke off in a way worth asking
	 * again (cut short, or the server's own overload or internal
	 * error), -1 for any other bad stream. */
	int	(*unstream)(const char *, char **, struct error *);
};

#define LLM_STREAM_BROKEN	(-2)

/* POSTs the call's body with the key header, retrying as LLM calls may
 * (transport failures included), and parses a 2xx answer, streamed or
 * not. Fills wire_request/wire_response. */
int	provider_post(const struct provider_options *,
	    const struct provider_call *, struct llm_answer *, struct error *);
/* The messages as a JSON array of {role, content}; with system_role, the
 * system prompt leads as a message of that role (OpenAI's shape). */
cJSON	*provider_messages(const struct llm_request *, const char *system_role);
/* $var without a trailing slash, or dflt. Caller frees. */
char	*provider_base_url(const char *var, const char *dflt);

/* Server-sent events (provider_stream.c). */
struct llm_buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};
void	llm_buf_add(struct llm_buf *, const char *, size_t);
void	llm_buf_free(struct llm_buf *);

struct sse_event {
	char		*name;		/* "event:" or NULL */
	struct llm_buf	 data;		/* "data:" lines joined by '\n' */
};
/* Reads the next event at *cursor into ev (reused between calls).
 * Returns 1, or 0 at the end of the stream. */
int	sse_next(const char **cursor, struct sse_event *ev);
void	sse_event_free(struct sse_event *);

/* Implementations (provider_*.c). */
int	anthropic_complete(const struct provider_options *,
	    const struct llm_request *, struct llm_answer *, struct error *);
int	anthropic_parse(const char *body, struct llm_answer *, struct error *);
int	anthropic_unstream(const char *sse, char **body, struct error *);
int	openai_complete(const struct provider_options *,
	    const struct llm_request *, struct llm_answer *, struct error *);
int	openai_parse(const char *body, struct llm_answer *, struct error *);
int	openai_unstream(const char *sse, char **body, struct error *);
int	replay_complete(const struct provider_options *,
	    const struct llm_request *, struct llm_answer *, struct error *);
int	record_store(const struct provider_options *,
	    const struct llm_request *, const struct llm_answer *,
	    char **path, struct error *);

#endif
