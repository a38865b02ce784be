/*
 * synth — the refinement loop. Each round asks the model once: round 1
 * with the task, later rounds with one earlier candidate and what was
 * wrong with it: its failures, or, for one that conforms, its backtest
 * against the baselines and its worst-predicted posts. Which candidate to
 * refine is chosen by Thompson sampling on its tests (a Beta(passes + 1,
 * fails + 1) draw each), where the tests are its checks and, for each
 * scored window post, one per baseline (won when the model's |log error|
 * is the smaller; synth_score.c), so a promising candidate is refined
 * more often without starving the others. The loop ends early on a
 * candidate that conforms and beats both baselines. Every candidate is
 * kept for the report.
 *
 * The code runs only where opts->validate runs it (the sandbox worker);
 * this file gates it and never executes it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/backtest.h"
#include "runs/conform.h"
#include "runs/synth_int.h"
#include "sandbox/builtin.h"
#include "sandbox/gate.h"

#define SYNTH_ROUNDS	3

/* One fenced block of the answer. */
struct synth_block {
	int		 line;		/* of the opening fence, 1-based */
	char		*code;
	size_t		 len, cap;	/* of code, which grows by doubling */
	bool		 python;	/* tagged python/py/python3 */
	bool		 closed;
};

/* Appends a line to a block: amortised constant per byte, since an
 * answer (up to 32 MiB) can be one block of millions of lines. */
static void
synth_block_add(struct synth_block *b, const char *p, size_t n)
{
	if (b->len + n + 2 > b->cap) {
		b->cap = (b->len + n + 2) * 2;
		b->code = xrealloc(b->code, b->cap);
	}
	memcpy(b->code + b->len, p, n);
	b->len += n;
	b->code[b->len++] = '\n';
	b->code[b->len] = '\0';
}

static bool
synth_python_tag(const char *tag, size_t n)
{
	return (n == 6 && strncasecmp(tag, "python", 6) == 0) ||
	    (n == 2 && strncasecmp(tag, "py", 2) == 0) ||
	    (n == 7 && strncasecmp(tag, "python3", 7) == 0);
}

static int
synth_blocks(const char *answer, struct synth_block **out)
{
	struct synth_block *b = NULL, *cur = NULL;
	const char *p = answer, *eol, *tag;
	size_t len, tlen;
	int n = 0, cap = 0, line = 0;

	for (; *p != '\0'; p = *eol != '\0' ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		len = (size_t)(eol - p);
		line++;
		while (len > 0 && (p[len - 1] == '\r' || p[len - 1] == ' ' ||
		    p[len - 1] == '\t'))
			len--;
		if (cur == NULL && len >= 3 && strncmp(p, "```", 3) == 0) {
			if (n == cap) {
				cap = cap > 0 ? cap * 2 : 4;
				b = xrealloc(b, (size_t)cap * sizeof *b);
			}
			cur = &b[n++];
			memset(cur, 0, sizeof *cur);
			cur->line = line;
			tag = p + 3;
			tlen = len - 3;
			cur->python = synth_python_tag(tag, tlen);
			cur->code = xstrdup("");
			if (tlen > 0 && !cur->python)
				cur->line = -line;	/* another language */
			continue;
		}
		if (cur != NULL && len == 3 && strncmp(p, "```", 3) == 0) {
			cur->closed = true;
			cur = NULL;
			continue;
		}
		if (cur != NULL)
			synth_block_add(cur, p, (size_t)(eol - p));
	}
	*out = b;
	return n;
}

static void
synth_blocks_free(struct synth_block *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(b[i].code);
	free(b);
}

char *
synth_extract(const char *answer, char **why)
{
	struct synth_block *b;
	char *code = NULL;
	int n, i, use = -1, count = 0, want;

	*why = NULL;
	n = synth_blocks(answer, &b);
	/* Tagged python blocks win; untagged ones count only without them. */
	for (want = 1; want >= 0 && count == 0; want--)
		for (i = 0; i < n; i++) {
			if (b[i].line < 0 || (int)b[i].python != want)
				continue;
			if (use >= 0 && strcmp(b[i].code, b[use].code) == 0)
				continue;
			if (use < 0)
				use = i;
			count++;
		}
	if (count == 0)
		xasprintf(why, "the answer contains no ```python code block");
	else if (count > 1)
		xasprintf(why, "the answer contains %d different code blocks "
		    "(the first at line %d); send the whole module in one "
		    "```python block", count, b[use].line);
	else if (!b[use].closed)
		xasprintf(why, "the ```python block opened at line %d is never "
		    "closed (was the answer cut off?)", b[use].line);
	else if (b[use].code[0] == '\0')
		xasprintf(why, "the ```python block at line %d is empty",
		    b[use].line);
	else {
		code = b[use].code;
		b[use].code = NULL;
	}
	synth_blocks_free(b, n);
	return code;
}

