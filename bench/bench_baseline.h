/*
 * bench_baseline — the plan a careful engineer would write without MCTS,
 * fronts' reference on long horizons (bench_search "big"): greedy by the
 * model's expected reward under the legality engine, slot by slot (at
 * each decision the best post the model and the engine allow, by its
 * mean reward over BL_SAMPLES sampled hidden states, if it beats the
 * wait), then local search on the same sampled states: a post moved to
 * another slot, two posts' slots swapped, a post re-fronted, another
 * draft in its place, a post added or dropped, each kept where the mean
 * return of the whole plan rises. The local search runs in two processes
 * (fronts plans with two workers) from different seeds; the better plan
 * on the training states wins. The plan held at each checkpoint time is
 * kept for the anytime curve.
 *
 * Included by bench_search.c only, after bench_quality.h.
 */
#ifndef FRONTS_BENCH_BASELINE_H
#define FRONTS_BENCH_BASELINE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <sys/wait.h>
#include <unistd.h>

#define BL_SAMPLES	4	/* training determinizations */
#define BL_SCREEN	8	/* posts scored on every sample, of the best
				 * on the first one */
#define BL_SEEDS	0xba5e0000ULL	/* not the judge's (BPLAN_SEEDS) */
#define BL_WORKERS	2
#define BL_CHECKS	8

struct blpost {
	int		slot;
	struct action	a;
};

struct bl {
	struct bproj	*b;
	struct legal	*lg;
	struct blpost	*post;		/* the plan held, by slot */
	int		 npost, cap;
	double		 value;		/* its mean on the training states */
	double		 t0, until;	/* wall clock: start, budget's end */
	const double	*checks;	/* checkpoints, seconds after t0 */
	int		 nchecks, next;
	struct blpost	*at[BL_CHECKS];	/* the plan at each checkpoint */
	int		 nat[BL_CHECKS];
	double		 atv[BL_CHECKS];
	uint64_t	 rng;
};

static int
bl_cmp(const void *x, const void *y)
{
	const struct blpost *a = x, *b = y;

	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	if (a->a.draft != b->a.draft)
		return a->a.draft < b->a.draft ? -1 : 1;
	return (int)a->a.front - (int)b->a.front;
}

/* Posts as the actions of a plan: waits up to each post's slot. */
static void
bl_bplan(const struct bproj *b, struct blpost *post, int n, struct bplan *pl)
{
	int i, slot = 0, k = 0;

	qsort(post, n, sizeof *post, bl_cmp);
	pl->a = xcalloc((size_t)n + b->p->horizon_slots + 1, sizeof *pl->a);
	for (i = 0; i < n; i++) {
		for (; slot < post[i].slot; slot++)
			pl->a[k++].kind = ACTION_WAIT;
		pl->a[k++] = post[i].a;
	}
	for (; slot < b->p->horizon_slots; slot++)
		pl->a[k++].kind = ACTION_WAIT;
	pl->n = k;
}

static double
bl_eval(struct bl *bl, struct blpost *post, int n)
{
	struct bplan pl;
	double v;

	bl_bplan(bl->b, post, n, &pl);
	v = bplan_value_lg(bl->b, bl->lg, &pl, BL_SAMPLES, BL_SEEDS);
	bplan_free(&pl);
	return v;
}

/* The checkpoints passed by now get the plan held. */
static void
bl_tick(struct bl *bl)
{
	double now = clock_seconds() - bl->t0;

	for (; bl->next < bl->nchecks && now >= bl->checks[bl->next];
	    bl->next++) {
		free(bl->at[bl->next]);
		bl->at[bl->next] = xcalloc(bl->npost + 1, sizeof *bl->post);
		memcpy(bl->at[bl->next], bl->post, bl->npost *
		    sizeof *bl->post);
		bl->nat[bl->next] = bl->npost;
		bl->atv[bl->next] = bl->value;
	}
}

