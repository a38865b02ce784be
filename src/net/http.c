/*
 * http — the libcurl wrapper behind every network call (see http.h).
 *
 * One easy handle per request: requests are rare (a synthesis round, one
 * post) so connection reuse buys nothing, and a fresh handle can carry no
 * state from a previous call. A debug callback tells whether any of the
 * request left this machine, which publishing needs to tell a failed post
 * from one that may have gone out.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "core/clock.h"
#include "net/http.h"

#define HTTP_CONNECT_MS		10000L
#define HTTP_TIMEOUT_MS		120000L
#define HTTP_MAX_RESPONSE	(8u << 20)

#define RETRY_TRIES		4
#define RETRY_BASE_MS		1000L
#define RETRY_MAX_WAIT_MS	60000L

struct http_xfer {
	struct http_response	*resp;
	size_t			 cap;		/* bytes allocated for body */
	size_t			 max;
	bool			 overflow;
	bool			 sent;
	double			 idle;		/* seconds; 0: no idle limit */
	double			 last_rx;	/* when a byte last arrived */
	bool			 idled;		/* aborted for silence */
	const atomic_bool	*cancel;
	bool			 cancelled;	/* aborted through cancel */
};

static pthread_once_t http_once = PTHREAD_ONCE_INIT;
static CURLcode http_init_rc;

static void
http_global_init(void)
{
	http_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

static size_t
http_write_cb(char *data, size_t size, size_t n, void *arg)
{
	struct http_xfer *x = arg;
	struct http_response *r = x->resp;
	size_t len = size * n;

	x->last_rx = clock_seconds();
	if (r->len + len > x->max) {
		x->overflow = true;
		return 0;
	}
	if (r->len + len + 1 > x->cap) {
		x->cap = (r->len + len + 1) * 2;
		if (x->cap > x->max + 1)
			x->cap = x->max + 1;
		r->body = xrealloc(r->body, x->cap);
	}
	memcpy(r->body + r->len, data, len);
	r->len += len;
	r->body[r->len] = '\0';
	return len;
}

static void
http_set_field(char **field, const char *value, size_t len)
{
	free(*field);
	*field = xstrndup(value, len);
}

/* Forgets the headers kept of a response (a new status line, or the
 * response freed). */
static void
http_headers_free(struct http_response *r)
{
	free(r->request_id);
	free(r->retry_after);
	free(r->retry_after_ms);
	free(r->content_type);
	free(r->ratelimit_remaining);
	free(r->ratelimit_reset);
	r->request_id = r->retry_after = r->retry_after_ms = NULL;
	r->content_type = NULL;
	r->ratelimit_remaining = r->ratelimit_reset = NULL;
}

/* Keeps the few response headers callers need; a new status line (after
 * a 100 Continue, say) starts afresh. */
static size_t
http_header_cb(char *data, size_t size, size_t n, void *arg)
{
	struct http_xfer *x = arg;
	struct http_response *r = x->resp;
	size_t len = size * n, nlen, vlen;
	const char *colon, *v;

	x->last_rx = clock_seconds();
	if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		http_headers_free(r);
		r->should_retry = -1;
		return len;
	}
	if ((colon = memchr(data, ':', len)) == NULL)
		return len;
	nlen = (size_t)(colon - data);
	v = colon + 1;
	vlen = len - nlen - 1;
	while (vlen > 0 && (*v == ' ' || *v == '\t')) {
		v++;
		vlen--;
	}
	while (vlen > 0 && isspace((unsigned char)v[vlen - 1]))
		vlen--;
#define HDR_IS(name) (nlen == sizeof(name) - 1 && \
	strncasecmp(data, name, nlen) == 0)
	if (HDR_IS("request-id") || (HDR_IS("x-request-id") &&
	    r->request_id == NULL))
		http_set_field(&r->request_id, v, vlen);
	else if (HDR_IS("retry-after"))
		http_set_field(&r->retry_after, v, vlen);
	else if (HDR_IS("retry-after-ms"))
		http_set_field(&r->retry_after_ms, v, vlen);
	else if (HDR_IS("content-type"))
		http_set_field(&r->content_type, v, vlen);
	else if (HDR_IS("x-ratelimit-remaining") || HDR_IS("ratelimit-remaining"))
		http_set_field(&r->ratelimit_remaining, v, vlen);
	else if (HDR_IS("x-ratelimit-reset") || HDR_IS("ratelimit-reset"))
		http_set_field(&r->ratelimit_reset, v, vlen);
	else if (HDR_IS("x-should-retry"))
		r->should_retry = vlen == 4 && strncasecmp(v, "true", 4) == 0 ?
		    1 : vlen == 5 && strncasecmp(v, "false", 5) == 0 ? 0 : -1;