/* splitmix64: a small, seedable generator for Thompson sampling. */
static double
synth_uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* Gamma(k, 1) for integer k: a sum of k exponentials. */
static double
synth_gamma(int k, uint64_t *s)
{
	double x = 0;

	while (k-- > 0)
		x -= log(synth_uniform(s));
	return x;
}

static double
synth_beta(int a, int b, uint64_t *s)
{
	double x = synth_gamma(a, s), y = synth_gamma(b, s);

	return x / (x + y);
}

static int
synth_pick(const struct synth_result *r, uint64_t *rng)
{
	double best = -1, v;
	int i, pick = 0;

	for (i = 0; i < r->ncands; i++) {
		v = synth_beta(r->cands[i].passes + 1, r->cands[i].fails + 1,
		    rng);
		if (v > best) {
			best = v;
			pick = i;
		}
	}
	return pick;
}

/* What went wrong with candidate c, for the model. */
static char *
synth_problems(const struct synth_candidate *c)
{
	char *s;

	if (c->all_pass && c->backtest_text != NULL) {
		xasprintf(&s, "It passed the gate and every conformance check. "
		    "%s\n%s", c->measured ? "The backtest (each post of the "
		    "newest part of history predicted by predict() from the "
		    "posts before it) says it does not yet predict history "
		    "better than both baselines fronts computes itself; "
		    "improve the model where it goes wrong:" : "It defines no "
		    "working predict(ctx, post, rng), so the backtest cannot "
		    "measure it; define it, drawing what apply would give that "
		    "post at that time:", c->backtest_text);
		return s;
	}
	if (c->code == NULL)
		xasprintf(&s, "It could not be used: %s.", c->extract_error);
	else if (!c->gate_accepted)
		xasprintf(&s, "The AST gate refused it, so it never ran. "
		    "Verdicts (line, column, rule):\n%s", c->gate_text);
	else if (c->validation_error != NULL)
		xasprintf(&s, "It passed the gate, but validation could not "
		    "finish: %s", c->validation_error);
	else
		xasprintf(&s, "It passed the gate but failed validation. The "
		    "validation report:\n%s", c->validation_text != NULL ?
		    c->validation_text : "(no report)");
	return s;
}

/* The first SYNTH_PROMPT_VERDICTS verdicts, then how many more. */
static char *
synth_gate_text(const struct gate_result *g)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&s, &len);
	int i, n = g->nverdicts < SYNTH_PROMPT_VERDICTS ? g->nverdicts :
	    SYNTH_PROMPT_VERDICTS;

	for (i = 0; i < n; i++)
		fprintf(f, "%sline %d, col %d [%s]: %s", i > 0 ? "\n" : "",
		    g->verdicts[i].line, g->verdicts[i].col,
		    g->verdicts[i].rule, g->verdicts[i].message);
	if (gate_result_total(g) > n)
		fprintf(f, "\n(and %d more verdicts; fix these first)",
		    gate_result_total(g) - n);
	fclose(f);
	return s;
}

/* Counts pass and fail among the report's checks. */
static void
synth_count_checks(struct synth_candidate *c)
{
	const cJSON *checks, *chk, *st, *conf;

	checks = cJSON_GetObjectItemCaseSensitive(c->validation, "checks");
	cJSON_ArrayForEach(chk, checks) {
		st = cJSON_GetObjectItemCaseSensitive(chk, "status");
		if (!cJSON_IsString(st))
			continue;
		if (strcasecmp(st->valuestring, "pass") == 0)
			c->passes++;
		else if (strcasecmp(st->valuestring, "fail") == 0)
			c->fails++;
	}
	conf = cJSON_GetObjectItemCaseSensitive(c->validation, "conformant");
	c->all_pass = cJSON_IsTrue(conf) && c->fails == 0;
}

static int
synth_check_code(const struct project *p, const struct synth_options *o,
    struct synth_candidate *c, struct error *err)
{
	struct gate_result g;
	struct error verr = { 0 };