static void
bl_add(struct bl *bl, int slot, const struct action *a)
{
	if (bl->npost == bl->cap) {
		bl->cap = bl->cap ? bl->cap * 2 : 256;
		bl->post = xrealloc(bl->post, bl->cap * sizeof *bl->post);
	}
	bl->post[bl->npost].slot = slot;
	bl->post[bl->npost++].a = *a;
}

/* Every state takes action a; returns the mean reward, or NAN on an
 * error. Where keep is false the states are left as they were. */
static double
bl_step(struct bl *bl, model_state **st, const struct action *a, bool keep)
{
	model_state *next;
	double r, sum = 0;
	int k;

	for (k = 0; k < BL_SAMPLES; k++) {
		if (wmodel_ops.apply(bl->b->wm, st[k], a, &next, &r) !=
		    MODEL_OK)
			return NAN;
		sum += r;
		if (keep) {
			wmodel_ops.state_free(bl->b->wm, st[k]);
			st[k] = next;
		} else
			wmodel_ops.state_free(bl->b->wm, next);
	}
	return sum / BL_SAMPLES;
}

/* The BL_SCREEN posts of acts (n) with the best reward on st[0]. */
static int
bl_screen(struct bl *bl, model_state *st0, const struct action *acts, int n,
    struct action *top)
{
	double r, v[BL_SCREEN];
	model_state *next;
	int i, j, nt = 0;

	for (i = 0; i < n; i++) {
		if (wmodel_ops.apply(bl->b->wm, st0, &acts[i], &next, &r) !=
		    MODEL_OK)
			continue;
		wmodel_ops.state_free(bl->b->wm, next);
		if (nt == BL_SCREEN && r <= v[nt - 1])
			continue;
		j = nt < BL_SCREEN ? nt++ : nt - 1;
		for (; j > 0 && v[j - 1] < r; j--) {
			v[j] = v[j - 1];
			top[j] = top[j - 1];
		}
		v[j] = r;
		top[j] = acts[i];
	}
	return nt;
}

/* The posts the engine allows now that the model proposes on st0. */
static int
bl_candidates(struct bl *bl, struct legal_path *lp, model_state *st0,
    struct action *eng, struct action *mbuf, int mcap, uint8_t *mark)
{
	int n, nm, ill, i, k = 0, nf = bl->b->p->nfronts;

	n = legal_enumerate(bl->lg, lp, eng);
	if (wmodel_ops.legal_actions(bl->b->wm, st0, mbuf, mcap, &nm,
	    &ill) != MODEL_OK)
		return 0;
	for (i = 0; i < nm; i++)
		if (mbuf[i].kind == ACTION_POST)
			mark[1 + mbuf[i].draft * nf + mbuf[i].front] = 1;
	for (i = 0; i < n; i++)
		if (eng[i].kind == ACTION_POST &&
		    mark[1 + eng[i].draft * nf + eng[i].front])
			eng[k++] = eng[i];
	for (i = 0; i < nm; i++)
		if (mbuf[i].kind == ACTION_POST)
			mark[1 + mbuf[i].draft * nf + mbuf[i].front] = 0;
	return k;
}