#undef HDR_IS
	return len;
}

static int
http_debug_cb(CURL *h, curl_infotype type, char *data, size_t size, void *arg)
{
	struct http_xfer *x = arg;

	/* Only the fact matters; the data (headers with keys) is never kept. */
	if (type == CURLINFO_HEADER_OUT || type == CURLINFO_DATA_OUT)
		x->sent = true;
	return 0;
}

/* Ends a transfer that has received nothing for longer than the idle
 * limit. libcurl calls this at least about once a second, so the limit
 * holds to within a second. */
static int
http_xferinfo_cb(void *arg, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	struct http_xfer *x = arg;

	if (x->cancel != NULL && atomic_load(x->cancel)) {
		x->cancelled = true;
		return 1;
	}
	if (x->idle > 0 && clock_seconds() - x->last_rx > x->idle) {
		x->idled = true;
		return 1;
	}
	return 0;
}

static char *
http_host(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL, *out;

	if (u != NULL && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		out = xstrdup(host);
		curl_free(host);
	} else
		out = xstrdup(url);
	curl_url_cleanup(u);
	return out;
}

void
http_redact(const struct http_request *req, char *msg, size_t size)
{
	const char *secret, *sp;
	char *p, *tmp;
	size_t slen;
	int i, pass;

	for (i = 0; i < req->nheaders; i++) {
		if (!req->headers[i].secret || req->headers[i].value == NULL)
			continue;
		for (pass = 0; pass < 2; pass++) {
			secret = req->headers[i].value;
			if (pass == 1) {
				if ((sp = strrchr(secret, ' ')) == NULL)
					break;
				secret = sp + 1;
			}
			if ((slen = strlen(secret)) < 4)
				continue;
			while ((p = strstr(msg, secret)) != NULL) {
				xasprintf(&tmp, "%.*s***%s", (int)(p - msg), msg,
				    p + slen);
				snprintf(msg, size, "%s", tmp);
				free(tmp);
			}
		}
	}
}

static struct curl_slist *
http_headers(const struct http_request *req)
{
	struct curl_slist *list = NULL, *next;
	char *line;
	int i;

	for (i = 0; i < req->nheaders; i++) {
		xasprintf(&line, "%s: %s", req->headers[i].name,
		    req->headers[i].value);
		next = curl_slist_append(list, line);
		free(line);
		if (next == NULL)
			abort();
		list = next;
	}
	/* No 100-continue round trip: bodies are small. */
	if ((next = curl_slist_append(list, "Expect:")) == NULL)
		abort();
	return next;
}

static int
http_opt_error(const char *name, CURLcode rc, struct error *err)
{
	return error_set(err, EXIT_NETWORK, "libcurl refused option %s (%s); "
	    "nothing was sent", name, curl_easy_strerror(rc));
}

/* Sets one option, or returns the error naming it. */
#define HTTP_OPT(h, opt, val) do {					\
	CURLcode opt_rc_ = curl_easy_setopt((h), (opt), (val));		\
	if (opt_rc_ != CURLE_OK)					\
		return http_opt_error(#opt, opt_rc_, err);		\
} while (0)

