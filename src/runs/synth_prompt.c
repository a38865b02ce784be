/*
 * synth_prompt — the synthesis prompt: the embedded templates filled with
 * the project's fronts and limits, its drafts, rules.md between markers
 * that say it is untrusted, and a summary of history.jsonl (per front, per
 * topic and front, per weekday and hour block, and a sample of posts).
 *
 * Everything here is a pure function of the project files, so the same
 * project gives the same prompt byte for byte (recordings are found by the
 * prompt's hash).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/timeutil.h"
#include "runs/synth.h"
#include "sandbox/builtin.h"
#include "sandbox/namespace.h"

extern const char prompt_system[], prompt_task[], prompt_refine[],
    prompt_builtin[];

struct sbuf {
	char	*s;
	size_t	 len, cap;
};

static void
sb_printf(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static char *
sb_take(struct sbuf *b)
{
	if (b->s == NULL)
		return xstrdup("");
	return b->s;
}

/* Fills {{KEY}} placeholders from a NULL-terminated key/value list. */
static char *
synth_render(const char *tmpl, const char *const *kv)
{
	struct sbuf b = { 0 };
	const char *p = tmpl, *open, *close;
	const char *const *k;
	size_t n;

	while ((open = strstr(p, "{{")) != NULL &&
	    (close = strstr(open, "}}")) != NULL) {
		sb_printf(&b, "%.*s", (int)(open - p), p);
		n = (size_t)(close - open - 2);
		for (k = kv; *k != NULL; k += 2)
			if (strlen(*k) == n && strncmp(open + 2, *k, n) == 0)
				break;
		if (*k != NULL)
			sb_printf(&b, "%s", k[1]);
		else
			sb_printf(&b, "%.*s", (int)(close + 2 - open), open);
		p = close + 2;
	}
	sb_printf(&b, "%s", p);
	return sb_take(&b);
}

/* Comma-separated names, wrapped at ~72 columns and indented. */
static void
synth_name_list(struct sbuf *b, const char *const *names, size_t stride)
{
	size_t col = 0, n;
	const char *name;

	for (; (name = *names) != NULL;
	    names = (const char *const *)((const char *)names + stride)) {
		if (strncmp(name, "__", 2) == 0)
			continue;	/* the gate refuses these anyway */
		n = strlen(name);
		if (col > 0 && col + n + 2 > 72) {
			sb_printf(b, ",\n");
			col = 0;
		} else if (col > 0) {
			sb_printf(b, ", ");
			col += 2;
		}
		if (col == 0) {
			sb_printf(b, "  ");
			col = 2;
		}
		sb_printf(b, "%s", name);
		col += n;
	}
}

static char *
synth_prebound(void)
{
	struct sbuf b = { 0 };

	synth_name_list(&b, &namespace_values[0].name,
	    sizeof namespace_values[0]);
	return sb_take(&b);
}

static char *
synth_builtins(void)
{
	struct sbuf b = { 0 };

	synth_name_list(&b, namespace_builtin_names, sizeof(char *));
	return sb_take(&b);
}

static void
synth_limit(struct sbuf *b, const char *what, int v, const char *one,
    const char *many)
{
	if (v != LIMIT_UNSET)
		sb_printf(b, " %s %d %s;", what, v, v == 1 ? one : many);
}

static char *
synth_fronts(const struct project *p)
{
	struct sbuf b = { 0 };
	const struct limits *l;
	int i;

	for (i = 0; i < p->nfronts; i++) {
		l = &p->fronts[i].limits;
		sb_printf(&b, "- %s: platform %s, account %s;", p->fronts[i].id,
		    platform_name(p->fronts[i].platform),
		    p->fronts[i].account != NULL ? p->fronts[i].account : "-");
		if (l->max_length != LIMIT_UNSET)
			sb_printf(&b, " max length %d;", l->max_length);
		else
			sb_printf(&b, " the platform's length limit;");
		synth_limit(&b, "at most", l->max_posts_per_day, "post a day",
		    "posts a day");
		synth_limit(&b, "at least", l->min_gap_minutes,
		    "minute between posts", "minutes between posts");
		if (l->quiet_start != LIMIT_UNSET && l->quiet_end != LIMIT_UNSET &&
		    l->quiet_start != l->quiet_end)
			sb_printf(&b, " quiet %02d:00-%02d:00 local;",
			    l->quiet_start, l->quiet_end);
		synth_limit(&b, "at most", l->max_links, "link", "links");
		synth_limit(&b, "at most", l->max_hashtags, "hashtag", "hashtags");
		b.s[b.len - 1] = i + 1 < p->nfronts ? '\n' : '\0';
	}
	return sb_take(&b);
}

