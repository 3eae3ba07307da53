/* SPDX-License-Identifier: ISC */
/* engine.c: usage samples and tasks from the record stream (engine.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "declared.h"
#include "engine.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "util.h"

#define NGAPS 31		/* sampling gaps kept per GPU, for the median */
#define PAIR_MAX (50 * NS_PER_MS)
#define SUBSET_MAX 16		/* waiting tasks searched exhaustively */
#define NGCACHE 64		/* GPUs remembered by index */
#define RECENCY_S 60.0		/* a release is this likely within a minute */
#define PARTIAL 0.2		/* a part given back, against a whole */

/* A process's life on a GPU: live, then waiting for its memory. */
struct ptask {
	uint32_t pid;
	char *name;
	uint64_t start, last, end;
	uint32_t peak, held, cur;
	uint32_t remaining;	/* waiting: MiB not yet back */
	uint64_t after;		/* device samples judged since the end */
};

struct gpu {
	char *host;
	uint32_t gpu;
	struct hmap live;	/* pid -> struct ptask */
	int64_t attributed;
	struct ptask **wait;	/* in order of their ends */
	size_t nwait, capwait;
	int have_base;
	int64_t base;		/* unattributed level with nothing waiting */
	int have_sample;
	int64_t unattr;
	uint64_t last_ts;
	uint64_t gaps[NGAPS];
	size_t ngaps, gnext;
	uint64_t interval;	/* the median of gaps, kept up to date */
	uint64_t nsamples;
	uint64_t pair;		/* the pairing window that follows from it */
	struct dgpu *decl;	/* declared tasks (declared.h) */
	uint64_t ntasks;
};

/* A device sample waiting for the process records of its poll. */
struct pending {
	struct gpu *g;
	uint64_t ts;
	unsigned has;
	uint32_t used, free, total;
};

struct engine {
	const struct config *cfg;
	struct engine_cb cb;
	struct hmap gpus;	/* "host\0gpu" -> struct gpu */
	struct pending *pend;	/* a ring */
	size_t phead, pcount, pcap;
	size_t nlive;
	struct engine_stats st;
	uint64_t maxdelay;
	uint64_t negative;	/* samples with attributed > usage */
	struct sbuf key;
	int started;
	struct gpu *gcache[NGCACHE];	/* GPUs looked up lately */
	struct declared *decl;	/* NULL: no task declared */
};

struct engine *
engine_new(const struct config *cfg, const struct engine_cb *cb)
{
	struct engine *e = ecalloc(1, sizeof(*e));

	e->cfg = cfg;
	e->cb = *cb;
	return e;
}

/* The GPU's state, or NULL when it is new and ENGINE_MAXGPUS are known. */
static struct gpu *
gpu_of(struct engine *e, const char *host, uint32_t gpu)
{
	struct gpu **c = &e->gcache[gpu % NGCACHE];
	void **v;
	struct gpu *g;

	/* Records come from a few GPUs in turn: look here first. */
	if (*c != NULL && (*c)->gpu == gpu && strcmp((*c)->host, host) == 0)
		return *c;
	gpu_key(&e->key, host, gpu);
	if (e->gpus.n >= ENGINE_MAXGPUS) {
		v = hmap_get(&e->gpus, e->key.buf, e->key.len);
		return v != NULL ? *v : NULL;
	}
	v = hmap_put(&e->gpus, e->key.buf, e->key.len, NULL);
	if (*v == NULL) {
		g = ecalloc(1, sizeof(*g));
		g->host = estrdup(host);
		g->gpu = gpu;
		*v = g;
	}
	*c = *v;
	return *v;
}