static int
http_setopts_body(CURL *h, const struct http_request *req, struct error *err)
{
	if (req->method == NULL || strcmp(req->method, "POST") == 0) {
		HTTP_OPT(h, CURLOPT_POST, 1L);
		HTTP_OPT(h, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)(req->body != NULL ? req->body_len : 0));
		HTTP_OPT(h, CURLOPT_POSTFIELDS,
		    req->body != NULL ? req->body : "");
	} else if (strcmp(req->method, "GET") == 0)
		HTTP_OPT(h, CURLOPT_HTTPGET, 1L);
	else {
		HTTP_OPT(h, CURLOPT_CUSTOMREQUEST, req->method);
		if (req->body != NULL) {
			HTTP_OPT(h, CURLOPT_POSTFIELDSIZE_LARGE,
			    (curl_off_t)req->body_len);
			HTTP_OPT(h, CURLOPT_POSTFIELDS, req->body);
		}
	}
	return 0;
}

static int
http_setopts(CURL *h, const struct http_request *req, struct curl_slist *hdrs,
    struct http_xfer *x, char *errbuf, struct error *err)
{
	HTTP_OPT(h, CURLOPT_URL, req->url);
	HTTP_OPT(h, CURLOPT_PROTOCOLS_STR, "http,https");
	HTTP_OPT(h, CURLOPT_SSL_VERIFYPEER, 1L);
	HTTP_OPT(h, CURLOPT_SSL_VERIFYHOST, 2L);
	HTTP_OPT(h, CURLOPT_NOSIGNAL, 1L);
	/* Never a second request on the server's word: a redirect to a
	 * publishing request may come after the post was made. */
	HTTP_OPT(h, CURLOPT_FOLLOWLOCATION, 0L);
	HTTP_OPT(h, CURLOPT_CONNECTTIMEOUT_MS, req->connect_timeout_ms > 0 ?
	    req->connect_timeout_ms : HTTP_CONNECT_MS);
	HTTP_OPT(h, CURLOPT_TIMEOUT_MS, req->timeout_ms > 0 ?
	    req->timeout_ms : HTTP_TIMEOUT_MS);
	HTTP_OPT(h, CURLOPT_HTTPHEADER, hdrs);
	HTTP_OPT(h, CURLOPT_USERAGENT, "fronts/" FRONTS_VERSION);
	HTTP_OPT(h, CURLOPT_WRITEFUNCTION, http_write_cb);
	HTTP_OPT(h, CURLOPT_WRITEDATA, x);
	HTTP_OPT(h, CURLOPT_HEADERFUNCTION, http_header_cb);
	HTTP_OPT(h, CURLOPT_HEADERDATA, x);
	HTTP_OPT(h, CURLOPT_DEBUGFUNCTION, http_debug_cb);
	HTTP_OPT(h, CURLOPT_DEBUGDATA, x);
	HTTP_OPT(h, CURLOPT_VERBOSE, 1L);
	HTTP_OPT(h, CURLOPT_ERRORBUFFER, errbuf);
	HTTP_OPT(h, CURLOPT_XFERINFOFUNCTION, http_xferinfo_cb);
	HTTP_OPT(h, CURLOPT_XFERINFODATA, x);
	HTTP_OPT(h, CURLOPT_NOPROGRESS, 0L);
	return http_setopts_body(h, req, err);
}

#undef HTTP_OPT