/* Greedy, slot by slot, until the horizon or the budget's end. */
static void
bl_greedy(struct bl *bl)
{
	const struct project *p = bl->b->p;
	int mcap = p->ndrafts * p->nfronts + 16, n, nt, i, k, best;
	struct action *eng = xcalloc(legal_max_actions(bl->lg), sizeof *eng);
	struct action *mbuf = xcalloc(mcap, sizeof *mbuf), top[BL_SCREEN];
	struct action wait = { ACTION_WAIT, 0, 0 };
	uint8_t *mark = xcalloc(mcap + 1, 1);
	struct legal_path *lp = legal_path_new(bl->lg);
	model_state *st[BL_SAMPLES];
	double v, bv, wv;

	for (k = 0; k < BL_SAMPLES; k++) {
		wmodel_ops.seed(bl->b->wm, BL_SEEDS + (uint64_t)k);
		if (wmodel_ops.sample_hidden(bl->b->wm, &st[k]) != MODEL_OK)
			abort();
	}
	legal_path_reset(bl->lg, lp);
	while (!legal_path_done(bl->lg, lp) && clock_seconds() < bl->until) {
		bl_tick(bl);
		n = bl_candidates(bl, lp, st[0], eng, mbuf, mcap, mark);
		nt = bl_screen(bl, st[0], eng, n, top);
		wv = bl_step(bl, st, &wait, false);
		for (i = 0, best = -1, bv = wv; i < nt; i++)
			if ((v = bl_step(bl, st, &top[i], false)) > bv) {
				bv = v;
				best = i;
			}
		if (best >= 0)
			bl_add(bl, legal_path_slot(lp), &top[best]);
		bl_step(bl, st, best >= 0 ? &top[best] : &wait, true);
		legal_apply(bl->lg, lp, best >= 0 ? &top[best] : &wait);
	}
	for (k = 0; k < BL_SAMPLES; k++)
		wmodel_ops.state_free(bl->b->wm, st[k]);
	legal_path_free(lp);
	free(mark);
	free(mbuf);
	free(eng);
	bl->value = bl_eval(bl, bl->post, bl->npost);
}

static uint32_t
bl_rand(struct bl *bl, uint32_t n)
{
	bl->rng ^= bl->rng << 13;
	bl->rng ^= bl->rng >> 7;
	bl->rng ^= bl->rng << 17;
	return n > 0 ? (uint32_t)(bl->rng % n) : 0;
}

/* One random change of the plan in c (n posts, room for one more);
 * returns the new count. */
static int
bl_mutate(struct bl *bl, struct blpost *c, int n)
{
	const struct project *p = bl->b->p;
	int i = (int)bl_rand(bl, n), j, slot, h = p->horizon_slots;

	switch (n == 0 ? 4 : bl_rand(bl, 6)) {
	case 0:		/* move */
		slot = c[i].slot + (int)bl_rand(bl, 49) - 24;
		c[i].slot = slot < 0 ? 0 : slot >= h ? h - 1 : slot;
		break;
	case 1:		/* swap */
		j = (int)bl_rand(bl, n);
		slot = c[i].slot;
		c[i].slot = c[j].slot;
		c[j].slot = slot;
		break;
	case 2:		/* re-front */
		c[i].a.front = (uint16_t)bl_rand(bl, p->nfronts);
		break;
	case 3:		/* another draft */
		c[i].a.draft = bl_rand(bl, p->ndrafts);
		break;
	case 4:		/* add */
		c[n].slot = (int)bl_rand(bl, h);
		c[n].a.kind = ACTION_POST;
		c[n].a.draft = bl_rand(bl, p->ndrafts);
		c[n].a.front = (uint16_t)bl_rand(bl, p->nfronts);
		return n + 1;
	default:	/* drop */
		c[i] = c[n - 1];
		return n - 1;
	}
	return n;
}

/* Hill climbing from the plan held until the budget's end. */
static void
bl_local(struct bl *bl)
{
	struct blpost *c = NULL;
	double v;
	int n;

	while (clock_seconds() < bl->until) {
		bl_tick(bl);
		c = xrealloc(c, (bl->npost + 1) * sizeof *c);
		memcpy(c, bl->post, bl->npost * sizeof *c);
		n = bl_mutate(bl, c, bl->npost);
		if ((v = bl_eval(bl, c, n)) > bl->value) {
			if (n > bl->cap) {
				bl->cap = n * 2;
				bl->post = xrealloc(bl->post, bl->cap *
				    sizeof *bl->post);
			}
			memcpy(bl->post, c, n * sizeof *c);
			bl->npost = n;
			bl->value = v;
		}
	}
	free(c);
	bl_tick(bl);
}

