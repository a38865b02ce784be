/*
 * check — `fronts check`'s findings: for the language-model provider and
 * for every front, which credential variable it reads and whether it is
 * set (never its value), and what one or more read-only calls showed,
 * each step passing or failing with what to do about it.
 *
 * Nothing here posts. The only thing written is the Mastodon limits cache
 * (instlimits.h), after the instance answered.
 */
#ifndef FRONTS_CHECK_H
#define FRONTS_CHECK_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "core/project.h"
#include "net/http.h"

struct check_step {
	char	*name;		/* "credential", "verify_credentials", … */
	bool	 ok;
	char	*detail;	/* what was found */
	char	*fix;		/* what to do; NULL when ok */
};

struct check_target {
	char			*id;		/* "provider" or the front's id */
	char			*what;		/* "anthropic", "mastodon", "composio/TOOL" */
	const char		*variable;	/* the credential's variable, or NULL */
	bool			 variable_set;
	struct check_step	*steps;
	int			 nsteps;
};

/* The provider's credential and its model list (provider_check.c). */
void	check_provider(const struct project *, struct check_target *out);
/* One front: its channel's credential and read-only calls
 * (check_social.c); Mastodon fronts refresh the limits cache. */
void	check_front(const struct project *, const struct front *,
	    struct check_target *out);
bool	check_target_ok(const struct check_target *);
cJSON	*check_target_json(const struct check_target *);
void	check_target_free(struct check_target *);

/* For the check_*.c files. */
void	check_target_init(struct check_target *, const char *id,
	    const char *what, const char *variable);
/* Adds a step; fix is NULL for a pass. The detail is formatted. */
void	check_add(struct check_target *, bool ok, const char *name,
	    const char *fix, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
/* Adds the "credential" step: fails, naming the variable, when unset. */
bool	check_credential(struct check_target *, const char *fix);
/* A read-only request: GET url (body NULL) or POST body, with headers
 * (secrets marked). 0 with a response of any status, -1 with err. */
int	check_request(const char *url, const char *body,
	    const struct http_header *, int nheaders, struct http_response *,
	    struct error *err);
/* The answer as JSON, or NULL. */
cJSON	*check_json(const struct http_response *);
/* Why a call failed, for a step's detail: the transport error or the
 * HTTP status and the error body's message (caller frees). */
char	*check_why(const struct http_response *, int rc, const struct error *);
/* s with every byte outside [A-Za-z0-9-._~] percent-encoded. */
char	*check_urlenc(const char *s);
/* Composio versions ("20251201_00") in order: by date, then number;
 * anything else sorts first. <0, 0, >0 like strcmp. */
int	check_composio_version_cmp(const char *a, const char *b);

#endif