	if (c->code == NULL)	/* the builtin comes with its code */
		c->code = synth_extract(c->answer, &c->extract_error);
	if (c->code == NULL) {
		c->fails = 1;
		return 0;
	}
	sha256_hex(c->code, strlen(c->code), c->sha256);
	if (gate_check_source(c->code, strlen(c->code), &g, err) != 0)
		return -1;
	c->gated = true;
	c->gate_accepted = g.accepted;
	c->gate = gate_result_json(&g);
	c->gate_text = synth_gate_text(&g);
	c->fails = gate_result_total(&g);
	gate_result_free(&g);
	if (!c->gate_accepted) {
		if (c->fails == 0)
			c->fails = 1;
		return 0;
	}
	c->fails = 0;
	c->passes = 1;
	if (o->validate == NULL) {
		c->all_pass = true;
		return 0;
	}
	if (o->validate(o->validate_arg, p, c->code, strlen(c->code),
	    &c->validation, &c->validation_text, &verr) != 0) {
		c->validation_error = xstrdup(verr.msg);
		c->fails++;
		return 0;
	}
	synth_count_checks(c);
	return 0;
}

/* Extraction, gate, validation, then the backtest's tests: every
 * candidate gets them, so pass rates compare over the same tests. */
static int
synth_check(const struct project *p, const struct synth_options *o,
    struct synth_candidate *c, struct error *err)
{
	int rc = synth_check_code(p, o, c, err);

	if (rc == 0 && o->validate != NULL)
		synth_score_backtest(p, c);
	return rc;
}

/* Nothing left to refine: it conforms and beats both baselines, or it
 * conforms and there is nothing to measure it on. */
static bool
synth_done(const struct synth_candidate *c)
{
	return c->all_pass && (c->validation == NULL || c->beats ||
	    (!c->measured && c->losses == 0));
}

