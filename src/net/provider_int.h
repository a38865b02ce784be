/*
 * provider_int — what the provider implementations (provider_*.c) share
 * and nobody else needs: the canonical request, one HTTP call to a real
 * API with its retries, server-sent events, and each API's entry points.
 */
#ifndef FRONTS_PROVIDER_INT_H
#define FRONTS_PROVIDER_INT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "net/provider.h"

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