/* Up to max bytes of text on one line, cut at a UTF-8 boundary. */
static void
synth_snippet(struct sbuf *b, const char *text, size_t max)
{
	size_t n = strlen(text), i;

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	sb_printf(b, "\"");
	for (i = 0; i < n; i++) {
		if (text[i] == '\n')
			sb_printf(b, "\\n");
		else if (text[i] == '"')
			sb_printf(b, "\\\"");
		else
			sb_printf(b, "%c", text[i]);
	}
	sb_printf(b, "%s\"", n < strlen(text) ? "..." : "");
}

static void
synth_topics(struct sbuf *b, char *const *topics, int n)
{
	int i;

	sb_printf(b, "[");
	for (i = 0; i < n; i++)
		sb_printf(b, "%s%s", i > 0 ? "," : "", topics[i]);
	sb_printf(b, "]");
}

/* " (3 parts, 1 image; bluesky: own version; until …)": what a draft
 * holds beyond its first text, for the model to weigh. */
static void
synth_draft_shape(struct sbuf *b, const struct project *p, int d)
{
	const struct draft *dr = &p->drafts[d];
	char t[64];
	int i, n = 0, f, sep = 0;

	for (i = 0; i < dr->body.nparts; i++)
		n += dr->body.parts[i].nmedia;
	if (dr->body.nparts <= 1 && n == 0 && dr->nvariants == 0 &&
	    !dr->has_not_before && !dr->has_not_after)
		return;
	sb_printf(b, " (");
	if (dr->body.nparts > 1) {
		sb_printf(b, "%d parts", dr->body.nparts);
		sep = 1;
	}
	if (n > 0) {
		sb_printf(b, "%s%d image%s", sep ? ", " : "", n, n == 1 ? "" :
		    "s");
		sep = 1;
	}
	for (f = 0; f < p->nfronts; f++)
		if (project_draft_allows(p, d, f) &&
		    project_draft_variant(p, d, f) >= 0) {
			sb_printf(b, "%s%s: own version of %d part%s",
			    sep ? "; " : "", p->fronts[f].id,
			    project_draft_body(p, d, f)->nparts,
			    project_draft_body(p, d, f)->nparts == 1 ? "" : "s");
			sep = 1;
		}
	if (dr->has_not_before) {
		time_format_local(dr->not_before, t, sizeof t);
		sb_printf(b, "%snot before %s", sep ? "; " : "", t);
		sep = 1;
	}
	if (dr->has_not_after) {
		time_format_local(dr->not_after, t, sizeof t);
		sb_printf(b, "%snot after %s", sep ? "; " : "", t);
	}
	sb_printf(b, ")");
}

static char *
synth_drafts(const struct project *p)
{
	struct sbuf b = { 0 };
	int i, f, first;

	for (i = 0; i < p->ndrafts; i++) {
		sb_printf(&b, "- %s ", p->drafts[i].id);
		synth_topics(&b, p->drafts[i].topics, p->drafts[i].ntopics);
		sb_printf(&b, " on ");
		first = 1;
		for (f = 0; f < p->nfronts; f++)
			if (p->drafts[i].front_mask & ((uint64_t)1 << f)) {
				sb_printf(&b, "%s%s", first ? "" : ",",
				    p->fronts[f].id);
				first = 0;
			}
		synth_draft_shape(&b, p, i);
		sb_printf(&b, ": ");
		synth_snippet(&b, p->drafts[i].text, 100);
		if (i + 1 < p->ndrafts)
			sb_printf(&b, "\n");
	}
	return sb_take(&b);
}

