/*
 * check — what every `fronts check` finding shares (see check.h): steps,
 * the credential step, read-only requests and their answers, and the JSON
 * form of a target.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/timeutil.h"
#include "net/channel.h"
#include "net/check_int.h"


void
check_target_init(struct check_target *t, const char *id, const char *what,
    const char *variable)
{
	const char *v = variable != NULL ? getenv(variable) : NULL;

	memset(t, 0, sizeof *t);
	t->id = xstrdup(id);
	t->what = xstrdup(what);
	t->variable = variable;
	t->variable_set = v != NULL && v[0] != '\0';
}

void
check_add(struct check_target *t, bool ok, const char *name, const char *fix,
    const char *fmt, ...)
{
	struct check_step *s;
	va_list ap;

	t->steps = xrealloc(t->steps, (t->nsteps + 1) * sizeof *t->steps);
	s = &t->steps[t->nsteps++];
	s->name = xstrdup(name);
	s->ok = ok;
	s->fix = fix != NULL ? xstrdup(fix) : NULL;
	va_start(ap, fmt);
	if (vasprintf(&s->detail, fmt, ap) < 0)
		abort();
	va_end(ap);
}

bool
check_credential(struct check_target *t, const char *fix)
{
	if (t->variable_set)
		check_add(t, true, "credential", NULL, "%s is set",
		    t->variable);
	else
		check_add(t, false, "credential", fix, "%s is not set",
		    t->variable);
	return t->variable_set;
}

bool
check_target_ok(const struct check_target *t)
{
	int i;

	for (i = 0; i < t->nsteps; i++)
		if (!t->steps[i].ok)
			return false;
	return true;
}

cJSON *
check_target_json(const struct check_target *t)
{
	cJSON *o = cJSON_CreateObject(), *a, *s, *c;
	int i;

	cJSON_AddStringToObject(o, "id", t->id);
	cJSON_AddStringToObject(o, "channel", t->what);
	cJSON_AddBoolToObject(o, "ok", check_target_ok(t));
	if (t->variable != NULL) {
		c = cJSON_AddObjectToObject(o, "credential");
		cJSON_AddStringToObject(c, "variable", t->variable);
		cJSON_AddBoolToObject(c, "set", t->variable_set);
	}
	a = cJSON_AddArrayToObject(o, "checks");
	for (i = 0; i < t->nsteps; i++) {
		s = cJSON_CreateObject();
		cJSON_AddStringToObject(s, "name", t->steps[i].name);
		cJSON_AddBoolToObject(s, "ok", t->steps[i].ok);
		cJSON_AddStringToObject(s, "detail", t->steps[i].detail);
		if (t->steps[i].fix != NULL)
			cJSON_AddStringToObject(s, "fix", t->steps[i].fix);
		cJSON_AddItemToArray(a, s);
	}
	return o;
}

void
check_target_free(struct check_target *t)
{
	int i;

	for (i = 0; i < t->nsteps; i++) {
		free(t->steps[i].name);
		free(t->steps[i].detail);
		free(t->steps[i].fix);
	}
	free(t->steps);
	free(t->id);
	free(t->what);
	memset(t, 0, sizeof *t);
}

int
check_request(const char *url, const char *body, const struct http_header *h,
    int nh, struct http_response *resp, struct error *err)
{
	struct http_request q;

	memset(&q, 0, sizeof q);
	q.method = body != NULL ? "POST" : "GET";
	q.url = url;
	q.headers = h;
	q.nheaders = nh;
	q.body = body;
	q.body_len = body != NULL ? strlen(body) : 0;
	q.connect_timeout_ms = CHECK_CONNECT_MS;
	q.timeout_ms = CHECK_TIMEOUT_MS;
	q.max_response = 4 << 20;
	return http_perform(&q, resp, err);
}

cJSON *
check_json(const struct http_response *r)
{
	return r->body != NULL ? cJSON_ParseWithLength(r->body, r->len) : NULL;
}

char *
check_why(const struct http_response *r, int rc, const struct error *err)
{
	char *t, *out, until[40];
	time_t now = clock_now();
	long wait;

	if (rc != 0)
		return xstrdup(err->msg);
	t = channel_error_text(r);
	/* A rate limit says until when, however far off: a wait of 10^9 s
	 * is the service's answer, not noise. */
	wait = r->status == 429 || r->status == 503 ? http_retry_after_ms(
	    r->retry_after_ms, r->retry_after, now) : -1;
	if (wait >= 0) {
		time_format_utc(now + (time_t)(wait / 1000), until,
		    sizeof until);
		xasprintf(&out, "HTTP %ld: %s; rate limited until %s", r->status,
		    t, until);
	} else
		xasprintf(&out, "HTTP %ld: %s", r->status, t);
	free(t);
	return out;
}

char *
check_urlenc(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = xmalloc(strlen(s) * 3 + 1), *o = out;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p) != NULL)
			*o++ = (char)*p;
		else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}
