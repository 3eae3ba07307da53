/* SPDX-License-Identifier: ISC */
/* declared.c: declared tasks judged from usage alone (declared.h). */
#include <stdlib.h>
#include <string.h>

#include "declared.h"
#include "episode.h"
#include "util.h"

#define SUBSET_MAX 12		/* waiting tasks weighed together at once */
#define NHOSTS 4		/* data hosts named in a warning */
#define NNOTES 10		/* notes printed */

enum dstate { D_PENDING, D_RUNNING, D_WAITING, D_DONE };

struct dtask {
	char *name;
	uint32_t pid;
	uint64_t start, end;
	uint64_t from, until;	/* its start and end as judged (declared.h) */
	enum dstate state;
	int64_t held, peak;
	int64_t out;		/* waiting: MiB of it not back yet */
	const char *note;
};

struct dgpu {
	char *host;
	uint32_t gpu;
	struct dtask *t;	/* in order of from */
	size_t n;
	size_t first;		/* t[0, first) are done */
	int have_prev;
	uint64_t prev_ts;
	int64_t prev_u;		/* usage at the previous sample */
	size_t nrun, nwait;
	int64_t ref;		/* waiting: the level if nothing came back */
	int64_t last_r;		/* what had come back at the previous sample */
	int seg;		/* the rise of a start is being measured */
	size_t seg_lo, seg_hi;	/* its tasks: running ones in t[lo, hi) */
	size_t seg_k;
	int64_t seg_rise;
	uint64_t seg_ts;	/* its start, or its latest rise */
	int64_t early;		/* MiB given back while none waited */
	int64_t extra;		/* MiB of rises no declared task took */
	int64_t dip;		/* MiB that came back at the last sample,
				   unclaimed, while tasks waited */
	int rising;		/* usage rose at the last sample */
	int wild;		/* tasks without a host (host "") */
	unsigned taken;		/* hosts that took them */
	char *takenby;		/* the first of those */
};

struct declared {
	struct dgpu **wild;	/* the GPUs of tasks without a host */
	size_t nwild;
	char *hosts[NHOSTS];	/* hosts of the data, as seen */
	size_t nhosts;
	int morehosts;
	unsigned notes;
	int warned_multi, warned_nodata;
};

static struct dgpu *
dgpu_new(const char *host, uint32_t gpu)
{
	struct dgpu *g = ecalloc(1, sizeof(*g));

	g->host = estrdup(host);
	g->gpu = gpu;
	return g;
}

/* Insert a task, keeping t[] in order of from. */
static void
dgpu_insert(struct dgpu *g, uint32_t pid, const char *name, uint64_t start,
    uint64_t end, uint64_t from, uint64_t until)
{
	size_t i;

	g->t = egrow(g->t, g->n, sizeof(*g->t));
	for (i = g->n; i > 0 && g->t[i - 1].from > from; i--)
		g->t[i] = g->t[i - 1];
	memset(&g->t[i], 0, sizeof(g->t[i]));
	g->t[i].name = estrdup(name);
	g->t[i].pid = pid;
	g->t[i].start = start;
	g->t[i].end = end;
	g->t[i].from = from;
	g->t[i].until = until;
	g->n++;
}

void
declared_add(struct declared **dp, struct dgpu **gp, const char *host,
    uint32_t gpu, uint32_t pid, const char *name, uint64_t start,
    uint64_t end, uint64_t from, uint64_t until)
{
	struct declared *d = *dp;

	if (d == NULL)
		d = *dp = ecalloc(1, sizeof(*d));
	if (*gp == NULL)
		*gp = dgpu_new(host, gpu);
	if (host[0] == '\0' && !(*gp)->wild) {
		(*gp)->wild = 1;
		d->wild = egrow(d->wild, d->nwild, sizeof(*d->wild));
		d->wild[d->nwild++] = *gp;
	}
	dgpu_insert(*gp, pid, name, start, end, from, until);
}

size_t
declared_count(const struct dgpu *g)
{
	return g != NULL ? g->n : 0;
}

/*
 * The first sample of a GPU: remember its host for messages, and give it
 * the tasks without a host declared for its index.
 */