struct synth_cell {
	int	n;
	double	sum;
};

/* A post's reward in the objective's units; NAN when a weighted metric
 * is unknown (left out of every mean, never taken as 0). */
static double
synth_engagement(const struct project *p, const struct history_post *h)
{
	double r;

	return objective_post_reward(p, h, &r) ? r : NAN;
}

static void
synth_cell_add(struct synth_cell *c, double r)
{
	if (isnan(r))
		return;
	c->n++;
	c->sum += r;
}

static void
synth_cell_print(struct sbuf *b, const struct synth_cell *c)
{
	char cell[32];

	if (c->n == 0)
		snprintf(cell, sizeof cell, "-");
	else
		snprintf(cell, sizeof cell, "%.0f (%d)", c->sum / c->n, c->n);
	sb_printf(b, " %9s", cell);
}

static void
synth_by_front(struct sbuf *b, const struct project *p)
{
	struct synth_cell eng;
	char obj[512];
	double impr;
	int f, i, n;

	objective_describe(p, obj, sizeof obj);
	sb_printf(b, "Per front (engagement in the objective's units: %s; "
	    "means over posts whose weighted metrics are all known):\n"
	    "  front        posts  mean impressions  mean engagement\n", obj);
	for (f = 0; f < p->nfronts; f++) {
		memset(&eng, 0, sizeof eng);
		impr = 0;
		n = 0;
		for (i = 0; i < p->nhistory; i++)
			if (p->history[i].front == f) {
				n++;
				impr += p->history[i].impressions;
				synth_cell_add(&eng, synth_engagement(p,
				    &p->history[i]));
			}
		sb_printf(b, "  %-12s %5d  %16.0f  %15.1f\n", p->fronts[f].id, n,
		    n > 0 ? impr / n : 0, eng.n > 0 ? eng.sum / eng.n : 0);
	}
}

static int
synth_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct topics of the history, sorted. */
static char **
synth_topic_list(const struct project *p, int *n)
{
	char **t = NULL;
	int i, j, k, m = 0;

	for (i = 0; i < p->nhistory; i++)
		for (j = 0; j < p->history[i].ntopics; j++) {
			for (k = 0; k < m; k++)
				if (strcmp(t[k], p->history[i].topics[j]) == 0)
					break;
			if (k == m) {
				t = xrealloc(t, (size_t)(m + 1) * sizeof *t);
				t[m++] = p->history[i].topics[j];
			}
		}
	if (m > 0)
		qsort(t, (size_t)m, sizeof *t, synth_cmp_str);
	*n = m;
	return t;
}

static bool
synth_has_topic(const struct history_post *h, const char *topic)
{
	int j;

	for (j = 0; j < h->ntopics; j++)
		if (strcmp(h->topics[j], topic) == 0)
			return true;
	return false;
}

static void
synth_by_topic(struct sbuf *b, const struct project *p)
{
	struct synth_cell c;
	char **topics;
	int nt, t, f, i;

	topics = synth_topic_list(p, &nt);
	sb_printf(b, "\nMean engagement (posts) per topic and front:\n  %-12s",
	    "topic");
	for (f = 0; f < p->nfronts; f++)
		sb_printf(b, " %9.9s", p->fronts[f].id);
	sb_printf(b, "\n");
	for (t = 0; t < nt; t++) {
		sb_printf(b, "  %-12s", topics[t]);
		for (f = 0; f < p->nfronts; f++) {
			memset(&c, 0, sizeof c);
			for (i = 0; i < p->nhistory; i++)
				if (p->history[i].front == f &&
				    synth_has_topic(&p->history[i], topics[t]))
					synth_cell_add(&c, synth_engagement(p,
					    &p->history[i]));
			synth_cell_print(b, &c);
		}
		sb_printf(b, "\n");
	}
	free(topics);
}