static void
http_transport_error(const struct http_request *req, CURLcode res,
    const struct http_xfer *x, const char *errbuf, struct error *err)
{
	struct http_response *r = x->resp;
	char *host = http_host(req->url), rid[160] = "";
	long ms = req->timeout_ms > 0 ? req->timeout_ms : HTTP_TIMEOUT_MS;
	const char *why = errbuf[0] != '\0' ? errbuf : curl_easy_strerror(res);

	if (r->request_id != NULL)
		snprintf(rid, sizeof rid, " (request id %s)", r->request_id);
	if (x->cancelled)
		error_set(err, EXIT_ERROR, "the request to %s was stopped",
		    host);
	else if (x->overflow)
		error_set(err, EXIT_NETWORK, "the response from %s exceeds "
		    "the %zu-byte limit%s", host, x->max, rid);
	else if (x->idled)
		error_set(err, EXIT_NETWORK, "%s sent nothing for %.1f s "
		    "(timed out)%s", host, x->idle, rid);
	else if (res == CURLE_OPERATION_TIMEDOUT && !x->sent)
		error_set(err, EXIT_NETWORK, "cannot reach %s: timed out "
		    "connecting", host);
	else if (res == CURLE_OPERATION_TIMEDOUT)
		error_set(err, EXIT_NETWORK, "%s did not answer within %.1f s "
		    "(timed out)%s", host, ms / 1000.0, rid);
	else if (!x->sent)
		error_set(err, EXIT_NETWORK, "cannot reach %s: %s", host, why);
	else if (r->status > 0)
		error_set(err, EXIT_NETWORK, "the response from %s was cut "
		    "short (HTTP %ld, %zu bytes received): %s%s", host,
		    r->status, r->len, why, rid);
	else
		error_set(err, EXIT_NETWORK, "the connection to %s broke after "
		    "the request was sent: %s", host, why);
	free(host);
}

int
http_perform(const struct http_request *req, struct http_response *resp,
    struct error *err)
{
	struct http_xfer x;
	struct curl_slist *hdrs;
	char errbuf[CURL_ERROR_SIZE] = "";
	double t0 = clock_seconds();
	CURLcode res;
	CURL *h;

	pthread_once(&http_once, http_global_init);
	memset(resp, 0, sizeof *resp);
	resp->tries = 1;
	resp->should_retry = -1;
	memset(&x, 0, sizeof x);
	x.resp = resp;
	x.max = req->max_response > 0 ? req->max_response : HTTP_MAX_RESPONSE;
	x.idle = req->idle_timeout_ms > 0 ? req->idle_timeout_ms / 1000.0 : 0;
	x.last_rx = t0;
	x.cancel = req->cancel;
	resp->body = xstrdup("");
	x.cap = 1;
	if (http_init_rc != CURLE_OK)
		return error_set(err, EXIT_NETWORK, "cannot initialise libcurl "
		    "(%s)", curl_easy_strerror(http_init_rc));
	if ((h = curl_easy_init()) == NULL)
		return error_set(err, EXIT_NETWORK, "cannot start libcurl");
	hdrs = http_headers(req);
	if (http_setopts(h, req, hdrs, &x, errbuf, err) != 0) {
		curl_easy_cleanup(h);
		curl_slist_free_all(hdrs);
		resp->hopeless = true;
		return -1;
	}
	res = curl_easy_perform(h);
	if (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &resp->status) !=
	    CURLE_OK)
		resp->status = 0;
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	resp->seconds = clock_seconds() - t0;
	resp->hopeless = x.overflow || x.cancelled;
	if (res == CURLE_OK && resp->status > 0) {
		resp->phase = HTTP_RESPONDED;
		return 0;
	}
	resp->phase = x.sent ? HTTP_SENT : HTTP_NOT_CONNECTED;
	http_transport_error(req, res, &x, errbuf, err);
	if (err != NULL)
		http_redact(req, err->msg, sizeof err->msg);
	return -1;
}

void
http_response_free(struct http_response *r)
{
	if (r == NULL)
		return;
	free(r->body);
	http_headers_free(r);
	memset(r, 0, sizeof *r);
}

/*
 * An HTTP date in its one current form (RFC 9110 IMF-fixdate, "Wed, 21
 * Oct 2026 07:28:00 GMT"), or -1. Read by hand rather than by strptime,
 * whose day and month names follow LC_TIME: the TUI sets the locale from
 * the environment, and there "Oct" need not be a month.
 */
