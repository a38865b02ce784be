/*
 * http — the one libcurl wrapper every network caller uses: TLS
 * verification on, bounded connect and total timeouts, a response-size cap,
 * the server's request id kept for error messages, and never a key in any
 * message. Retries are the caller's choice (http_perform_retry is for
 * idempotent LLM calls only; publishing never retries, and only a request
 * that sets retry_transport is retried after a transport failure).
 */
#ifndef FRONTS_HTTP_H
#define FRONTS_HTTP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/util.h"

struct http_header {
	const char	*name;
	const char	*value;
	bool		 secret;	/* shown as *** wherever it is printed */
};

struct http_request {
	const char			*method;	/* "POST" */
	const char			*url;
	const struct http_header	*headers;
	int				 nheaders;
	const char			*body;
	size_t				 body_len;
	long				 connect_timeout_ms;	/* 0: 10 s */
	long				 timeout_ms;		/* 0: 120 s */
	/* The longest silence (no byte received) before giving up;
	 * 0: none. */
	long				 idle_timeout_ms;
	size_t				 max_response;		/* 0: 8 MiB */
	/* May http_perform_retry repeat the request after a transport
	 * failure? Only for requests without side effects (LLM calls);
	 * publishing never sets it. */
	bool				 retry_transport;
	/* Set by another thread: the transfer stops at once, and no retry
	 * or backoff wait follows (a TUI that quits mid-answer). NULL:
	 * never. */
	const atomic_bool		*cancel;
};

/* How far a request got: publishing needs to tell "never reached the
 * server" (failed) from "may have reached it" (unknown). */
enum http_phase {
	HTTP_NOT_CONNECTED,	/* no connection: nothing was sent */
	HTTP_SENT,		/* connected and (part of) the request went out,
				   but no complete response came back */
	HTTP_RESPONDED		/* a complete response with a status */
};

struct http_response {
	enum http_phase	 phase;
	long		 status;
	char		*body;		/* NUL-terminated; owned */
	size_t		 len;
	char		*request_id;	/* request-id / x-request-id, or NULL */
	char		*retry_after;	/* retry-after, raw */
	char		*retry_after_ms;	/* retry-after-ms, raw */
	char		*content_type;
	/* The read APIs' quota: x-ratelimit-* (Mastodon: reset is an ISO
	 * time) or ratelimit-* (Bluesky: reset in epoch seconds), raw. */
	char		*ratelimit_remaining;
	char		*ratelimit_reset;
	int		 should_retry;	/* x-should-retry: 1 true, 0 false,
					   -1 absent */
	bool		 hopeless;	/* asking again cannot help: cut at
					   max_response, or libcurl refused
					   the request */
	int		 tries;		/* attempts made (http_perform_retry) */
	double		 seconds;	/* wall time over all attempts */
};

/* How http_perform_retry retries an idempotent LLM call. Every wait is
 * multiplied by scale, so tests can run the real schedule in milliseconds. */
struct http_retry {
	const char	*service;	/* "the Anthropic API": names the peer in errors */
	int		 max_tries;	/* 0: 4 */
	long		 base_ms;	/* first backoff; 0: 1000 (then doubling) */
	long		 max_wait_ms;	/* cap on one wait, retry-after included;
					   0: 60000. A longer retry-after gives up. */
	double		 scale;		/* multiplies every wait; 0: 1 */
	unsigned	 seed;		/* jitter seed; 0: from the clock */
};

/* Performs one request. Returns 0 with a response (any status), or -1 with
 * err set (EXIT_NETWORK) and resp->phase saying how far it got. */
int	http_perform(const struct http_request *, struct http_response *,
	    struct error *err);
void	http_response_free(struct http_response *);
/* Performs an idempotent request, retrying 408, 409, 429 (unless the quota
 * or spend limit is exhausted), 5xx and 529 with exponential backoff and
 * jitter, honouring retry-after-ms / retry-after. x-should-retry overrides
 * the status: "true" retries any error, "false" none. A transport failure
 * (no complete response) is retried only when req->retry_transport is set,
 * and never when the response outgrew max_response. Returns 0 only with a 2xx
 * response; otherwise -1 with err (EXIT_NETWORK) worded for the operator,
 * naming the request id, and resp holding the last response (free it
 * either way). */
int	http_perform_retry(const struct http_request *, const struct http_retry *,
	    struct http_response *, struct error *err);
/* Sleeps the wait before try attempt + 1 of pol's schedule (backoff with
 * jitter, capped, scaled), for callers that retry for reasons of their
 * own. */
void	http_retry_pause(const struct http_retry *, int attempt);
/* Milliseconds a retry-after-ms or retry-after value asks for (seconds or
 * an HTTP date, relative to now), at most HTTP_RETRY_AFTER_MAX_MS (about
 * 3,000 years: a wait that long is a refusal, and is reported as one);
 * -1 when absent or unparsable. */
#define HTTP_RETRY_AFTER_MAX_MS	100000000000000L
long	http_retry_after_ms(const char *retry_after_ms, const char *retry_after,
	    time_t now);
/* Does an error body (Anthropic or OpenAI shape) say the quota, credit or
 * spend limit is exhausted? Such a 429 is not worth retrying. */
bool	http_quota_exhausted(const char *body);
/* The error message inside an Anthropic/OpenAI error body, or NULL. */
char	*http_api_message(const char *body);
/* Replaces every secret header value of the request (and the token of
 * "Bearer TOKEN") in msg with ***, so no key can leave through an error
 * that echoes what the server said. */
void	http_redact(const struct http_request *, char *msg, size_t size);
/* Prints METHOD URL, headers (secrets as ***) and body, for dry runs. */
char	*http_request_describe(const struct http_request *);

/* Sleeps ms milliseconds (nothing for ms <= 0), across signals. */
void	http_sleep_ms(double ms);
/* Was req stopped through its cancel flag? */
bool	http_cancelled(const struct http_request *);

#endif