static void
synth_by_hour_of_week(struct sbuf *b, const struct project *p, int f)
{
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri",
	    "Sat", "Sun" };
	struct synth_cell cells[7][6];
	struct tm tm;
	int i, d, h;

	memset(cells, 0, sizeof cells);
	for (i = 0; i < p->nhistory; i++) {
		if (p->history[i].front != f)
			continue;
		localtime_r(&p->history[i].posted_at, &tm);
		d = (tm.tm_wday + 6) % 7;
		synth_cell_add(&cells[d][tm.tm_hour / 4], synth_engagement(p,
		    &p->history[i]));
	}
	sb_printf(b, "\n%s: mean engagement (posts) by local weekday and hour "
	    "block\n     ", p->fronts[f].id);
	for (h = 0; h < 6; h++)
		sb_printf(b, "     %02d-%02d", h * 4, h * 4 + 4);
	sb_printf(b, "\n");
	for (d = 0; d < 7; d++) {
		sb_printf(b, "  %s", days[d]);
		for (h = 0; h < 6; h++)
			synth_cell_print(b, &cells[d][h]);
		sb_printf(b, "\n");
	}
}

static int
synth_cmp_eng(const void *a, const void *b, void *arg)
{
	const struct project *p = arg;
	double x = synth_engagement(p, &p->history[*(const int *)a]);
	double y = synth_engagement(p, &p->history[*(const int *)b]);

	/* unknown sorts last, as no evidence of either end */
	x = isnan(x) ? -1 : x;
	y = isnan(y) ? -1 : y;

	if (x != y)
		return x > y ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static int
synth_cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* " impressions 5400 likes unknown …: ": a count the history does not
 * carry is said to be unknown, never shown as 0. */
static void
synth_counts(struct sbuf *b, const struct history_post *h)
{
	static const char *const names[] = { "impressions", "likes",
	    "reposts", "replies", "clicks" };
	const double v[] = { h->impressions, h->likes, h->reposts, h->replies,
	    h->clicks };
	int i;

	for (i = 0; i < 5; i++) {
		if (h->metrics_set & (1u << i))
			sb_printf(b, " %s %.0f", names[i], v[i]);
		else
			sb_printf(b, " %s unknown", names[i]);
	}
	sb_printf(b, ": ");
}

/* The four best, the four worst and eight evenly spaced posts, by time. */
static void
synth_sample(struct sbuf *b, const struct project *p)
{
	const struct history_post *h;
	int *order, *pick, n = p->nhistory, np = 0, i, j;
	char when[32];
	struct tm tm;

	if (n == 0)
		return;
	order = xcalloc((size_t)n, sizeof *order);
	pick = xcalloc((size_t)n, sizeof *pick);
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, (size_t)n, sizeof *order, synth_cmp_eng, (void *)p);
	for (i = 0; i < n; i++) {
		if (!(i < 4 || i >= n - 4 || (n > 16 && i % (n / 8) == n / 16)))
			continue;
		for (j = 0; j < np && pick[j] != order[i]; j++)
			;
		if (j == np)
			pick[np++] = order[i];
	}
	qsort(pick, (size_t)np, sizeof *pick, synth_cmp_int);
	sb_printf(b, "\nA sample of %d posts (the best, the worst and some in "
	    "between), oldest first:\n", np);
	for (i = 0; i < np; i++) {
		h = &p->history[pick[i]];
		localtime_r(&h->posted_at, &tm);
		strftime(when, sizeof when, "%a %Y-%m-%d %H:%M", &tm);
		sb_printf(b, "- %s %s %s ", h->id, p->fronts[h->front].id, when);
		synth_topics(b, h->topics, h->ntopics);
		synth_counts(b, h);
		synth_snippet(b, h->text, 120);
		if (i + 1 < np)
			sb_printf(b, "\n");
	}
	free(order);
	free(pick);
}

static char *
synth_history(const struct project *p)
{
	struct sbuf b = { 0 };
	char first[32], last[32];
	struct tm tm;
	time_t lo, hi;
	int i, f;

	if (p->nhistory == 0)
		return xstrdup("(no history: history.jsonl is empty)\n");
	lo = hi = p->history[0].posted_at;
	for (i = 1; i < p->nhistory; i++) {
		if (p->history[i].posted_at < lo)
			lo = p->history[i].posted_at;
		if (p->history[i].posted_at > hi)
			hi = p->history[i].posted_at;
	}
	localtime_r(&lo, &tm);
	strftime(first, sizeof first, "%Y-%m-%d", &tm);
	localtime_r(&hi, &tm);
	strftime(last, sizeof last, "%Y-%m-%d", &tm);
	sb_printf(&b, "%d posts from %s to %s.\n\n", p->nhistory, first, last);
	synth_by_front(&b, p);
	synth_by_topic(&b, p);
	for (f = 0; f < p->nfronts; f++)
		synth_by_hour_of_week(&b, p, f);
	synth_sample(&b, p);
	return sb_take(&b);
}