static time_t
http_date_parse(const char *s)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	static const char days[] = "MonTueWedThuFriSatSun";
	char wd[4], mon[4];
	const char *m;
	struct tm tm;
	int n = -1;

	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%3[A-Za-z], %2d %3[A-Za-z] %4d %2d:%2d:%2d GMT%n",
	    wd, &tm.tm_mday, mon, &tm.tm_year, &tm.tm_hour, &tm.tm_min,
	    &tm.tm_sec, &n) != 7 || n < 0 || s[n] != '\0')
		return (time_t)-1;
	if (strlen(wd) != 3 || strstr(days, wd) == NULL ||
	    (strstr(days, wd) - days) % 3 != 0 || strlen(mon) != 3 ||
	    (m = strstr(months, mon)) == NULL || (m - months) % 3 != 0)
		return (time_t)-1;
	if (tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_year < 1970 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60 ||
	    tm.tm_hour < 0 || tm.tm_min < 0 || tm.tm_sec < 0)
		return (time_t)-1;
	tm.tm_mon = (int)(m - months) / 3;
	tm.tm_year -= 1900;
	return timegm(&tm);
}

long
http_retry_after_ms(const char *ms, const char *after, time_t now)
{
	char *end;
	double v;
	time_t t;

	/* A huge wait is a wait, not noise: kept (up to the cap) so the
	 * caller gives up and says until when, rather than retrying. */
	if (ms != NULL && *ms != '\0') {
		v = strtod(ms, &end);
		if (end != ms && *end == '\0' && v >= 0)
			return v < HTTP_RETRY_AFTER_MAX_MS ? (long)v :
			    HTTP_RETRY_AFTER_MAX_MS;
	}
	if (after == NULL || *after == '\0')
		return -1;
	if (strspn(after, "0123456789") == strlen(after)) {
		v = strtod(after, &end);
		return v * 1000 < HTTP_RETRY_AFTER_MAX_MS ? (long)(v * 1000) :
		    HTTP_RETRY_AFTER_MAX_MS;
	}
	errno = 0;
	v = strtod(after, &end);
	if (errno == 0 && end != after && *end == '\0' && v >= 0 && v < 1e7)
		return (long)(v * 1000);
	if ((t = http_date_parse(after)) == (time_t)-1)
		return -1;
	if (t <= now)
		return 0;
	return (double)(t - now) * 1000 < HTTP_RETRY_AFTER_MAX_MS ?
	    (long)(t - now) * 1000 : HTTP_RETRY_AFTER_MAX_MS;
}

static const cJSON *
http_error_object(const cJSON *root)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");

	return cJSON_IsObject(e) ? e : NULL;
}

char *
http_api_message(const char *body)
{
	cJSON *root;
	const cJSON *e, *m;
	char *out = NULL;

	if (body == NULL || (root = cJSON_Parse(body)) == NULL)
		return NULL;
	e = http_error_object(root);
	m = e != NULL ? cJSON_GetObjectItemCaseSensitive(e, "message") :
	    cJSON_GetObjectItemCaseSensitive(root, "message");
	if (cJSON_IsString(m) && m->valuestring[0] != '\0')
		out = xstrndup(m->valuestring, 300);
	cJSON_Delete(root);
	return out;
}

static bool
http_mentions(const char *text, const char *const *words)
{
	char *low;
	size_t i;
	bool hit = false;

	if (text == NULL)
		return false;
	low = xstrdup(text);
	for (i = 0; low[i] != '\0'; i++)
		low[i] = (char)tolower((unsigned char)low[i]);
	for (; *words != NULL && !hit; words++)
		hit = strstr(low, *words) != NULL;
	free(low);
	return hit;
}

bool
http_quota_exhausted(const char *body)
{
	static const char *const codes[] = { "insufficient_quota",
	    "billing", "quota", NULL };
	static const char *const words[] = { "quota", "credit", "spend limit",
	    "spending limit", "usage limit", "billing", NULL };
	cJSON *root;
	const cJSON *e, *f;
	bool hit = false;

	if (body == NULL || (root = cJSON_Parse(body)) == NULL)
		return false;
	if ((e = http_error_object(root)) != NULL) {
		f = cJSON_GetObjectItemCaseSensitive(e, "type");
		hit = cJSON_IsString(f) && http_mentions(f->valuestring, codes);
		f = cJSON_GetObjectItemCaseSensitive(e, "code");
		hit = hit || (cJSON_IsString(f) &&
		    http_mentions(f->valuestring, codes));
		f = cJSON_GetObjectItemCaseSensitive(e, "message");
		hit = hit || (cJSON_IsString(f) &&
		    http_mentions(f->valuestring, words));
	}
	cJSON_Delete(root);
	return hit;
}