static void
bl_write_all(int fd, const void *buf, size_t len)
{
	const char *s = buf;
	ssize_t w;

	while (len > 0 && (w = write(fd, s, len)) > 0) {
		s += w;
		len -= (size_t)w;
	}
}

static int
bl_read_all(int fd, void *buf, size_t len)
{
	char *s = buf;
	ssize_t r;

	while (len > 0 && (r = read(fd, s, len)) > 0) {
		s += r;
		len -= (size_t)r;
	}
	return len == 0 ? 0 : -1;
}

/* A worker's checkpoints from the pipe: each kept where its training
 * value beats the one held. */
static void
bl_collect(struct bl *bl, int fd, int from)
{
	struct blpost *post;
	double v;
	int i, n;

	for (i = from; i < bl->nchecks; i++) {
		if (bl_read_all(fd, &n, sizeof n) != 0 ||
		    bl_read_all(fd, &v, sizeof v) != 0)
			return;
		post = xcalloc(n + 1, sizeof *post);
		if (bl_read_all(fd, post, n * sizeof *post) != 0) {
			free(post);
			return;
		}
		if (bl->at[i] != NULL && bl->atv[i] >= v) {
			free(post);
			continue;
		}
		free(bl->at[i]);
		bl->at[i] = post;
		bl->nat[i] = n;
		bl->atv[i] = v;
	}
}

/* The local search in BL_WORKERS processes, each from its own seed. */
static void
bl_local_workers(struct bl *bl)
{
	int fds[BL_WORKERS][2], w, i, from = bl->next;
	pid_t pid[BL_WORKERS];

	for (w = 0; w < BL_WORKERS; w++) {
		if (pipe(fds[w]) != 0)
			abort();
		PyOS_BeforeFork();
		pid[w] = fork();
		if (pid[w] == 0) {
			PyOS_AfterFork_Child();
			close(fds[w][0]);
			bl->rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(w + 1);
			bl_local(bl);
			for (i = from; i < bl->nchecks; i++) {
				bl_write_all(fds[w][1], &bl->nat[i],
				    sizeof bl->nat[i]);
				bl_write_all(fds[w][1], &bl->atv[i],
				    sizeof bl->atv[i]);
				bl_write_all(fds[w][1], bl->at[i],
				    bl->nat[i] * sizeof *bl->at[i]);
			}
			_exit(0);
		}
		PyOS_AfterFork_Parent();
		close(fds[w][1]);
	}
	for (w = 0; w < BL_WORKERS; w++) {
		if (pid[w] > 0)
			bl_collect(bl, fds[w][0], from);
		close(fds[w][0]);
		if (pid[w] > 0)
			waitpid(pid[w], NULL, 0);
	}
}

/*
 * The baseline's plans at the checkpoint times checks[0..n) (seconds,
 * increasing; the last is its budget), valued by the judge (samples
 * determinizations from BPLAN_SEEDS) into value[].
 */
static void
bl_run(struct bproj *b, const double *checks, int n, int samples,
    double *value)
{
	struct bl bl;
	struct bplan pl;
	int i;

	memset(&bl, 0, sizeof bl);
	bl.b = b;
	bl.lg = bproj_legal(b);
	bl.checks = checks;
	bl.nchecks = n < BL_CHECKS ? n : BL_CHECKS;
	bl.t0 = clock_seconds();
	bl.until = bl.t0 + checks[bl.nchecks - 1];
	bl_greedy(&bl);
	bl_local_workers(&bl);
	for (i = 0; i < bl.nchecks; i++) {
		bl_bplan(b, bl.at[i], bl.nat[i], &pl);
		value[i] = bplan_value_lg(b, bl.lg, &pl, samples, BPLAN_SEEDS);
		bplan_free(&pl);
		free(bl.at[i]);
	}
	free(bl.post);
	legal_free(bl.lg);
}

#endif
