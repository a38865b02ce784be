/*
 * http — the one libcurl wrapper every network caller uses: TLS
 * verification on, bounded connect and total timeouts, a response-size cap,
 * the server's request id kept for error messages, and never a key in any
 * message. Retries are the caller's choice (http_perform_retry is for
 * idempotent LLM calls only; publishing never retries).
 */
#ifndef FRONTS_HTTP_H
#define FRONTS_HTTP_H

#include <stdbool.h>
#include <stddef.h>

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
	size_t				 max_response;		/* 0: 8 MiB */
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
	char		*retry_after;	/* retry-after-ms or retry-after, raw */
	char		*content_type;
};

/* Performs one request. Returns 0 with a response (any status), or -1 with
 * err set (EXIT_NETWORK) and resp->phase saying how far it got. */
int	http_perform(const struct http_request *, struct http_response *,
	    struct error *err);
void	http_response_free(struct http_response *);
/* Prints METHOD URL, headers (secrets as ***) and body, for dry runs. */
char	*http_request_describe(const struct http_request *);

#endif