static bool
http_retryable(long status)
{
	return status == 408 || status == 409 || status == 429 ||
	    (status >= 500 && status <= 599);
}

/* What a status means, in the operator's words. */
static const char *
http_status_words(long status)
{
	switch (status) {
	case 400: return "rejected the request as malformed (400)";
	case 401: return "rejected the key (401)";
	case 403: return "refused access with this key (403)";
	case 404: return "has no such endpoint or model (404)";
	case 408: return "timed out waiting for the request (408)";
	case 409: return "reported a conflict (409)";
	case 413: return "found the request too large (413)";
	case 429: return "rate limited the request (429)";
	case 529: return "is overloaded (529)";
	default: return NULL;
	}
}

static void
http_status_error(const struct http_retry *pol, const struct http_response *r,
    const char *what, struct error *err)
{
	const char *svc = pol->service != NULL ? pol->service : "the server";
	const char *words = http_status_words(r->status);
	char *api = http_api_message(r->body), status[96], rid[160] = "";

	if (words == NULL)
		snprintf(status, sizeof status, "%s (%ld)", r->status >= 500 ?
		    "failed with a server error" : "answered with an error",
		    r->status);
	else
		snprintf(status, sizeof status, "%s", words);
	if (r->request_id != NULL)
		snprintf(rid, sizeof rid, " [request id %s]", r->request_id);
	error_set(err, EXIT_NETWORK, "%s %s%s%s%s", svc, status,
	    what != NULL ? "; " : "", what != NULL ? what : "", rid);
	if (api != NULL && err != NULL) {
		size_t n = strlen(err->msg);
		snprintf(err->msg + n, sizeof err->msg - n, ": %s", api);
	}
	free(api);
}

void
http_sleep_ms(double ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000) * 1e6);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

bool
http_cancelled(const struct http_request *req)
{
	return req->cancel != NULL && atomic_load(req->cancel);
}

/* A retry's wait, cut short by req's cancel flag (the next try then
 * stops at once). */
static void
http_wait_ms(const struct http_request *req, double ms)
{
	double slice;

	while (ms > 0 && !http_cancelled(req)) {
		slice = req->cancel != NULL && ms > 100 ? 100 : ms;
		http_sleep_ms(slice);
		ms -= slice;
	}
}

/* Exponential backoff with "equal jitter": half fixed, half random. */
static long
http_backoff_ms(const struct http_retry *pol, int attempt, unsigned *seed)
{
	long base = pol->base_ms > 0 ? pol->base_ms : RETRY_BASE_MS;
	long d = base << (attempt > 10 ? 10 : attempt - 1);

	return d / 2 + (long)(rand_r(seed) % (unsigned)(d / 2 + 1));
}

/* Appends "; gave up after N tries over S s" to a transport error. */
static void
http_gave_up(struct error *err, int t, double t0)
{
	size_t n;

	if (err == NULL || t < 2)
		return;
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof err->msg - n, "; gave up after %d tries "
	    "over %.0f s", t, clock_seconds() - t0);
}

/* Decides whether an error status is worth another try, and words the
 * error when it is not. Returns true to retry. */
static bool
http_status_retry(const struct http_retry *pol, const struct http_response *r,
    struct error *err)
{
	if (r->should_retry == 1)
		return true;
	if (r->status == 429 && http_quota_exhausted(r->body)) {
		http_status_error(pol, r, "the quota or spend limit is "
		    "exhausted, not retrying", err);
		return false;
	}
	if (r->should_retry == 0) {
		http_status_error(pol, r, "it answered x-should-retry: false, "
		    "so not retrying", err);
		return false;
	}
	if (!http_retryable(r->status)) {
		http_status_error(pol, r, NULL, err);
		return false;
	}
	return true;
}