void
synth_progress_say(void (*progress)(void *, const char *), void *arg,
    const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (progress == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	progress(arg, line);
}

#define synth_say(o, ...) \
	synth_progress_say((o)->progress, (o)->progress_arg, __VA_ARGS__)

const char *
synth_builtin_word(const struct synth_candidate *c)
{
	if (c->is_builtin)
		return " (it is the builtin model)";
	if (isnan(c->builtin_mae))
		return "";
	return c->beats_builtin ? " and the builtin model" :
	    "; does NOT beat the builtin model";
}

static void
synth_say_outcome(const struct synth_options *o, int i,
    const struct synth_candidate *c)
{
	char failed[256], sp[32], bi[32];

	if (c->code == NULL)
		synth_say(o, "candidate %d: no code: %s", i + 1, c->extract_error);
	else if (!c->gate_accepted)
		synth_say(o, "candidate %d: the gate refused it (%d %s)", i + 1,
		    c->fails - c->losses, c->fails - c->losses == 1 ? "verdict" :
		    "verdicts");
	else if (c->validation_error != NULL)
		synth_say(o, "candidate %d: gate ok; validation failed to run: "
		    "%s", i + 1, c->validation_error);
	else if (c->measured)
		synth_say(o, "candidate %d: gate ok; conforms; backtest mae_log "
		    "%.3f against front_median %.3f, hour_weekday %.3f and "
		    "builtin %s, spearman %s, coverage80 %.0f%%: %s%s", i + 1,
		    c->mae_log, c->base_mae[0], c->base_mae[1],
		    backtest_figure_text(c->builtin_mae, false, false, bi,
		    sizeof bi), backtest_figure_text(c->spearman, false, false,
		    sp, sizeof sp), c->coverage80 * 100, c->beats ?
		    "beats both baselines" : "does not beat both baselines",
		    synth_builtin_word(c));
	else if (c->validation != NULL) {
		conform_failed_names(c->validation, failed, sizeof failed);
		synth_say(o, "candidate %d: gate ok; validation %d passed, %d "
		    "failed%s%s", i + 1, c->passes - 1 - c->wins,
		    c->fails - c->losses, failed[0] != '\0' ? ": " : "",
		    failed);
	}
	else
		synth_say(o, "candidate %d: gate ok (not validated)", i + 1);
}

/* The best candidate: conforming and beating the baselines first, then
 * conforming, then any the gate accepted, by posterior mean pass rate
 * (checks and backtest tests); later ones win ties. */
static int
synth_best(const struct synth_result *r)
{
	double best = -1, v;
	int i, pick = -1;

	for (i = 0; i < r->ncands; i++) {
		if (!r->cands[i].gate_accepted)
			continue;
		v = (r->cands[i].passes + 1.0) /
		    (r->cands[i].passes + r->cands[i].fails + 2.0) +
		    (r->cands[i].all_pass ? 1.0 : 0.0) +
		    (r->cands[i].beats ? 1.0 : 0.0);
		if (v >= best) {
			best = v;
			pick = i;
		}
	}
	return pick;
}

static int
synth_ask(struct provider *prov, const char *system, const char *task,
    const struct synth_candidate *parent, int parent_index,
    struct synth_candidate *c, struct error *err)
{
	struct llm_message msgs[3];
	struct llm_request req = { 0 };
	struct llm_answer a;
	char *problems = NULL, *refine = NULL;
	int rc;

	msgs[0].role = "user";
	msgs[0].content = task;
	req.nmessages = 1;
	if (parent != NULL) {
		problems = synth_problems(parent);
		refine = synth_refine_prompt(parent_index + 1, problems);
		msgs[1].role = "assistant";
		msgs[1].content = parent->answer;
		msgs[2].role = "user";
		msgs[2].content = refine;
		req.nmessages = 3;
	}
	req.model = provider_model(prov);
	req.system = system;
	req.messages = msgs;
	req.max_tokens = SYNTH_MAX_TOKENS;
	rc = provider_complete(prov, &req, &a, err);
	free(problems);
	free(refine);
	if (rc == 0) {
		c->answer = a.text;
		a.text = NULL;
		c->request_id = a.request_id;
		a.request_id = NULL;
		c->recording = a.recording;
		a.recording = NULL;
	}
	c->input_tokens = a.input_tokens;
	c->output_tokens = a.output_tokens;
	llm_answer_free(&a);
	return rc;
}

int
synth_run(const struct project *p, struct provider *prov,
    const struct synth_options *o, struct synth_result *r, struct error *err)
{
	int rounds = o->rounds > 0 ? o->rounds : SYNTH_ROUNDS, round, parent;
	uint64_t rng = o->seed != 0 ? o->seed : 1;
	struct synth_candidate *c;
	char *system, *task;
	double t0 = clock_seconds();
	int rc = 0;

	memset(r, 0, sizeof *r);
	r->best = -1;
	if (synth_prompt(p, &system, &task, err) != 0)
		return -1;
	if (o->from_builtin) {
		char *with = synth_prompt_builtin(task);

		free(task);
		task = with;
	}
	for (round = 1; round <= rounds; round++) {
		if (o->cancel != NULL && atomic_load(o->cancel)) {
			rc = error_set(err, EXIT_ERROR, "synthesis was stopped");
			break;
		}
		parent = round == 1 ? -1 : synth_pick(r, &rng);
		if (parent < 0)
			synth_say(o, "round %d: asking %s", round,
			    provider_name(prov));
		else
			synth_say(o, "round %d: asking %s to refine candidate %d",
			    round, provider_name(prov), parent + 1);
		r->cands = xrealloc(r->cands, (size_t)(r->ncands + 1) *
		    sizeof *r->cands);
		c = &r->cands[r->ncands];
		memset(c, 0, sizeof *c);
		c->round = round;
		c->parent = parent;
		rc = synth_ask(prov, system, task, parent >= 0 ?
		    &r->cands[parent] : NULL, parent, c, err);
		r->input_tokens += c->input_tokens;
		r->output_tokens += c->output_tokens;
		if (rc != 0)
			break;
		r->ncands++;
		if ((rc = synth_check(p, o, c, err)) != 0)
			break;
		synth_say_outcome(o, r->ncands - 1, c);
		if (synth_done(c))
			break;
	}
	r->best = synth_best(r);
	r->seconds = clock_seconds() - t0;
	free(system);
	free(task);
	return rc;
}

int
synth_builtin(const struct project *p, const struct synth_options *o,
    struct synth_result *r, struct error *err)
{
	struct synth_candidate *c;
	double t0 = clock_seconds();
	int rc;

	memset(r, 0, sizeof *r);
	r->best = -1;
	synth_say(o, "round 1: the builtin model, fitted to this project's "
	    "history when it starts (no language model)");
	c = r->cands = xcalloc(1, sizeof *r->cands);
	c->round = 1;
	c->parent = -1;
	c->code = xstrdup(builtin_source(NULL));
	r->ncands = 1;
	if ((rc = synth_check(p, o, c, err)) == 0)
		synth_say_outcome(o, 0, c);
	r->best = synth_best(r);
	r->seconds = clock_seconds() - t0;
	return rc;
}

static void
synth_candidate_free(struct synth_candidate *c)
{
	free(c->answer);
	free(c->code);
	free(c->extract_error);
	cJSON_Delete(c->gate);
	free(c->gate_text);
	cJSON_Delete(c->validation);
	free(c->validation_text);
	free(c->validation_error);
	free(c->backtest_text);
	free(c->request_id);
	free(c->recording);
}

void
synth_result_free(struct synth_result *r)
{
	int i;

	for (i = 0; i < r->ncands; i++)
		synth_candidate_free(&r->cands[i]);
	free(r->cands);
	memset(r, 0, sizeof *r);
}

static void
synth_add_str(cJSON *o, const char *name, const char *v)
{
	if (v != NULL)
		cJSON_AddStringToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

/* The figures of a measured candidate, or null. */
static cJSON *
synth_backtest_json(const struct synth_candidate *c)
{
	cJSON *j, *b;

	if (c == NULL || !c->measured)
		return cJSON_CreateNull();
	j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "spearman", c->spearman);
	cJSON_AddNumberToObject(j, "mae_log", c->mae_log);
	cJSON_AddNumberToObject(j, "coverage80", c->coverage80);
	b = cJSON_AddObjectToObject(j, "baselines_mae_log");
	cJSON_AddNumberToObject(b, "front_median", c->base_mae[0]);
	cJSON_AddNumberToObject(b, "hour_weekday", c->base_mae[1]);
	if (isnan(c->builtin_mae))
		cJSON_AddNullToObject(b, "builtin");
	else
		cJSON_AddNumberToObject(b, "builtin", c->builtin_mae);
	cJSON_AddBoolToObject(j, "beats_baselines", c->beats);
	if (c->is_builtin || isnan(c->builtin_mae))
		cJSON_AddNullToObject(j, "beats_builtin");
	else
		cJSON_AddBoolToObject(j, "beats_builtin", c->beats_builtin);
	cJSON_AddBoolToObject(j, "is_builtin", c->is_builtin);
	return j;
}

static cJSON *
synth_candidate_json(const struct synth_candidate *c, int i)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "candidate", i + 1);
	cJSON_AddNumberToObject(j, "round", c->round);
	if (c->parent >= 0)
		cJSON_AddNumberToObject(j, "refines", c->parent + 1);
	else
		cJSON_AddNullToObject(j, "refines");
	synth_add_str(j, "sha256", c->code != NULL ? c->sha256 : NULL);
	synth_add_str(j, "extract_error", c->extract_error);
	if (c->gate != NULL)
		cJSON_AddItemToObject(j, "gate", cJSON_Duplicate(c->gate, 1));
	else
		cJSON_AddNullToObject(j, "gate");
	if (c->validation != NULL)
		cJSON_AddItemToObject(j, "validation",
		    cJSON_Duplicate(c->validation, 1));
	else
		cJSON_AddNullToObject(j, "validation");
	synth_add_str(j, "validation_error", c->validation_error);
	cJSON_AddNumberToObject(j, "passes", c->passes);
	cJSON_AddNumberToObject(j, "fails", c->fails);
	cJSON_AddBoolToObject(j, "all_pass", c->all_pass);
	cJSON_AddItemToObject(j, "backtest", synth_backtest_json(c));
	cJSON_AddNumberToObject(j, "input_tokens", (double)c->input_tokens);
	cJSON_AddNumberToObject(j, "output_tokens", (double)c->output_tokens);
	synth_add_str(j, "request_id", c->request_id);
	synth_add_str(j, "recording", c->recording);
	synth_add_str(j, "code", c->code);
	return j;
}