void
engine_declare(struct engine *e, const char *host, uint32_t gpu,
    const char *name, uint64_t start, uint64_t end)
{
	struct gpu *g = gpu_of(e, host, gpu);

	if (g == NULL) {
		e->st.gpucapped++;
		return;
	}
	if (declared_count(g->decl) >= ENGINE_MAXWAIT) {
		e->st.declcapped++;
		return;
	}
	declared_add(&e->decl, &g->decl, host, gpu, name, start, end);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The GPU's sampling interval: the median of its recent gaps. */
static uint64_t
interval_of(const struct gpu *g)
{
	return g->interval;
}

/*
 * A new gap between samples: update the median (kept, not computed on
 * each use: the pairing window is asked for on every record).
 */
static void
add_gap(struct gpu *g, uint64_t gap)
{
	uint64_t v[NGAPS];

	g->gaps[g->gnext] = gap;
	g->gnext = (g->gnext + 1) % NGAPS;
	if (g->ngaps < NGAPS)
		g->ngaps++;
	/* Often enough to follow a change, seldom enough to cost nothing. */
	if (g->ngaps < NGAPS || (g->nsamples++ & 63) == 0) {
		memcpy(v, g->gaps, g->ngaps * sizeof(v[0]));
		qsort(v, g->ngaps, sizeof(v[0]), cmp_u64);
		g->interval = v[g->ngaps / 2];
		g->pair = g->interval / 2 < PAIR_MAX ? g->interval / 2 :
		    PAIR_MAX;
	}
}

/* How far after a device sample its poll's process records may come. */
static uint64_t
pair_window(const struct gpu *g)
{
	return g->interval != 0 ? g->pair : PAIR_MAX;
}

static void
emit_task(struct engine *e, struct gpu *g, const char *name, uint32_t pid,
    uint64_t start, uint64_t end, uint32_t peak, uint32_t held,
    uint64_t release, int has_leaked, uint32_t leaked,
    enum task_status status, int declared)
{
	struct task t;
	const char *cfgname = pid != 0 ? config_task_name(e->cfg, pid, name) :
	    NULL;

	memset(&t, 0, sizeof(t));
	t.host = g->host;
	t.gpu = g->gpu;
	t.pid = pid;
	t.name = cfgname != NULL ? cfgname : name;
	t.start = start;
	t.end = end;
	t.peak = peak;
	t.held = held;
	t.status = status;
	t.interval = interval_of(g);
	t.declared = declared;
	t.has_leaked = has_leaked;
	t.leaked = leaked;
	if (status == TASK_RELEASED) {
		t.release = release > end ? release : end;
		t.delay = t.release - end;
		if (t.delay > e->maxdelay)
			e->maxdelay = t.delay;
		e->st.released++;
	} else if (status == TASK_LEAKED) {
		e->st.leaked++;
		if (has_leaked)
			e->st.leaked_mib += leaked;
		else
			e->st.unknown++;
	} else
		e->st.running++;
	e->st.tasks++;
	if (e->cb.task != NULL)
		e->cb.task(e->cb.ctx, &t);
}

static void
ptask_free(void *p)
{
	struct ptask *t = p;

	if (t == NULL)
		return;
	free(t->name);
	free(t);
}

static void
release_waiting(struct engine *e, struct gpu *g, size_t i, uint64_t ts)
{
	struct ptask *t = g->wait[i];

	emit_task(e, g, t->name, t->pid, t->start, t->end, t->peak, t->held,
	    ts, 1, 0, TASK_RELEASED, 0);
	ptask_free(t);
	memmove(g->wait + i, g->wait + i + 1,
	    (g->nwait - i - 1) * sizeof(*g->wait));
	g->nwait--;
}

/*
 * How likely a waiting task is to be giving its memory back now: tasks
 * that ended a moment ago, far more than a leak from an hour ago (which
 * can still come back: a stuck process is killed at last).
 */
static double
recency(const struct ptask *t, uint64_t ts)
{
	double age = ts > t->end ? (double)(ts - t->end) / NS_PER_SEC : 0;

	return log(1.0 / (1.0 + age / RECENCY_S));
}

/* The search for the likeliest set of waiting tasks (explain_drop). */
struct subsets {
	const struct gpu *g;
	size_t off, n;		/* the candidates: g->wait[off, off + n) */
	int64_t r, tol;
	const double *score;
	int64_t low[SUBSET_MAX + 1];	/* low[k]: what bits 0..k-1 hold */
	int found;
	double best;
	int64_t besterr;
	uint32_t set;
};

/* A candidate set m whose memory makes up sum. */
static void
subset_leaf(struct subsets *x, uint32_t m, int64_t sum)
{
	int64_t err = sum > x->r ? sum - x->r : x->r - sum;
	double sc = 0;
	size_t i;

	if (m == 0 || err > x->tol)
		return;
	for (i = 0; i < x->n; i++)
		if (m & (1U << i))
			sc += x->score[i];
	if (!x->found || sc > x->best + 1e-9 || (sc > x->best - 1e-9 &&
	    (err < x->besterr || (err == x->besterr && m > x->set)))) {
		x->found = 1;
		x->best = sc;
		x->besterr = err;
		x->set = m;
	}
}

/*
 * Bits above i are chosen (m, making up sum): choose bit i, leaving it
 * out first, so that sets are met in increasing order of m as a plain
 * count from 1 would meet them.  A branch whose sum is past r + tol, or
 * cannot reach r - tol with all the rest, holds no candidate: a hostile
 * log keeping many tasks waiting costs far less than 2^SUBSET_MAX a
 * sample.
 */
static void
subset_search(struct subsets *x, int i, uint32_t m, int64_t sum)
{
	if (sum > x->r + x->tol || sum + x->low[i + 1] < x->r - x->tol)
		return;
	if (i < 0) {
		subset_leaf(x, m, sum);
		return;
	}
	subset_search(x, i - 1, m, sum);
	subset_search(x, i - 1, m | 1U << i,
	    sum + x->g->wait[x->off + (size_t)i]->remaining);
}

/*
 * Who gave back r MiB at ts?  Candidates are sets of waiting tasks whose
 * memory makes up r within the tolerance (each wholly released), and any
 * single task holding more than r (released in part).  The likeliest wins:
 * the sum of the members' recency, a part counting for less than a whole
 * (PARTIAL).  Ties go to the closer set, then to the later tasks.  Return
 * 1 with a set in *set (bits over the last SUBSET_MAX waiting tasks), 2
 * with a partial giver in *part, or 0 when nothing explains the drop.
 */
static int
explain_drop(const struct gpu *g, int64_t r, int64_t tol, uint64_t ts,
    uint32_t *set, size_t *part)
{
	size_t n = g->nwait < SUBSET_MAX ? g->nwait : SUBSET_MAX;
	double score[SUBSET_MAX], bestpart = 0;
	struct subsets x;
	int foundpart = 0;
	size_t i;

	memset(&x, 0, sizeof(x));
	x.g = g;
	x.n = n;
	x.off = g->nwait - n;
	x.r = r;
	x.tol = tol;
	x.score = score;
	for (i = 0; i < n; i++) {
		score[i] = recency(g->wait[x.off + i], ts);
		x.low[i + 1] = x.low[i] + g->wait[x.off + i]->remaining;
	}
	subset_search(&x, (int)n - 1, 0, 0);
	if (x.found)
		*set = x.set;
	for (i = 0; i < g->nwait; i++) {
		const struct ptask *t = g->wait[i];
		double sc;

		if ((int64_t)t->remaining <= r + tol)
			continue;
		sc = recency(t, ts) + log(PARTIAL);
		if (!foundpart || sc >= bestpart) {
			foundpart = 1;
			bestpart = sc;
			*part = i;
		}
	}
	if (x.found && (!foundpart || x.best >= bestpart))
		return 1;
	return foundpart ? 2 : 0;
}

/* A device sample after tasks ended: has memory come back? */
static void
judge(struct engine *e, struct gpu *g, uint64_t ts)
{
	int64_t tol = e->cfg->tolerance, pending = 0, r;
	uint32_t m = 0;
	size_t i, part = 0;

	for (i = 0; i < g->nwait; i++)
		pending += g->wait[i]->remaining;
	/* What has come back: what is pending minus what is still out. */
	r = pending - (g->unattr - g->base);
	if (r <= tol)
		return;
	switch (explain_drop(g, r, tol, ts, &m, &part)) {
	case 1: {
		size_t n = g->nwait < SUBSET_MAX ? g->nwait : SUBSET_MAX;
		size_t off = g->nwait - n;

		for (i = n; i > 0; i--)
			if (m & (1U << (i - 1)))
				release_waiting(e, g, off + i - 1, ts);
		break;
	}
	case 2:
		g->wait[part]->remaining -= (uint32_t)r;
		break;
	default:
		/* More than any task holds and no set matches: spread it,
		 * the most recently ended first. */
		for (i = g->nwait; i > 0 && r > 0; i--) {
			struct ptask *t = g->wait[i - 1];
			int64_t take = r < t->remaining ? r : t->remaining;

			t->remaining -= (uint32_t)take;
			r -= take;
			if (t->remaining <= tol)
				release_waiting(e, g, i - 1, ts);
		}
		break;
	}
	if (g->nwait == 0)
		g->have_base = 0;
}

/* A declared task judged (declared.h): ctx is the engine, gp the GPU. */
static void
emit_declared(void *ctx, void *gp, const struct declared_task *d)
{
	emit_task(ctx, gp, d->name, 0, d->start, d->end, d->peak, d->held,
	    d->release, d->has_leaked, d->leaked, d->status, 1);
}

/* A device sample, now that its poll's process records are in. */
static void
evaluate(struct engine *e, const struct pending *p)
{
	struct gpu *g = p->g;
	const struct cfg_device *dev;
	struct sample s;
	int64_t usage;
	size_t i;

	memset(&s, 0, sizeof(s));
	s.ts = p->ts;
	s.host = g->host;
	s.gpu = g->gpu;
	s.has_total = (p->has & REC_TOTAL) != 0;
	s.has_free = (p->has & REC_FREE) != 0;
	s.total = p->total;
	s.free = p->free;
	if (!s.has_total && (dev = config_device(e->cfg, g->host,
	    g->gpu)) != NULL && dev->has_total) {
		s.has_total = 1;
		s.total = dev->total;
	}
	if (s.has_total && s.has_free && s.total >= s.free)
		usage = (int64_t)s.total - s.free;
	else if (p->has & REC_USED)
		usage = p->used;
	else {
		e->st.nousage++;
		return;
	}
	e->st.samples++;
	if (g->have_sample && p->ts > g->last_ts)
		add_gap(g, p->ts - g->last_ts);
	s.usage = (uint32_t)usage;
	s.attributed = (uint32_t)(g->attributed > UINT32_MAX ? UINT32_MAX :
	    g->attributed);
	s.unattributed = usage - g->attributed;
	if (s.unattributed < 0)
		e->negative++;
	if (e->cb.sample != NULL)
		e->cb.sample(e->cb.ctx, &s);
	g->have_sample = 1;
	g->unattr = s.unattributed;
	g->last_ts = p->ts;
	declared_sample(e->decl, &g->decl, g->host, g->gpu, p->ts, usage,
	    e->cfg, emit_declared, e, g);
	if (g->nwait == 0)
		return;
	for (i = 0; i < g->nwait; i++)
		g->wait[i]->after++;
	if (!g->have_base) {
		/* No sample before the ends: take what is out as pending. */
		int64_t pending = 0;

		for (i = 0; i < g->nwait; i++)
			pending += g->wait[i]->remaining;
		g->base = g->unattr - pending;
		g->have_base = 1;
		return;
	}
	judge(e, g, p->ts);
}

/* Judge the device samples whose poll is complete by now (all at end). */
static void
flush(struct engine *e, uint64_t now, int all)
{
	while (e->pcount > 0) {
		struct pending *p = &e->pend[e->phead];

		if (!all && now <= p->ts + pair_window(p->g))
			break;
		e->phead = (e->phead + 1) % e->pcap;
		e->pcount--;
		evaluate(e, p);
	}
}

static void
push_pending(struct engine *e, struct gpu *g, const struct rec *r)
{
	struct pending *p;

	if (e->pcount == ENGINE_MAXPENDING) {
		/* Samples of one instant without end: judge the oldest now. */
		struct pending old = e->pend[e->phead];

		e->phead = (e->phead + 1) % e->pcap;
		e->pcount--;
		e->st.early++;
		evaluate(e, &old);
	}
	if (e->pcount == e->pcap) {
		size_t ncap = e->pcap ? e->pcap * 2 : 64, i;
		struct pending *np = ereallocarray(NULL, ncap, sizeof(*np));

		for (i = 0; i < e->pcount; i++)
			np[i] = e->pend[(e->phead + i) % e->pcap];
		free(e->pend);
		e->pend = np;
		e->pcap = ncap;
		e->phead = 0;
	}
	p = &e->pend[(e->phead + e->pcount) % e->pcap];
	e->pcount++;
	p->g = g;
	p->ts = r->ts;
	p->has = r->has;
	p->used = r->used;
	p->free = r->free;
	p->total = r->total;
}

static void
process(struct engine *e, struct gpu *g, const struct rec *r)
{
	void **v = hmap_get(&g->live, &r->pid, sizeof(r->pid));
	struct ptask *t = v != NULL ? *v : NULL;

	if (!(r->has & REC_USED)) {
		/* Listed, memory unknown (WDDM): alive, nothing to count. */
		if (t != NULL)
			t->last = r->ts;
		return;
	}
	if (r->used > 0) {
		if (t == NULL) {
			if (e->nlive >= ENGINE_MAXLIVE) {
				e->st.capped++;
				return;
			}
			t = ecalloc(1, sizeof(*t));
			t->pid = r->pid;
			t->name = estrdup(r->name);
			t->start = r->ts;
			*hmap_put(&g->live, &r->pid, sizeof(r->pid), NULL) = t;
			e->nlive++;
			g->ntasks++;
		} else if (r->name[0] != '\0' && strcmp(t->name, r->name) != 0) {
			free(t->name);
			t->name = estrdup(r->name);
		}
		g->attributed += (int64_t)r->used - t->cur;
		t->cur = r->used;
		t->held = r->used;
		if (r->used > t->peak)
			t->peak = r->used;
		t->last = r->ts;
		return;
	}
	if (t == NULL)
		return;		/* gone, and never seen holding memory */
	/* The process has gone: its memory waits to come back. */
	g->attributed -= t->cur;
	t->cur = 0;
	t->end = r->ts;
	t->remaining = t->held;
	hmap_del(&g->live, &r->pid, sizeof(r->pid));
	e->nlive--;
	if (g->nwait == 0) {
		g->have_base = g->have_sample;
		g->base = g->unattr;
	}
	if (g->nwait == ENGINE_MAXWAIT) {
		/*
		 * Too many waiting (each device sample weighs them all): the
		 * one that ended first is given up, its memory not back.
		 */
		struct ptask *w = g->wait[0];
		int known = g->have_sample && w->after > 0;

		emit_task(e, g, w->name, w->pid, w->start, w->end, w->peak,
		    w->held, 0, known, known ? w->remaining : 0, TASK_LEAKED,
		    0);
		/* Its memory, never back, is part of the level from now. */
		if (g->have_base)
			g->base += w->remaining;
		ptask_free(w);
		memmove(g->wait, g->wait + 1, --g->nwait * sizeof(*g->wait));
		e->st.waitcapped++;
	}
	if (g->nwait == g->capwait) {
		g->capwait = g->capwait ? g->capwait * 2 : 8;
		g->wait = ereallocarray(g->wait, g->capwait, sizeof(*g->wait));
	}
	g->wait[g->nwait++] = t;
}

void
engine_put(struct engine *e, const struct rec *r)
{
	struct gpu *g;

	e->st.records++;
	flush(e, r->ts, 0);
	g = gpu_of(e, r->host, r->gpu);
	if (g == NULL) {
		e->st.gpucapped++;
		return;
	}
	if (r->pid == 0)
		push_pending(e, g, r);
	else
		process(e, g, r);
}

static int
by_start(const void *a, const void *b)
{
	const struct ptask *x = *(struct ptask *const *)a;
	const struct ptask *y = *(struct ptask *const *)b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int
by_gpu(const void *a, const void *b)
{
	const struct gpu *x = *(struct gpu *const *)a;
	const struct gpu *y = *(struct gpu *const *)b;
	int c = strcmp(x->host, y->host);

	if (c != 0)
		return c;
	return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

/* The end of the stream for one GPU: leaks, unknowns, running tasks. */
static void
finish_gpu(struct engine *e, struct gpu *g)
{
	struct ptask **live = NULL;
	struct hent *h;
	size_t it = 0, n = 0, i;

	for (i = 0; i < g->nwait; i++) {
		struct ptask *t = g->wait[i];
		int known = g->have_sample && t->after > 0;

		emit_task(e, g, t->name, t->pid, t->start, t->end, t->peak,
		    t->held, 0, known, known ? t->remaining : 0, TASK_LEAKED,
		    0);
		ptask_free(t);
	}
	g->nwait = 0;
	while ((h = hmap_next(&g->live, &it)) != NULL) {
		live = egrow(live, n, sizeof(*live));
		live[n++] = h->val;
	}
	if (n > 1)
		qsort(live, n, sizeof(*live), by_start);
	for (i = 0; i < n; i++)
		emit_task(e, g, live[i]->name, live[i]->pid, live[i]->start,
		    live[i]->last, live[i]->peak, live[i]->held, 0, 1, 0,
		    TASK_RUNNING, 0);
	free(live);
	declared_finish(e->decl, g->decl, emit_declared, e, g);
}

void
engine_end(struct engine *e)
{
	struct gpu **v = NULL;
	struct hent *h;
	size_t it = 0, n = 0, i;

	flush(e, 0, 1);
	while ((h = hmap_next(&e->gpus, &it)) != NULL) {
		v = egrow(v, n, sizeof(*v));
		v[n++] = h->val;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_gpu);
	for (i = 0; i < n; i++)
		finish_gpu(e, v[i]);
	free(v);
}

const struct engine_stats *
engine_stats(const struct engine *e)
{
	return &e->st;
}

void
engine_warnings(const struct engine *e)
{
	if (e->st.unknown > 0)
		warnmsg("%llu tasks ended on GPUs without whole-device "
		    "samples: whether their memory came back is unknown (give "
		    "the --query-gpu log of the same run too)",
		    (unsigned long long)e->st.unknown);
	if (e->negative > 0)
		note("%llu device samples showed less memory in use than the "
		    "processes held (the logs' clocks disagree)",
		    (unsigned long long)e->negative);
	if (e->st.capped > 0)
		warnmsg("more than %d processes alive at once: %llu records "
		    "of the ones beyond were not tracked", ENGINE_MAXLIVE,
		    (unsigned long long)e->st.capped);
	if (e->st.gpucapped > 0)
		warnmsg("more than %d GPUs: %llu records of the GPUs beyond "
		    "were not analysed", ENGINE_MAXGPUS,
		    (unsigned long long)e->st.gpucapped);
	if (e->st.waitcapped > 0)
		warnmsg("more than %d tasks waiting for their memory on one "
		    "GPU: %llu of them given up as leaked before the end of "
		    "the data", ENGINE_MAXWAIT,
		    (unsigned long long)e->st.waitcapped);
	if (e->st.declcapped > 0)
		warnmsg("more than %d tasks declared on one GPU: %llu of them "
		    "left out", ENGINE_MAXWAIT,
		    (unsigned long long)e->st.declcapped);
	if (e->st.early > 0)
		note("more than %d device samples at one time: %llu judged "
		    "before all the process records of their poll were in",
		    ENGINE_MAXPENDING, (unsigned long long)e->st.early);
	if (e->st.nousage > 0)
		note("%llu device samples had no usable memory values",
		    (unsigned long long)e->st.nousage);
}

static void
gpu_free(void *p)
{
	struct gpu *g = p;
	size_t i;

	hmap_release(&g->live, ptask_free);
	for (i = 0; i < g->nwait; i++)
		ptask_free(g->wait[i]);
	free(g->wait);
	declared_free_gpu(g->decl);
	free(g->host);
	free(g);
}

void
engine_free(struct engine *e)
{
	if (e == NULL)
		return;
	hmap_release(&e->gpus, gpu_free);
	declared_free(e->decl);
	free(e->pend);
	sbuf_release(&e->key);
	free(e);
}