void
http_retry_pause(const struct http_retry *pol, int attempt)
{
	long cap = pol->max_wait_ms > 0 ? pol->max_wait_ms : RETRY_MAX_WAIT_MS;
	double scale = pol->scale > 0 ? pol->scale : 1.0;
	unsigned seed = pol->seed != 0 ? pol->seed + (unsigned)attempt :
	    (unsigned)(clock_seconds() * 1e6);
	long wait = http_backoff_ms(pol, attempt, &seed);

	http_sleep_ms((double)(wait > cap ? cap : wait) * scale);
}

int
http_perform_retry(const struct http_request *req, const struct http_retry *pol,
    struct http_response *resp, struct error *err)
{
	int tries = pol->max_tries > 0 ? pol->max_tries : RETRY_TRIES, t;
	long cap = pol->max_wait_ms > 0 ? pol->max_wait_ms : RETRY_MAX_WAIT_MS;
	double scale = pol->scale > 0 ? pol->scale : 1.0, t0 = clock_seconds();
	unsigned seed = pol->seed != 0 ? pol->seed :
	    (unsigned)(t0 * 1e6);
	char what[160];
	long wait;

	memset(resp, 0, sizeof *resp);
	for (t = 1;; t++) {
		http_response_free(resp);
		if (http_perform(req, resp, err) != 0) {
			/* A broken transfer of a request without side
			 * effects is worth repeating; an oversized answer
			 * or a refused option would only recur. */
			if (!req->retry_transport || resp->hopeless ||
			    t >= tries) {
				http_gave_up(err, t, t0);
				break;
			}
			wait = http_backoff_ms(pol, t, &seed);
			http_wait_ms(req, (double)(wait > cap ? cap : wait) *
			    scale);
			continue;
		}
		resp->tries = t;
		resp->seconds = clock_seconds() - t0;
		if (resp->status >= 200 && resp->status <= 299) {
			/* An earlier try's failure is no longer news. */
			if (err != NULL)
				memset(err, 0, sizeof *err);
			return 0;
		}
		if (!http_status_retry(pol, resp, err))
			break;
		wait = http_retry_after_ms(resp->retry_after_ms,
		    resp->retry_after, clock_now());
		if (wait > cap) {
			snprintf(what, sizeof what, "it asked to wait %ld s, "
			    "more than the %ld s limit; gave up after %d %s",
			    wait / 1000, cap / 1000, t, t == 1 ? "try" : "tries");
			http_status_error(pol, resp, what, err);
			break;
		}
		if (t >= tries) {
			snprintf(what, sizeof what, "gave up after %d tries "
			    "over %.0f s", t, clock_seconds() - t0);
			http_status_error(pol, resp, what, err);
			break;
		}
		if (wait < 0)
			wait = http_backoff_ms(pol, t, &seed);
		if (wait > cap)
			wait = cap;
		http_wait_ms(req, (double)wait * scale);
	}
	resp->tries = t;
	resp->seconds = clock_seconds() - t0;
	if (err != NULL)
		http_redact(req, err->msg, sizeof err->msg);
	return -1;
}

char *
http_request_describe(const struct http_request *req)
{
	char *out, *next;
	int i;

	xasprintf(&out, "%s %s\n", req->method != NULL ? req->method : "POST",
	    req->url);
	for (i = 0; i < req->nheaders; i++) {
		xasprintf(&next, "%s%s: %s\n", out, req->headers[i].name,
		    req->headers[i].secret ? "***" : req->headers[i].value);
		free(out);
		out = next;
	}
	if (req->body != NULL) {
		xasprintf(&next, "%s\n%.*s\n", out, (int)req->body_len,
		    req->body);
		free(out);
		out = next;
	}
	return out;
}