cJSON *
synth_report_json(const struct synth_result *r, const char *provider,
    const char *api, const char *model, const char *written)
{
	cJSON *j = cJSON_CreateObject(), *arr, *tok;
	int i;

	cJSON_AddStringToObject(j, "provider", provider);
	cJSON_AddStringToObject(j, "api", api);
	cJSON_AddStringToObject(j, "model", model);
	cJSON_AddNumberToObject(j, "rounds", r->ncands);
	cJSON_AddNumberToObject(j, "seconds", r->seconds);
	tok = cJSON_AddObjectToObject(j, "tokens");
	cJSON_AddNumberToObject(tok, "input", (double)r->input_tokens);
	cJSON_AddNumberToObject(tok, "output", (double)r->output_tokens);
	if (r->best >= 0)
		cJSON_AddNumberToObject(j, "chosen", r->best + 1);
	else
		cJSON_AddNullToObject(j, "chosen");
	cJSON_AddItemToObject(j, "chosen_backtest", synth_backtest_json(
	    r->best >= 0 ? &r->cands[r->best] : NULL));
	synth_add_str(j, "written", written);
	cJSON_AddBoolToObject(j, "approved", false);
	arr = cJSON_AddArrayToObject(j, "candidates");
	for (i = 0; i < r->ncands; i++)
		cJSON_AddItemToArray(arr, synth_candidate_json(&r->cands[i], i));
	return j;
}