static void
attach(struct declared *d, struct dgpu *g)
{
	size_t i, j;

	for (i = 0; i < d->nhosts; i++)
		if (strcmp(d->hosts[i], g->host) == 0)
			break;
	if (i == d->nhosts) {
		if (d->nhosts < NHOSTS)
			d->hosts[d->nhosts++] = estrdup(g->host);
		else
			d->morehosts = 1;
	}
	if (g->host[0] == '\0')
		return;		/* they are its own */
	for (i = 0; i < d->nwild; i++) {
		struct dgpu *w = d->wild[i];

		if (w->gpu != g->gpu)
			continue;
		for (j = 0; j < w->n; j++)
			dgpu_insert(g, w->t[j].pid, w->t[j].name, w->t[j].start,
			    w->t[j].end, w->t[j].from, w->t[j].until);
		if (w->taken++ == 0)
			w->takenby = estrdup(g->host);
		else if (!d->warned_multi) {
			d->warned_multi = 1;
			warnmsg("--tasks: tasks without a host for GPU %u are "
			    "judged on every host that has it ('%s', '%s'...): "
			    "give a host column", g->gpu, w->takenby, g->host);
		}
	}
}

static void
note_task(struct declared *d, const struct dgpu *g, const struct dtask *t)
{
	if (t->note == NULL)
		return;
	if (d->notes++ < NNOTES)
		warnmsg("%s%sGPU %u: declared task '%s': %s", g->host,
		    g->host[0] != '\0' ? " " : "", g->gpu, t->name, t->note);
	else if (d->notes == NNOTES + 1)
		warnmsg("more notes on declared tasks not shown");
}