/* rules.md with the end marker defused, so the text cannot close its own
 * quotation early. */
static char *
synth_rules(const char *rules)
{
	struct sbuf b = { 0 };
	const char *p = rules != NULL ? rules : "", *m;

	while ((m = strstr(p, "<<<")) != NULL) {
		sb_printf(&b, "%.*s<< <", (int)(m - p), p);
		p = m + 3;
	}
	sb_printf(&b, "%s", p);
	while (b.len > 0 && b.s[b.len - 1] == '\n')
		b.s[--b.len] = '\0';
	return sb_take(&b);
}

int
synth_prompt(const struct project *p, char **system, char **task,
    struct error *err)
{
	char *pre = synth_prebound(), *bi = synth_builtins();
	char *fronts = synth_fronts(p), *drafts = synth_drafts(p);
	char *rules = synth_rules(p->rules), *hist = synth_history(p);
	char slot[16], horizon[16], nd[16], obj[512];

	objective_describe(p, obj, sizeof obj);
	snprintf(slot, sizeof slot, "%d", p->slot_minutes);
	snprintf(horizon, sizeof horizon, "%d", p->horizon_slots);
	snprintf(nd, sizeof nd, "%d", p->ndrafts);
	*system = synth_render(prompt_system, (const char *const[]){
	    "PREBOUND", pre, "BUILTINS", bi, NULL });
	*task = synth_render(prompt_task, (const char *const[]){
	    "NAME", p->name, "TIMEZONE", p->timezone, "SLOT_MINUTES", slot,
	    "HORIZON_SLOTS", horizon, "FRONTS", fronts,
	    "NDRAFTS", nd, "DRAFTS", drafts, "RULES", rules,
	    "HISTORY", hist, "OBJECTIVE", obj, NULL });
	free(pre);
	free(bi);
	free(fronts);
	free(drafts);
	free(rules);
	free(hist);
	return 0;
}

char *
synth_prompt_builtin(const char *task)
{
	char *src, *part, *s;
	size_t n;

	/* the template closes the fence on its own line */
	src = xstrdup(builtin_source(&n));
	while (n > 0 && src[n - 1] == '\n')
		src[--n] = '\0';
	part = synth_render(prompt_builtin, (const char *const[]){
	    "BUILTIN", src, NULL });
	xasprintf(&s, "%s%s", task, part);
	free(part);
	free(src);
	return s;
}

/* At most SYNTH_PROBLEMS_MAX bytes of text, cut after a whole line (or
 * else a whole UTF-8 character), then how many bytes were left out. */
static char *
synth_cut(const char *text)
{
	struct sbuf b = { 0 };
	size_t n = strlen(text), k = SYNTH_PROBLEMS_MAX, nl;

	if (n <= k)
		return xstrdup(text);
	while (k > 0 && ((unsigned char)text[k] & 0xC0) == 0x80)
		k--;
	for (nl = k; nl > k / 2 && text[nl - 1] != '\n'; nl--)
		;
	if (nl > k / 2)
		k = nl;
	sb_printf(&b, "%.*s", (int)k, text);
	sb_printf(&b, "%s[%zu more bytes of this report left out]",
	    k > 0 && text[k - 1] == '\n' ? "" : "\n", n - k);
	return sb_take(&b);
}

char *
synth_refine_prompt(int candidate, const char *problems)
{
	char num[16], *cut = synth_cut(problems), *s;

	snprintf(num, sizeof num, "%d", candidate);
	s = synth_render(prompt_refine, (const char *const[]){
	    "CANDIDATE", num, "PROBLEMS", cut, NULL });
	free(cut);
	return s;
}