static uint32_t
mib(int64_t v)
{
	return v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void
emit(struct declared *d, struct dgpu *g, struct dtask *t,
    enum task_status status, uint64_t release, uint64_t lo, int has_leaked,
    int64_t leaked, declared_emit_fn *fn, void *ctx, void *gpu_ctx)
{
	struct declared_task o;

	memset(&o, 0, sizeof(o));
	o.host = g->host;
	o.gpu = g->gpu;
	o.name = t->name;
	o.pid = t->pid;
	o.start = t->start;
	o.end = t->end;
	o.peak = mib(t->peak);
	o.held = mib(t->held);
	o.status = status;
	o.note = t->note;
	if (status == TASK_RELEASED) {
		o.release = release;
		o.delay_max = release - t->until;
		o.delay_min = lo > t->end ? lo - t->end : 0;
	}
	o.has_leaked = has_leaked;
	o.leaked = mib(leaked);
	t->state = D_DONE;
	note_task(d, g, t);
	fn(ctx, gpu_ctx, &o);
}

/* Note what the data could not tell about t (the first thing said stays). */
static void
say(struct dtask *t, const char *note)
{
	if (t->note == NULL)
		t->note = note;
}

static void
grow(struct dtask *t, int64_t delta)
{
	t->held += delta;
	if (t->held < 0)
		t->held = 0;
	if (t->held > t->peak)
		t->peak = t->held;
}

/*
 * Which waiting tasks came back, r MiB in all?  The set whose memory not
 * yet back makes up the most of r without exceeding r + tol, over the
 * earliest SUBSET_MAX waiting (w[] in order of end).  Among sets as good
 * (within the tolerance), the one with more tasks given back whole (not
 * the rest of a part given back before: that is a leak's pattern), then
 * the one of later ended tasks (memory comes back soon after an end, as
 * the engine weighs it).  With exact, the set must make up all of r
 * (within tol): while tasks run, the rest may be one of them ending
 * before its declared end, whose memory is not the waiting tasks'.
 * Return the set as bits over w[], 0 for none; *tie is set when another
 * set fits as well.
 */
static uint32_t
best_set(struct dtask **w, size_t n, int64_t r, int64_t tol, int exact,
    int *tie)
{
	uint32_t m, best = 0;
	int64_t bestsum = 0;
	int bestwhole = 0;
	size_t i;

	*tie = 0;
	for (m = 1; m < (1U << n); m++) {
		int64_t sum = 0;
		int whole = 0;

		for (i = 0; i < n; i++)
			if (m & (1U << i)) {
				sum += w[i]->out;
				whole += w[i]->out == w[i]->held;
			}
		if (sum > r + tol || (exact && sum < r - tol))
			continue;
		if (best == 0 || sum > bestsum + tol) {
			*tie = 0;
		} else if (sum >= bestsum - tol) {
			*tie = 1;
			/* Counting up, a later m has later tasks. */
			if (whole < bestwhole)
				continue;
		} else
			continue;
		bestsum = sum;
		bestwhole = whole;
		best = m;
	}
	return best;
}

/* Release what came back at ts (ref - usage, r MiB). */
static void
judge(struct declared *d, struct dgpu *g, uint64_t ts, int64_t usage,
    int64_t tol, declared_emit_fn *fn, void *ctx, void *gpu_ctx)
{
	struct dtask *w[SUBSET_MAX];
	int64_t r = g->ref - usage;
	uint32_t set;
	size_t i, n = 0;
	int tie;

	/* Nothing moved since the last sample: nothing new to explain. */
	if (r == g->last_r)
		return;
	g->last_r = r;
	/*
	 * The waiting, in order of end.  One that held nothing to speak of
	 * is back at once: it needs no drop.
	 */
	for (i = g->first; i < g->n && n < SUBSET_MAX; i++) {
		if (g->t[i].state != D_WAITING)
			continue;
		if (g->t[i].out <= tol) {
			g->ref -= g->t[i].out;
			g->nwait--;
			emit(d, g, &g->t[i], TASK_RELEASED, ts, g->prev_ts, 1,
			    0, fn, ctx, gpu_ctx);
			r = g->ref - usage;
		} else
			w[n++] = &g->t[i];
	}
	if (n == 0)
		return;
	for (i = 1; i < n; i++) {
		struct dtask *x = w[i];
		size_t j;

		for (j = i; j > 0 && w[j - 1]->end > x->end; j--)
			w[j] = w[j - 1];
		w[j] = x;
	}
	set = best_set(w, n, r, tol, g->nrun > 0, &tie);
	if (set == 0)
		return;
	for (i = 0; i < n; i++) {
		if (!(set & (1U << i)))
			continue;
		if (tie)
			say(w[i], "the memory that came back fits other "
			    "waiting tasks as well: which ones were released "
			    "then cannot be told");
		else if ((set & (set - 1)) != 0)
			say(w[i], "its memory came back in one step with "
			    "another task's: only their sum was seen");
		g->ref -= w[i]->out;
		g->nwait--;
		emit(d, g, w[i], TASK_RELEASED, ts, g->prev_ts, 1, 0, fn, ctx,
		    gpu_ctx);
	}
	g->last_r = g->ref - usage;
}

/* Whether a fall of r MiB is all the memory of waiting tasks. */
static int
claimed(const struct dgpu *g, int64_t r, int64_t tol)
{
	struct dtask *w[SUBSET_MAX];
	size_t i, n = 0;
	int tie;

	for (i = g->first; i < g->n && n < SUBSET_MAX; i++)
		if (g->t[i].state == D_WAITING && g->t[i].out > tol)
			w[n++] = &g->t[i];
	return n > 0 && best_set(w, n, r, tol, 1, &tie) != 0;
}

/*
 * Tasks end between the previous sample and this one: what they leave is
 * judged against prev, the level just before.  What had come back of the
 * tasks already waiting (ref - prev) is theirs, the earliest ended first:
 * a part given back is not given back again.
 */
static void
anchor(struct dgpu *g, int64_t prev)
{
	int64_t back = g->nwait > 0 ? g->ref - prev : 0;

	while (back > 0) {
		struct dtask *w = NULL;
		int64_t take;
		size_t j;

		for (j = g->first; j < g->n; j++)
			if (g->t[j].state == D_WAITING && g->t[j].out > 0 &&
			    (w == NULL || g->t[j].end < w->end))
				w = &g->t[j];
		if (w == NULL)
			break;
		take = back < w->out ? back : w->out;
		w->out -= take;
		back -= take;
	}
	g->ref = prev;
	g->last_r = INT64_MIN;	/* judge this sample anew */
}

/*
 * A task ends between the previous sample and this one (prev is the level
 * at the previous).  Memory that came back before and that no waiting task
 * has claimed may be its own: its process ended before its declared end.
 * It is when that covers all of its memory (the waiting tasks' partial
 * returns, ref - prev, first: a whole task matched beats a leak's part),
 * or, for what was given back while none waited (g->early), when it ran
 * alone (then what does not cover it is what it shrank by).  Then it is
 * released at once, with no delay.  Return whether it was.
 */
static int
end_early(struct declared *d, struct dgpu *g, struct dtask *t, int64_t prev,
    int64_t tol, declared_emit_fn *fn, void *ctx, void *gpu_ctx)
{
	int64_t take;

	if (t->held <= tol)
		return 0;
	if (g->nwait > 0 && g->ref - prev >= t->held - tol) {
		g->ref -= t->held;
		goto early;
	}
	if (g->early <= tol)
		return 0;
	if (g->nrun == 1) {
		take = g->early < t->held ? g->early : t->held;
		g->early -= take;
		if (take < t->held - tol) {
			t->held -= take;	/* it shrank: held at its end */
			return 0;
		}
	} else if (g->early >= t->held - tol)
		g->early = g->early > t->held ? g->early - t->held : 0;
	else
		return 0;
early:
	say(t, "its memory came back before its declared end");
	g->nrun--;
	emit(d, g, t, TASK_RELEASED, t->end, t->end, 1, 0, fn, ctx, gpu_ctx);
	return 1;
}

void
declared_sample(struct declared *d, struct dgpu **gp, const char *host,
    uint32_t gpu, uint64_t ts, int64_t usage, const struct config *cfg,
    declared_emit_fn *fn, void *ctx, void *gpu_ctx)
{
	struct dgpu *g;
	int64_t tol, prev, delta;
	size_t i, nstart = 0, lo = 0, hi = 0;
	int ended = 0;

	if (d == NULL)
		return;
	if (*gp == NULL)
		*gp = dgpu_new(host, gpu);
	g = *gp;
	if (!g->have_prev)
		attach(d, g);
	tol = cfg->tolerance;
	if (g->have_prev)
		prev = g->prev_u;
	else {
		/* Nothing before the first sample: the idle level if known. */
		const struct cfg_device *dev = config_device(cfg, host, gpu);

		prev = dev != NULL && dev->has_idle ? dev->idle : usage;
	}
	while (g->first < g->n && g->t[g->first].state == D_DONE)
		g->first++;

	/* The ends since the previous sample: their level is prev. */
	for (i = g->first; i < g->n && g->t[i].from <= ts; i++) {
		struct dtask *t = &g->t[i];

		if ((t->state != D_PENDING && t->state != D_RUNNING) ||
		    t->until > ts)
			continue;
		/* Its rise is no longer being measured. */
		g->seg = 0;
		if (t->state == D_PENDING) {
			say(t, "it started and ended between two samples: "
			    "never seen running");
			g->nrun++;
		} else if (end_early(d, g, t, prev, tol, fn, ctx,
		    gpu_ctx))
			continue;
		if (!ended) {
			anchor(g, prev);
			ended = 1;
		}
		g->nrun--;
		t->state = D_WAITING;
		t->out = t->held;
		g->nwait++;
	}
	/* The starts: their rise is measured from prev. */
	for (i = g->first; i < g->n && g->t[i].from <= ts; i++)
		if (g->t[i].state == D_PENDING) {
			if (nstart++ == 0)
				lo = i;
			hi = i + 1;
			g->t[i].state = D_RUNNING;
			g->nrun++;
		}
	if (nstart > 0) {
		int early_start = g->seg && g->rising;

		if (early_start)
			for (i = g->seg_lo; i < g->seg_hi; i++)
				if (g->t[i].state == D_RUNNING)
					say(&g->t[i], "its usage was still "
					    "rising when the next task started: "
					    "part of its memory may be counted "
					    "as that task's");
		g->seg = 1;
		g->seg_lo = lo;
		g->seg_hi = hi;
		g->seg_k = nstart;
		g->seg_rise = 0;
		g->seg_ts = ts;
		for (i = lo; i < hi; i++) {
			if (g->t[i].state != D_RUNNING)
				continue;
			if (nstart > 1)
				say(&g->t[i], "it started between the same "
				    "two samples as another task: held is "
				    "their joint rise, shared evenly");
			if (early_start)
				say(&g->t[i], "the task before it was still "
				    "rising when it started: its held may "
				    "include part of that one's");
		}
	}

	/*
	 * Whose is the change since the previous sample?  A rise: the
	 * tasks that started last while their ramp goes on, else what was
	 * given back early coming into use again, else nobody (memory of a
	 * process not declared).  A fall: first such memory going again
	 * (unless waiting tasks' memory makes up all of it), then the
	 * waiting tasks giving memory back, else memory given back early by
	 * a running task (whose, its end will tell).
	 */
	delta = usage - prev;
	g->rising = delta > tol;
	if (delta > 0) {
		/*
		 * Back in use at once: what came back at the last sample and
		 * no task claimed was a dip, no return (nor new memory).
		 */
		int64_t undo = delta < g->dip ? delta : g->dip;

		if (g->nwait > 0)
			g->ref += delta - undo;
		delta -= undo;
		/* A ramp is its start's; a rise long after is no task's. */
		if (g->seg && ts - g->seg_ts > EPISODE_RAMP)
			g->seg = 0;
		if (g->seg) {
			g->seg_ts = ts;
			int64_t share;

			g->seg_rise += delta;
			share = g->seg_rise / (int64_t)g->seg_k;
			for (i = g->seg_lo; i < g->seg_hi; i++)
				if (g->t[i].state == D_RUNNING)
					grow(&g->t[i], share - g->t[i].held);
		} else {
			int64_t take = delta < g->early ? delta : g->early;

			g->early -= take;
			g->extra += delta - take;
		}
	} else if (delta < 0) {
		/* Memory nobody declared that goes again is no return. */
		int64_t fall = -delta, take = fall < g->extra ? fall : g->extra;

		if (claimed(g, fall, tol))
			take = 0;

		g->extra -= take;
		if (g->nwait > 0)
			g->ref -= take;
		else
			g->early += fall - take;
	}
	if (g->nrun == 0 && g->nwait == 0)
		g->early = 0;
	if (g->nwait > 0)
		judge(d, g, ts, usage, tol, fn, ctx, gpu_ctx);
	g->dip = 0;
	if (delta < 0 && g->nwait > 0 && g->ref - usage > 0)
		g->dip = g->ref - usage < -delta ? g->ref - usage : -delta;
	g->prev_u = usage;
	g->prev_ts = ts;
	g->have_prev = 1;
}

void
declared_finish(struct declared *d, struct dgpu *g, declared_emit_fn *fn,
    void *ctx, void *gpu_ctx)
{
	int64_t back;
	size_t i;

	if (d == NULL || g == NULL)
		return;
	if (!g->have_prev) {
		if (g->wild && g->taken > 0)
			return;		/* judged on the hosts of the data */
		if (g->n > 0 && !d->warned_nodata) {
			struct sbuf hosts = SBUF_INIT;
			size_t j;

			d->warned_nodata = 1;
			sbuf_adds(&hosts, d->nhosts == 0 ? "no samples" :
			    d->nhosts == 1 && d->hosts[0][0] == '\0' ?
			    "no host names" : d->nhosts == 1 ? "host " :
			    "hosts ");
			for (j = 0; j < d->nhosts; j++)
				if (d->hosts[j][0] != '\0')
					sbuf_printf(&hosts, "%s'%s'", j > 0 ?
					    ", " : "", d->hosts[j]);
				else if (d->nhosts > 1)
					sbuf_printf(&hosts, "%s(no host)",
					    j > 0 ? ", " : "");
			if (d->morehosts)
				sbuf_adds(&hosts, ", ...");
			if (g->wild)
				warnmsg("--tasks: no samples of GPU %u on any "
				    "host for its declared tasks (the data has "
				    "%s): they are reported running", g->gpu,
				    hosts.buf);
			else
				warnmsg("--tasks: no samples of GPU %u on host "
				    "'%s' for its declared tasks (the data has "
				    "%s): they are reported running", g->gpu,
				    g->host, hosts.buf);
			sbuf_release(&hosts);
		}
	}
	/* What had come back at the last sample, earliest ended first. */
	back = g->nwait > 0 ? g->ref - g->prev_u : 0;
	for (;;) {
		struct dtask *w = NULL;

		for (i = g->first; i < g->n; i++)
			if (g->t[i].state == D_WAITING && (w == NULL ||
			    g->t[i].end < w->end))
				w = &g->t[i];
		if (w == NULL)
			break;
		if (back > 0) {
			int64_t take = back < w->out ? back : w->out;

			emit(d, g, w, TASK_LEAKED, 0, 0, 1, w->out - take, fn,
			    ctx, gpu_ctx);
			back -= take;
		} else
			emit(d, g, w, TASK_LEAKED, 0, 0, 1, w->out, fn, ctx,
			    gpu_ctx);
	}
	for (i = g->first; i < g->n; i++)
		if (g->t[i].state != D_DONE)
			emit(d, g, &g->t[i], TASK_RUNNING, 0, 0, 1, 0, fn, ctx,
			    gpu_ctx);
}

void
declared_free_gpu(struct dgpu *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->n; i++)
		free(g->t[i].name);
	free(g->t);
	free(g->host);
	free(g->takenby);
	free(g);
}

void
declared_free(struct declared *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nhosts; i++)
		free(d->hosts[i]);
	free(d->wild);
	free(d);
}
