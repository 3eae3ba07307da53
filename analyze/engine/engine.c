/* SPDX-License-Identifier: ISC */
/* engine.c: usage samples and tasks from the record stream (engine.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "declared.h"
#include "engine.h"
#include "episode.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "recdir.h"
#include "util.h"

#define NGAPS 31		/* gaps kept per cadence, for the median */
#define SUBSET_MAX 16		/* waiting tasks searched exhaustively */
#define NGCACHE 64		/* GPUs remembered by index, per host */
#define RECENCY_S 60.0		/* a release is this likely within a minute */
#define PARTIAL 0.2		/* a part given back, against a whole */
#define NHIST 64		/* judged samples remembered per GPU */
#define CTX_MAX 4096		/* context memory believed, MiB */
#define CTX_SLACK 1024		/* context memory assumed where not seen */
#define RESUME_POLLS 8		/* polls a process may be missing from */
#define LAG_MAX (600 * NS_PER_SEC)	/* poll intervals believed */
#define SAME_POLL NS_PER_MS	/* a listing this soon after: one poll */
#define LOG_STOP 20		/* process intervals of silence to the end */
#define LOG_STOP_MIN (10 * NS_PER_SEC)	/* and at least this */

/* The usual gap between the times of a series: its median, kept current. */
struct cadence {
	uint64_t gaps[NGAPS];
	size_t ngaps, gnext;
	uint64_t n;
	int have;		/* a time was seen */
	uint64_t last;		/* the latest time */
	uint64_t prev;		/* the one before it, 0 when none */
	uint64_t median;	/* 0 while unknown */
};

/* Why a process's identity is in question (struct ptask.suspect). */
enum { SUS_NONE, SUS_RESUMED, SUS_DROP };

/* A process's life on a GPU: live, then waiting for its memory. */
struct ptask {
	uint32_t pid;
	char *name;
	uint64_t start, last, end;
	uint64_t pprev;		/* the poll before its first listing */
	uint32_t peak, held, cur;
	uint32_t prev;		/* cur before its latest change */
	uint64_t curts;		/* the listing that changed cur */
	uint64_t chgprev;	/* the listing before that one */
	uint32_t ctx;		/* device memory it held beyond its listing */
	int ctx_based;		/* ctx was taken out of the GPU's base */
	int have_before;
	int64_t ubefore;	/* unattributed level before it started */
	int have_early, early_done;
	int64_t uearly;		/* the unattributed level at the first judged
				   sample its listing held still around */
	uint64_t nev;		/* the GPU's starts and ends, at its start */
	uint32_t remaining;	/* waiting: MiB not yet back */
	uint64_t after;		/* device samples judged since the end */
	uint64_t lastnot;	/* the latest sample that showed it not back */
	unsigned notes;		/* enum task_note */
	size_t ridx;		/* 1 + its index on gpu.recent, 0 when off */
	int cand;		/* scratch: may give memory back at the sample */
	/* Its identity in question: the life before sus_ts. */
	int suspect;
	uint64_t sus_ts, o_start, o_last, o_end;
	uint32_t o_peak, o_held, o_ctx;
	int64_t sus_u0;		/* unattributed level were it one process */
	uint64_t sus_gone;	/* a device sample between its two listings
				   at the level without it, 0 when none */
};

/* A judged device sample, remembered for the levels before a change. */
struct hist {
	uint64_t ts;
	int64_t unattr;
	uint64_t nev;
};

struct gpu {
	char *host;
	uint32_t gpu;
	struct hmap live;	/* pid -> struct ptask */
	struct ptask *hot;	/* of live, the one found last (live_get) */
	int64_t attributed;	/* the live tasks' latest listings */
	struct ptask **wait;	/* in order of their ends */
	size_t nwait, capwait;
	struct ptask **recent;	/* live tasks whose listing changed lately */
	size_t nrecent;
	struct ptask **sus;	/* live tasks whose identity is in question */
	size_t nsus;
	int have_base;
	int64_t base;		/* unattributed level with nothing waiting */
	uint64_t base_ts;	/* when base was taken */
	int have_sample;
	int64_t unattr;		/* at the latest judged sample */
	struct cadence dev;	/* device samples */
	struct cadence proc;	/* process polls */
	struct cadence cont;	/* a process's listings in a row (gaps) */
	struct hist hist[NHIST];
	size_t nhist, hnext;
	uint64_t nev;		/* tasks started and ended so far */
	int tent;		/* a drop seen once, awaiting the next sample */
	uint64_t tent_ts;
	int64_t tent_r;
	struct dgpu *decl;	/* declared tasks (declared.h) */
	int procs;		/* a process record was seen */
	int have_first;
	int64_t first_unattr;	/* at the first judged sample */
	uint64_t first_ts;	/* that sample's time */
	uint64_t leaked_mib;	/* what its leaked tasks left */
	struct episodes *ep;	/* its usage's episodes, while !procs */
	int64_t unowned;	/* memory that rose amid live tasks, MiB */
	uint64_t unowned_nev;	/* nev at the judged sample before */
};

/* A device sample waiting for the process records around it. */
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
	const struct recdir *rd;	/* gpumem record's procs and holders */
	char *held1;		/* the first episode named after a holder */
	uint64_t negative;	/* samples with attributed > usage */
	struct sbuf key;
	struct hmap hosts;	/* host -> struct hostgpus */
	struct hostgpus *chost;	/* the host looked up last */
	struct declared *decl;	/* NULL: no task declared */
	/* Processes listed with their memory N/A (WDDM): their lives. */
	struct nalife *na;
	size_t nna;
	struct hmap nalive;	/* "host\0gpu pid" -> index + 1 in na */
};

/*
 * The GPUs of one host by index, found without building and hashing a
 * key: the merged stream gives a host's records in runs (a node's GPUs at
 * one time, then the next node's), so with hundreds of hosts a cache by
 * index alone missed on nearly every record.
 */
struct hostgpus {
	char *host;
	struct gpu *g[NGCACHE];	/* NULL: not looked up yet */
};

/* A life of a process whose memory was never listed. */
struct nalife {
	char *host, *name;
	uint32_t gpu, pid;
	uint64_t start, end;	/* end 0: listed until the end */
	uint64_t last;		/* its last listing */
	uint64_t iv;		/* the process log's poll interval, 0: unknown */
};

struct engine *
engine_new(const struct config *cfg, const struct engine_cb *cb)
{
	struct engine *e = ecalloc(1, sizeof(*e));

	e->cfg = cfg;
	e->cb = *cb;
	return e;
}

void
engine_recdir(struct engine *e, const struct recdir *rd)
{
	e->rd = rd;
}

/* The GPU's state, or NULL when it is new and ENGINE_MAXGPUS are known. */
static struct gpu *
gpu_of(struct engine *e, const char *host, uint32_t gpu)
{
	struct hostgpus *h = e->chost;
	void **v;
	struct gpu *g;

	if (h == NULL || strcmp(h->host, host) != 0) {
		/*
		 * Hosts are remembered only while GPUs are (a host has one
		 * at least), so they are bounded by ENGINE_MAXGPUS too.
		 */
		v = e->gpus.n < ENGINE_MAXGPUS ?
		    hmap_put(&e->hosts, host, strlen(host), NULL) :
		    hmap_get(&e->hosts, host, strlen(host));
		if (v != NULL && *v == NULL) {
			h = ecalloc(1, sizeof(*h));
			h->host = estrdup(host);
			*v = h;
		}
		h = e->chost = v != NULL ? *v : NULL;
	}
	if (h != NULL && gpu < NGCACHE && h->g[gpu] != NULL)
		return h->g[gpu];
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
	/* GPUs are never forgotten: what is remembered stays true. */
	if (h != NULL && gpu < NGCACHE)
		h->g[gpu] = *v;
	return *v;
}

/* Declare a task (pid 0) or an estimated one on (host, gpu). */
static void
declare(struct engine *e, const char *host, uint32_t gpu, uint32_t pid,
    const char *name, uint64_t start, uint64_t end, uint64_t from,
    uint64_t until)
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
	declared_add(&e->decl, &g->decl, host, gpu, pid, name, start, end,
	    from, until);
}

void
engine_declare(struct engine *e, const char *host, uint32_t gpu,
    const char *name, uint64_t start, uint64_t end)
{
	declare(e, host, gpu, 0, name, start, end, start, end);
}

void
engine_declare_estimated(struct engine *e, const char *host, uint32_t gpu,
    uint32_t pid, const char *name, uint64_t start, uint64_t end,
    uint64_t from, uint64_t until)
{
	/* Still listed at the end: past any sample, so it runs. */
	declare(e, host, gpu, pid, name, start, end != 0 ? end : UINT64_MAX,
	    from, end != 0 ? until : UINT64_MAX);
}

/* The key of a process of a GPU in e->nalive. */
static void
na_key(struct engine *e, const struct rec *r)
{
	gpu_key(&e->key, r->host, r->gpu);
	sbuf_add(&e->key, &r->pid, sizeof(r->pid));
}

/*
 * A listing with the memory N/A: a life starts, or goes on.  A life
 * ended (the stream's memory_used = 0 record) and listed again is a new
 * one (a pid reused).
 */
static void
na_listed(struct engine *e, const struct rec *r, uint64_t iv)
{
	void **v;
	struct nalife *l;

	na_key(e, r);
	if (e->nalive.n >= ENGINE_MAXLIVE && hmap_get(&e->nalive, e->key.buf,
	    e->key.len) == NULL) {
		e->st.capped++;
		return;
	}
	v = hmap_put(&e->nalive, e->key.buf, e->key.len, NULL);
	if (*v != NULL && e->na[(uintptr_t)*v - 1].end == 0) {
		l = &e->na[(uintptr_t)*v - 1];
		l->last = r->ts;
		if (iv != 0)
			l->iv = iv;
		return;
	}
	e->na = egrow(e->na, e->nna, sizeof(*e->na));
	l = &e->na[e->nna++];
	l->host = estrdup(r->host);
	l->name = estrdup(r->name);
	l->gpu = r->gpu;
	l->pid = r->pid;
	l->start = r->ts;
	l->end = 0;
	l->last = r->ts;
	l->iv = iv;
	*v = (void *)(uintptr_t)e->nna;
}

/* The memory_used = 0 record of a process listed N/A: its life ends. */
static int
na_ended(struct engine *e, const struct rec *r)
{
	void **v;

	if (e->nna == 0)
		return 0;
	na_key(e, r);
	v = hmap_get(&e->nalive, e->key.buf, e->key.len);
	if (v == NULL || e->na[(uintptr_t)*v - 1].end != 0)
		return 0;
	e->na[(uintptr_t)*v - 1].end = r->ts;
	return 1;
}

size_t
engine_unlisted(const struct engine *e, engine_life_fn *fn, void *ctx)
{
	size_t i;

	for (i = 0; fn != NULL && i < e->nna; i++) {
		const struct nalife *l = &e->na[i];

		/*
		 * It started after the poll before its first listing and
		 * ended after its last one (engine.h).
		 */
		fn(ctx, l->host, l->gpu, l->pid, l->name, l->start, l->end,
		    l->iv != 0 && l->iv < l->start ? l->start - l->iv + 1 :
		    l->start, l->end != 0 ? l->last + 1 : 0);
	}
	return e->nna;
}

/*
 * The median of the n (at most NGAPS) gaps: the middle one of a sorted
 * copy, sorted by insertion (qsort's calls through a pointer cost three
 * times as much on 31 numbers, and this runs on the merge's thread).
 */
static uint64_t
median(const uint64_t *gaps, size_t n)
{
	uint64_t v[NGAPS];
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && v[j - 1] > gaps[i]; j--)
			v[j] = v[j - 1];
		v[j] = gaps[i];
	}
	return v[n / 2];
}

/*
 * A gap of the series: update the median, often enough to follow a
 * change, seldom enough to cost nothing.  Alone (cadence_add does the
 * rest), a gap between two listings of one process: its loop's interval.
 */
static void
cadence_gap(struct cadence *c, uint64_t gap)
{
	c->gaps[c->gnext] = gap;
	c->gnext = (c->gnext + 1) % NGAPS;
	if (c->ngaps < NGAPS)
		c->ngaps++;
	if (c->ngaps < NGAPS || (c->n++ & 63) == 0)
		c->median = median(c->gaps, c->ngaps);
}

/* A new time of the series (the same time again is no gap). */
static void
cadence_add(struct cadence *c, uint64_t ts)
{
	if (c->have && ts > c->last) {
		cadence_gap(c, ts - c->last);
		c->prev = c->last;
	}
	if (!c->have || ts > c->last)
		c->last = ts;
	c->have = 1;
}

/* a + b, or the largest time when that is past it (hostile times). */
static uint64_t
plus(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * The process loop's interval, 0 while unknown.  A poll that finds no
 * process prints nothing (compute-apps), so the gaps between polls that
 * printed may each span many: a log of short jobs, each listed once.  The
 * gaps between two listings of one process are the loop's (a process alive
 * at a poll is listed there); until one is seen the device loop's interval
 * is taken when shorter (gpumem record's two loops share one, as a user's
 * two loops with one -l do).
 */
static uint64_t
proc_iv(const struct gpu *g)
{
	if (g->proc.median == 0)
		return 0;
	if (g->cont.median != 0)
		return g->cont.median;
	return g->dev.median != 0 && g->dev.median < g->proc.median ?
	    g->dev.median : g->proc.median;
}

/*
 * How long a device sample waits before it is judged: until the process
 * poll after it is in (one and a half poll intervals), so that a process
 * that was gone by then, or had started, is known at the sample.
 */
static uint64_t
lag(const struct gpu *g)
{
	uint64_t iv = proc_iv(g);

	if (iv == 0)
		iv = g->dev.median;
	if (iv > LAG_MAX)
		iv = LAG_MAX;
	return iv + iv / 2;
}

/*
 * How soon after a device sample a listing is of the same poll (one
 * program printed both: gpustat, -q -x, a GMEM frame, a wrapper's date
 * line): SAME_POLL, or a quarter of the sampling interval when that is
 * less.  Two loops are never that close for long.
 */
static uint64_t
same_poll(const struct gpu *g)
{
	uint64_t q = g->dev.median / 4;

	return q != 0 && q < SAME_POLL ? q : SAME_POLL;
}

/* The latest judged sample before t: its unattributed level. */
static int
level_before(const struct gpu *g, uint64_t t, int64_t *u, uint64_t *nev)
{
	size_t i;

	for (i = 0; i < g->nhist; i++) {
		const struct hist *h =
		    &g->hist[(g->hnext + NHIST - 1 - i) % NHIST];

		if (h->ts < t) {
			*u = h->unattr;
			if (nev != NULL)
				*nev = h->nev;
			return 1;
		}
	}
	return 0;
}

static void
emit(struct engine *e, struct gpu *g, struct task *t)
{
	const char *cfgname = t->pid != 0 ? config_task_name(e->cfg, t->pid,
	    t->name) : NULL;

	t->host = g->host;
	t->gpu = g->gpu;
	if (cfgname != NULL)
		t->name = cfgname;
	if (t->interval == 0)
		t->interval = g->dev.median;
	if (t->status == TASK_RELEASED)
		e->st.released++;
	else if (t->status == TASK_LEAKED) {
		e->st.leaked++;
		if (t->has_leaked) {
			e->st.leaked_mib += t->leaked;
			g->leaked_mib += t->leaked;
		} else
			e->st.unknown++;
	} else
		e->st.running++;
	e->st.tasks++;
	if (e->cb.task != NULL)
		e->cb.task(e->cb.ctx, t);
}

/*
 * t is listed at ts with the value it has had since curts: the judged
 * samples in between saw its listing hold still.  The first of them is
 * its early level, unless another task came or went before it (then
 * there is none).  A context comes with a program's first allocation, so
 * the level there holds it; a rise later in its life is someone else's.
 */
static void
early_level(const struct gpu *g, struct ptask *t, uint64_t ts)
{
	const struct hist *first = NULL;
	size_t i;

	for (i = 0; i < g->nhist; i++) {
		const struct hist *h =
		    &g->hist[(g->hnext + NHIST - 1 - i) % NHIST];

		if (h->ts < t->curts)
			break;
		if (h->ts < ts)
			first = h;
	}
	if (first == NULL)
		return;
	t->early_done = 1;
	if (first->nev != t->nev)
		return;
	t->have_early = 1;
	t->uearly = first->unattr;
}

/* A task's row, its other fields 0. */
static void
task_init(struct task *t, const char *name, uint32_t pid, uint64_t start,
    uint64_t end, uint32_t peak, uint32_t held, enum task_status status)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->pid = pid;
	t->start = start;
	t->end = end;
	t->peak = peak;
	t->held = held;
	t->status = status;
	t->has_leaked = status != TASK_LEAKED;
}

/* A process task as it stands, with the status given. */
static void
emit_ptask(struct engine *e, struct gpu *g, const struct ptask *p,
    enum task_status status)
{
	struct task t;

	task_init(&t, p->name, p->pid, p->start, status == TASK_RUNNING ?
	    p->last : p->end, p->peak, p->held, status);
	t.notes = p->notes;
	if (status == TASK_LEAKED) {
		t.has_leaked = g->have_sample && p->after > 0;
		t.leaked = t.has_leaked ? p->remaining : 0;
	}
	emit(e, g, &t);
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

/* Take t off a list of task pointers (order kept). */
static void
list_del(struct ptask **v, size_t *n, const struct ptask *t)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (v[i] == t) {
			memmove(v + i, v + i + 1, (*n - i - 1) * sizeof(*v));
			(*n)--;
			return;
		}
}

static void
recent_del(struct gpu *g, struct ptask *t)
{
	size_t i;

	if (t->ridx == 0)
		return;
	i = t->ridx - 1;
	g->recent[i] = g->recent[--g->nrecent];
	g->recent[i]->ridx = i + 1;
	t->ridx = 0;
}

static void
recent_add(struct gpu *g, struct ptask *t)
{
	if (t->ridx != 0)
		return;
	g->recent = egrow(g->recent, g->nrecent, sizeof(*g->recent));
	g->recent[g->nrecent++] = t;
	t->ridx = g->nrecent;
}

/*
 * Whether p's end record came after polls that printed nothing (lost, or
 * empty: the reader then places it 1.25 intervals on at least, the very
 * next poll one on): it may have lived until the next poll that printed,
 * unknown here, or the loop died and it lived on.
 */
static int
silence_end(const struct gpu *g, const struct ptask *p)
{
	uint64_t iv = proc_iv(g);

	if (p->notes & NOTE_EXACT)
		return 0;	/* its exit is known (recdir.h) */
	return iv != 0 && p->end - p->last > iv + iv / 8;
}

/*
 * Task t's memory came back by the judged sample at ts.  It ended between
 * its last listing and its end record; its memory came back after the
 * sample that last showed it out (lastnot) and by ts.  So the delay lies
 * in [lastnot - end, ts - last], and the sample at ts is the estimate.
 */
static void
release_waiting(struct engine *e, struct gpu *g, struct ptask *p,
    uint64_t ts, unsigned notes)
{
	struct task t;
	uint64_t lo, hi;

	task_init(&t, p->name, p->pid, p->start, p->end, p->peak, p->held,
	    TASK_RELEASED);
	t.release = ts;
	lo = p->lastnot > p->end ? p->lastnot - p->end : 0;
	/* Polls missing before its end record: bounds from 0. */
	if (silence_end(g, p)) {
		lo = 0;
		notes |= NOTE_GAP;
	}
	hi = recdir_held_until(p->notes & NOTE_EXACT, p->last, p->end, ts);
	if (hi < lo)
		hi = lo;
	t.delay = ts > p->end ? ts - p->end : 0;
	if (t.delay < lo)
		t.delay = lo;
	if (t.delay > hi)
		t.delay = hi;
	t.delay_lo = lo;
	t.delay_hi = hi;
	t.notes = p->notes | notes;
	if (hi - lo > 2 * (g->dev.median + proc_iv(g)) &&
	    g->dev.median != 0)
		t.notes |= NOTE_GAP;
	emit(e, g, &t);
	list_del(g->wait, &g->nwait, p);
	ptask_free(p);
}

/* Put p on the wait list, in order of ends. */
static void
wait_add(struct engine *e, struct gpu *g, struct ptask *p)
{
	size_t i;

	if (g->nwait == ENGINE_MAXWAIT) {
		/*
		 * Too many waiting (each device sample weighs them all): the
		 * one that ended first is given up, its memory not back.
		 */
		struct ptask *w = g->wait[0];

		emit_ptask(e, g, w, TASK_LEAKED);
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
	for (i = g->nwait; i > 0 && g->wait[i - 1]->end > p->end; i--)
		g->wait[i] = g->wait[i - 1];
	g->wait[i] = p;
	g->nwait++;
}

/*
 * Ended task t (a process gone, or the life before a reused pid) waits for
 * its memory.  The base is the level without it (level: the unattributed
 * level while it was listed): its context memory was part of the level
 * while it lived, if it lived when the base was taken.
 */
static void
wait_ended(struct engine *e, struct gpu *g, struct ptask *t, int64_t level)
{
	if (g->nwait == 0) {
		g->have_base = g->have_sample;
		g->base = level - t->ctx;
		g->base_ts = t->end;
		t->ctx_based = 1;
		g->tent = 0;
	} else if (t->start < g->base_ts) {
		g->base -= t->ctx;
		t->ctx_based = 1;
	}
	wait_add(e, g, t);
}

/* Nothing waits any more: the next end takes a base of its own. */
static void
wait_emptied(struct gpu *g)
{
	if (g->nwait == 0) {
		g->have_base = 0;
		g->tent = 0;
	}
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
	struct ptask **c;	/* the candidates */
	size_t n;
	int64_t r, tol;
	const double *score;
	int64_t low[SUBSET_MAX + 1];	/* low[k]: what bits 0..k-1 hold */
	int found;
	double best;
	int64_t besterr;
	uint32_t set;
	int tie;		/* another set fits as well as the best */
};

/* A candidate set m whose memory makes up sum. */
static void
subset_leaf(struct subsets *x, uint32_t m, int64_t sum)
{
	int64_t err = sum > x->r ? sum - x->r : x->r - sum, slack;
	double sc = 0;
	size_t i;

	/*
	 * A set may give back more than its members listed, by what their
	 * contexts held beyond their listings: up to a quarter of it, and
	 * CTX_SLACK at most.
	 */
	slack = sum / 4 < CTX_SLACK ? sum / 4 : CTX_SLACK;
	if (m == 0 || (sum > x->r && err > x->tol) ||
	    (sum <= x->r && err > x->tol + slack))
		return;
	for (i = 0; i < x->n; i++)
		if (m & (1U << i))
			sc += x->score[i];
	if (!x->found || sc > x->best + 1e-9 || (sc > x->best - 1e-9 &&
	    (err < x->besterr || (err == x->besterr && m > x->set)))) {
		x->tie = x->found && sc > x->best - 1e-9 && sc < x->best +
		    1e-9 && err == x->besterr;
		x->found = 1;
		x->best = sc;
		x->besterr = err;
		x->set = m;
	} else if (sc > x->best - 1e-9 && err == x->besterr)
		x->tie = 1;
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
	if (sum > x->r + x->tol ||
	    sum + x->low[i + 1] < x->r - x->tol - CTX_SLACK)
		return;
	if (i < 0) {
		subset_leaf(x, m, sum);
		return;
	}
	subset_search(x, i - 1, m, sum);
	subset_search(x, i - 1, m | 1U << i, sum + x->c[i]->remaining);
}

/*
 * Who gave back r MiB at ts?  Candidates c[0, n) (in order of ends) are
 * sets of waiting tasks whose memory makes up r within the tolerance
 * (each wholly released), and any single task holding more than r
 * (released in part).  The likeliest wins: the sum of the members'
 * recency, a part counting for less than a whole (PARTIAL).  Ties go to
 * the closer set, then to the later tasks.  Return 1 with a set in *set
 * (bits over the last SUBSET_MAX candidates, *off the first of them), 2
 * with a partial giver in *part, or 0 when nothing explains the drop.
 * *tie says whether another set fitted as well.
 */
static int
explain_drop(struct ptask **c, size_t nc, int64_t r, int64_t tol,
    uint64_t ts, uint32_t *set, size_t *off, size_t *part, int *tie)
{
	size_t n = nc < SUBSET_MAX ? nc : SUBSET_MAX;
	double score[SUBSET_MAX], bestpart = 0;
	struct subsets x;
	int foundpart = 0;
	size_t i;

	memset(&x, 0, sizeof(x));
	*off = nc - n;
	x.c = c + *off;
	x.n = n;
	x.r = r;
	x.tol = tol;
	x.score = score;
	for (i = 0; i < n; i++) {
		score[i] = recency(x.c[i], ts);
		x.low[i + 1] = x.low[i] + x.c[i]->remaining;
	}
	subset_search(&x, (int)n - 1, 0, 0);
	*tie = x.tie;
	if (x.found)
		*set = x.set;
	for (i = 0; i < nc; i++) {
		const struct ptask *t = c[i];
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

/*
 * Whether waiting task t may have been gone at the device sample at ts:
 * its end record came at ts or before, or its last listing came before
 * ts (a task listed at or after ts was alive then).
 */
static int
gone_by(const struct ptask *t, uint64_t ts)
{
	return t->end <= ts || t->last < ts;
}

/* Whether t may have given memory back at ts: gone, and started by then. */
static int
may_give(const struct gpu *g, const struct ptask *t, uint64_t ts)
{
	return gone_by(t, ts) && t->start <= plus(ts, same_poll(g));
}

/*
 * The waiting tasks that may have given memory back at ts (may_give).
 * Return how many, in *c (in order of ends).
 */
static size_t
candidates(struct gpu *g, uint64_t ts, struct ptask ***c)
{
	size_t i, n = 0;

	*c = NULL;
	for (i = 0; i < g->nwait; i++) {
		struct ptask *t = g->wait[i];

		if (may_give(g, t, ts)) {
			*c = egrow(*c, n, sizeof(**c));
			(*c)[n++] = t;
		}
	}
	return n;
}

/* Whether one of the candidates c[0, n) holds r MiB (within tol). */
static int
fits_one(struct ptask **c, size_t n, int64_t r, int64_t tol)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (llabs((int64_t)c[i]->remaining - r) <= tol)
			return 1;
	return 0;
}

/* r MiB came back at ts (judged there): who gave it back. */
static void
give_back(struct engine *e, struct gpu *g, int64_t r, uint64_t ts)
{
	int64_t tol = e->cfg->tolerance;
	struct ptask **c;
	size_t nc = candidates(g, ts, &c), i, off = 0, part = 0;
	uint32_t m = 0;
	int tie = 0;

	if (nc == 0) {
		free(c);
		return;
	}
	if (g->unowned > tol && llabs(r - g->unowned) <= tol &&
	    !fits_one(c, nc, r, tol)) {
		/* That memory left, not theirs: the level is lower now. */
		g->base -= r;
		g->unowned = 0;
		e->st.unowned_drops++;
		free(c);
		return;
	}
	switch (explain_drop(c, nc, r, tol, ts, &m, &off, &part, &tie)) {
	case 1:
		/*
		 * Another set fitted as well: the ones left waiting may be
		 * the ones that gave back, so they are noted too (a leak
		 * among them is not known to be theirs).
		 */
		for (i = off; tie && i < nc; i++)
			c[i]->notes |= NOTE_AMBIGUOUS;
		for (i = nc - off; i > 0; i--)
			if (m & (1U << (i - 1))) {
				release_waiting(e, g, c[off + i - 1], ts,
				    tie ? NOTE_AMBIGUOUS : 0);
				c[off + i - 1] = NULL;
			}
		break;
	case 2:
		c[part]->remaining -= (uint32_t)r;
		break;
	default:
		/* More than any task holds and no set matches: spread it,
		 * the most recently ended first. */
		for (i = nc; i > 0 && r > 0; i--) {
			struct ptask *t = c[i - 1];
			int64_t take = r < t->remaining ? r : t->remaining;

			t->remaining -= (uint32_t)take;
			r -= take;
			if (t->remaining <= tol) {
				release_waiting(e, g, t, ts, NOTE_AMBIGUOUS);
				c[i - 1] = NULL;
			}
		}
		break;
	}
	/* What is left of the others was still out at ts. */
	for (i = 0; i < nc; i++)
		if (c[i] != NULL && c[i]->lastnot < ts)
			c[i]->lastnot = ts;
	free(c);
	wait_emptied(g);
}

/* The memory of the tasks that may have given it back at ts. */
static int64_t
pending_at(const struct gpu *g, uint64_t ts)
{
	int64_t pending = 0;
	size_t i;

	for (i = 0; i < g->nwait; i++) {
		const struct ptask *t = g->wait[i];

		if (may_give(g, t, ts))
			pending += t->remaining;
	}
	return pending;
}

/* What has come back at a judged sample: pending minus what is out. */
static int64_t
returned(const struct gpu *g, uint64_t ts)
{
	return pending_at(g, ts) - (g->unattr - g->base);
}

/*
 * A judged device sample with tasks waiting: has memory come back?  A
 * drop counts once the next judged sample shows it too (a one-sample dip
 * gives nothing back), and then from the sample where it was first seen.
 */
static void
judge(struct engine *e, struct gpu *g, uint64_t ts)
{
	int64_t tol = e->cfg->tolerance, r = returned(g, ts);
	size_t i;

	if (g->tent) {
		g->tent = 0;
		if (r >= g->tent_r - tol) {
			give_back(e, g, g->tent_r, g->tent_ts);
			if (g->nwait == 0)
				return;
			r = returned(g, ts);
		} else
			e->st.dips++;
	}
	if (r > tol) {
		g->tent = 1;
		g->tent_ts = ts;
		g->tent_r = r;
		return;
	}
	/*
	 * Nothing came back, as far as the tolerance tells: every task that
	 * could have was out at ts, but one that holds no more than the
	 * tolerance is back within it by definition.  Its memory, back or
	 * not, is part of the level from now (what has come back is the
	 * same either way: many such tasks must not add up to a phantom).
	 */
	for (i = g->nwait; i > 0; i--) {
		struct ptask *t = g->wait[i - 1];

		if (!gone_by(t, ts))
			continue;
		if (t->remaining <= tol) {
			g->base += t->remaining;
			release_waiting(e, g, t, ts, 0);
		} else if (t->lastnot < ts)
			t->lastnot = ts;
	}
	wait_emptied(g);
}

/*
 * The last listing of a process listed N/A and still listed at the end
 * (this pass saw its listings too), or 0.
 */
static uint64_t
na_last(struct engine *e, const char *host, uint32_t gpu, uint32_t pid)
{
	struct rec r;
	void **v;

	rec_init(&r);
	r.host = host;
	r.gpu = gpu;
	r.pid = pid;
	na_key(e, &r);
	v = hmap_get(&e->nalive, e->key.buf, e->key.len);
	return v != NULL ? e->na[(uintptr_t)*v - 1].last : 0;
}

/* A declared task judged (declared.h): ctx is the engine, gp the GPU. */
static void
emit_declared(void *ctx, void *gp, const struct declared_task *d)
{
	struct task t;

	/* A running estimated task ends, as others do, at its last listing. */
	task_init(&t, d->name, d->pid, d->start, d->end == UINT64_MAX ?
	    na_last(ctx, d->host, d->gpu, d->pid) : d->end, d->peak, d->held,
	    d->status);
	t.release = d->release;
	if (d->status == TASK_RELEASED) {
		t.delay = d->release > d->end ? d->release - d->end : 0;
		t.delay_lo = d->delay_min;
		t.delay_hi = d->delay_max;
	}
	if (d->status == TASK_LEAKED) {
		t.has_leaked = d->has_leaked;
		t.leaked = d->leaked;
	}
	t.declared = 1;
	if (d->note != NULL)
		t.notes |= NOTE_AMBIGUOUS;
	if (d->pid != 0)
		t.notes |= NOTE_ESTIMATED;
	emit(ctx, gp, &t);
}

/* What t listed at ts: its value then (eps: same_poll()). */
static uint32_t
value_at(const struct ptask *t, uint64_t ts, uint64_t eps)
{
	uint64_t at = plus(ts, eps);

	if (t->start > at)
		return 0;
	return t->curts > at ? t->prev : t->end != 0 ? t->held : t->cur;
}

/*
 * Whether a listing change of t by more than tol falls around ts: the
 * poll before ts did not show it, the one after did.  The device sample
 * may or may not hold the change then.
 */
static int
straddles(const struct ptask *t, uint64_t ts, uint64_t eps, int64_t tol)
{
	int64_t d = (int64_t)t->cur - t->prev;

	if (t->end != 0)
		d = (int64_t)t->held - t->prev;
	if (d < 0)
		d = -d;
	return d > tol && plus(t->chgprev, eps) < ts &&
	    t->curts > plus(ts, eps);
}

static void
hist_add(struct gpu *g, uint64_t ts, int64_t unattr)
{
	struct hist *h = &g->hist[g->hnext];

	h->ts = ts;
	h->unattr = unattr;
	h->nev = g->nev;
	g->hnext = (g->hnext + 1) % NHIST;
	if (g->nhist < NHIST)
		g->nhist++;
}

/*
 * How much value_at(t) may exceed what t held at ts when its listing
 * changed between the polls around ts: the sample may hold either value.
 */
static int64_t
straddle_slack(const struct ptask *t, uint64_t ts, uint64_t eps)
{
	int64_t v = value_at(t, ts, eps);
	int64_t after = t->end != 0 ? t->held : t->cur;
	int64_t lo = after < (int64_t)t->prev ? after : t->prev;

	return v > lo ? v - lo : 0;
}

/*
 * A sample left unjudged (a listing changed between the polls around it)
 * whose unattributed memory, with every such change taken at its least,
 * is at the level without the waiting tasks (within the tolerance): no
 * waiting task's memory can be out there, whatever the changes were, so
 * every task that may have ended by then is back by it.  In a burst of
 * one-poll jobs every sample is such a one; the idle ones settle them.
 */
static void
settle_idle(struct engine *e, struct gpu *g, uint64_t ts, int64_t unattr)
{
	size_t i;

	if (g->nwait == 0 || !g->have_base || unattr - g->base >
	    (int64_t)e->cfg->tolerance)
		return;
	for (i = g->nwait; i > 0; i--) {
		struct ptask *t = g->wait[i - 1];

		if (gone_by(t, ts) && t->start <= ts)
			release_waiting(e, g, t, ts, 0);
	}
	wait_emptied(g);
	/* The level there is known: the next ends measure from it. */
	hist_add(g, ts, unattr);
}

/*
 * A live task whose identity was in question, at a judged sample after
 * the listing that raised the question: when the memory it listed before
 * is still out besides what it lists now, the life before ended there
 * and the listing is a new process with the same pid.
 */
static void
settle_suspect(struct engine *e, struct gpu *g, struct ptask *t)
{
	int64_t tol = e->cfg->tolerance, out = g->unattr - t->sus_u0;
	struct ptask *o;

	t->suspect = SUS_NONE;
	list_del(g->sus, &g->nsus, t);
	if (t->sus_gone == 0 && (out <= tol || out < (int64_t)t->o_held / 2)) {
		if (t->o_end != 0)
			t->notes |= NOTE_RESUMED;
		return;
	}
	/* Two lives: the one before waits for its memory. */
	o = ecalloc(1, sizeof(*o));
	o->pid = t->pid;
	o->name = estrdup(t->name);
	o->start = t->o_start;
	o->last = t->o_last;
	o->end = t->o_end != 0 ? t->o_end : t->sus_ts;
	o->peak = t->o_peak;
	o->held = t->o_held;
	o->ctx = t->o_ctx;
	o->remaining = t->o_held + t->o_ctx;
	o->lastnot = o->last;
	o->notes = NOTE_PIDREUSE;
	o->pprev = o->start;
	o->chgprev = o->start;
	o->curts = o->start;
	t->start = t->sus_ts;
	t->peak = t->cur;
	t->ctx = 0;
	t->have_before = 0;
	t->have_early = t->early_done = 0;
	t->notes |= NOTE_PIDREUSE;
	e->st.splits++;
	if (t->sus_gone != 0) {
		/* Gone by that sample, its memory back there. */
		o->end = t->sus_gone;
		wait_add(e, g, o);
		release_waiting(e, g, o, t->sus_gone, 0);
		return;
	}
	wait_ended(e, g, o, t->sus_u0);
}

/* A device sample, now that the process polls around it are in. */
static void
evaluate(struct engine *e, const struct pending *p)
{
	struct gpu *g = p->g;
	const struct cfg_device *dev;
	int64_t tol = e->cfg->tolerance, usage, attr, shown;
	uint64_t eps;
	int ambiguous = 0;
	int64_t slack = 0;	/* what straddling listings may overstate */
	struct sample s;
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
	cadence_add(&g->dev, p->ts);
	eps = same_poll(g);
	/*
	 * The processes as they were at the sample: listings that came
	 * after it are taken back, tasks that ended since count while they
	 * were still listed.  A change that falls between the polls around
	 * the sample leaves it unknown whether the sample holds it.
	 */
	attr = g->attributed;
	for (i = 0; i < g->nrecent; i++) {
		const struct ptask *t = g->recent[i];

		attr -= (int64_t)t->cur - value_at(t, p->ts, eps);
		if (straddles(t, p->ts, eps, tol)) {
			ambiguous = 1;
			slack += straddle_slack(t, p->ts, eps);
		}
	}
	shown = 0;
	for (i = 0; i < g->nwait; i++) {
		const struct ptask *t = g->wait[i];
		int st = straddles(t, p->ts, eps, tol);

		if (st)
			ambiguous = 1;
		if (t->start > plus(p->ts, eps))
			continue;
		if (!gone_by(t, p->ts) && st)
			slack += straddle_slack(t, p->ts, eps);
		if (!gone_by(t, p->ts))
			attr += value_at(t, p->ts, eps);
		else if (t->end > p->ts)
			shown += t->held;	/* the log lists it until then */
	}
	/*
	 * A pid listed again with less after polls that missed it: a sample
	 * between its two listings at the level without it (within the
	 * tolerance) says the process before was gone, and the new listing
	 * is another process under its pid.
	 */
	for (i = 0; i < g->nsus; i++) {
		struct ptask *t = g->sus[i];

		if (t->suspect == SUS_DROP && t->sus_gone == 0 &&
		    p->ts > t->o_last && p->ts < t->sus_ts &&
		    usage - (attr - (int64_t)value_at(t, p->ts, eps)) -
		    t->sus_u0 <= tol)
			t->sus_gone = p->ts;
	}
	shown += attr;
	s.usage = (uint32_t)usage;
	s.attributed = (uint32_t)(shown < 0 ? 0 : shown > UINT32_MAX ?
	    UINT32_MAX : shown);
	s.unattributed = usage - shown;
	if (s.unattributed < 0)
		e->negative++;
	if (e->cb.sample != NULL)
		e->cb.sample(e->cb.ctx, &s);
	declared_sample(e->decl, &g->decl, g->host, g->gpu, p->ts, usage,
	    e->cfg, emit_declared, e, g);
	if (!g->procs && e->decl == NULL && e->cb.task != NULL) {
		if (g->ep == NULL) {
			dev = config_device(e->cfg, g->host, g->gpu);
			g->ep = episodes_new(dev != NULL && dev->has_idle,
			    dev != NULL ? dev->idle : 0);
		}
		episodes_sample(g->ep, p->ts, usage, tol);
	}
	/* The listings changed long enough ago are known from now on. */
	for (i = 0; i < g->nrecent;)
		if (g->recent[i]->curts <= plus(p->ts, eps))
			recent_del(g, g->recent[i]);
		else
			i++;
	if (ambiguous) {
		e->st.ambiguous++;
		settle_idle(e, g, p->ts, usage - (attr - slack));
		return;
	}
	/*
	 * Memory that rose while live tasks ran and none came or went is no
	 * task's (their context came with their start): a desktop's, a
	 * container's the log cannot see.  A fall while nothing waits gives
	 * it back.
	 */
	if (g->have_sample && g->nwait == 0 && g->nev == g->unowned_nev) {
		int64_t d = usage - attr - g->unattr;

		if (d > tol && g->live.n > 0)
			g->unowned += d;
		else if (d < -tol)
			g->unowned = g->unowned + d > 0 ? g->unowned + d : 0;
	}
	g->unowned_nev = g->nev;
	g->have_sample = 1;
	g->unattr = usage - attr;
	if (!g->have_first) {
		g->have_first = 1;
		g->first_unattr = g->unattr;
		g->first_ts = p->ts;
	}
	hist_add(g, p->ts, g->unattr);
	for (i = 0; i < g->nsus;) {
		struct ptask *t = g->sus[i];

		if (t->sus_ts < p->ts)
			settle_suspect(e, g, t);
		else
			i++;
	}
	if (g->nwait == 0)
		return;
	for (i = 0; i < g->nwait; i++)
		if (gone_by(g->wait[i], p->ts))
			g->wait[i]->after++;
	if (!g->have_base) {
		/* No sample before the ends: take what is out as pending. */
		g->base = g->unattr - pending_at(g, p->ts);
		g->base_ts = p->ts;
		g->have_base = 1;
		return;
	}
	judge(e, g, p->ts);
}

/* Judge the device samples whose polls are in by now (all at the end). */
static void
flush(struct engine *e, uint64_t now, int all)
{
	while (e->pcount > 0) {
		struct pending *p = &e->pend[e->phead];

		if (!all && (now <= p->ts || now - p->ts <= lag(p->g)))
			break;
		e->phead = ring_at(e->phead, 1, e->pcap);
		e->pcount--;
		evaluate(e, p);
	}
}

static void
push_pending(struct engine *e, struct gpu *g, const struct rec *r)
{
	struct pending *p;

	if (e->pcount == ENGINE_MAXPENDING) {
		/* Too many samples in one lag: judge the oldest now. */
		struct pending old = e->pend[e->phead];

		e->phead = ring_at(e->phead, 1, e->pcap);
		e->pcount--;
		e->st.early++;
		evaluate(e, &old);
	}
	if (e->pcount == e->pcap) {
		size_t ncap = e->pcap ? e->pcap * 2 : 64;

		e->pend = ering_grow(e->pend, e->phead, e->pcount, e->pcap,
		    ncap, sizeof(*e->pend));
		e->pcap = ncap;
		e->phead = 0;
	}
	p = &e->pend[ring_at(e->phead, e->pcount, e->pcap)];
	e->pcount++;
	p->g = g;
	p->ts = r->ts;
	p->has = r->has;
	p->used = r->used;
	p->free = r->free;
	p->total = r->total;
}

/*
 * t, listed less at ts than it held, after polls that missed it: the
 * earliest judged sample since its last listing whose level lacks the
 * memory it listed (within tol) says it was gone there (sus_gone).
 */
static void
gone_between(const struct gpu *g, struct ptask *t, int64_t tol)
{
	size_t i;

	for (i = 0; i < g->nhist; i++) {
		const struct hist *h =
		    &g->hist[(g->hnext + NHIST - 1 - i) % NHIST];

		if (h->ts <= t->o_last)
			break;
		if (h->ts < t->sus_ts &&
		    h->unattr + (int64_t)t->o_held - t->sus_u0 <= tol)
			t->sus_gone = h->ts;
	}
}

/*
 * Question t's identity from its listing at ts on: keep its life so far
 * (ended at its end record when it was resumed, at ts when its listing
 * fell) and the level of unattributed memory while it was listed, to be
 * told apart at the next judged sample (settle_suspect).
 */
static void
suspect(struct gpu *g, struct ptask *t, int why, uint64_t ts, int64_t tol)
{
	t->suspect = why;
	t->sus_ts = ts;
	t->o_start = t->start;
	t->o_last = t->last;
	t->o_end = why == SUS_RESUMED ? t->end : 0;
	t->o_peak = t->peak;
	t->o_held = why == SUS_RESUMED ? t->held : t->cur;
	t->o_ctx = t->ctx;
	t->sus_gone = 0;
	if (!level_before(g, plus(t->last, 1), &t->sus_u0,
	    NULL))
		t->sus_u0 = g->unattr;
	if (why == SUS_DROP)
		gone_between(g, t, tol);
	g->sus = egrow(g->sus, g->nsus, sizeof(*g->sus));
	g->sus[g->nsus++] = t;
}

/*
 * A process listed again after its end: the end was made up from polls
 * that missed it, when none of its memory has come back and it is listed
 * again within a few polls with about what it held.  It lives on, its
 * identity in question until a judged sample tells (settle_suspect).
 */
static struct ptask *
resume(struct engine *e, struct gpu *g, const struct rec *r)
{
	int64_t tol = e->cfg->tolerance;
	uint64_t iv = g->proc.median;
	size_t i;

	if (iv == 0)
		return NULL;
	for (i = g->nwait; i > 0; i--) {
		struct ptask *t = g->wait[i - 1];
		int64_t d = (int64_t)r->used - t->held;

		if (t->pid != r->pid || t->remaining != t->held + t->ctx ||
		    r->ts - t->last > RESUME_POLLS * iv || d > tol ||
		    d < -tol || (r->name[0] != '\0' && t->name[0] != '\0' &&
		    strcmp(r->name, t->name) != 0))
			continue;
		list_del(g->wait, &g->nwait, t);
		if (g->nwait > 0 && t->ctx_based)
			g->base += t->ctx;
		wait_emptied(g);
		t->ctx_based = 0;
		suspect(g, t, SUS_RESUMED, r->ts, tol);
		t->end = 0;
		t->cur = t->held;
		g->attributed += t->held;
		e->st.resumed++;
		return t;
	}
	return NULL;
}

/*
 * The live task of pid on g, or NULL.  A GPU's polls list the same few
 * processes again and again, so the one found last is tried first: at
 * hundreds of hosts the map's lookup was a fifth of the engine.
 */
static struct ptask *
live_get(struct gpu *g, uint32_t pid)
{
	void **v;

	if (g->hot != NULL && g->hot->pid == pid)
		return g->hot;
	if ((v = hmap_get(&g->live, &pid, sizeof(pid))) == NULL)
		return NULL;
	return g->hot = *v;
}

static void
process(struct engine *e, struct gpu *g, const struct rec *r)
{
	struct ptask *t = live_get(g, r->pid);
	int64_t tol = e->cfg->tolerance, u;
	uint64_t pollbefore, nev;

	if (r->used > 0 || !(r->has & REC_USED))
		cadence_add(&g->proc, r->ts);
	pollbefore = g->proc.last == r->ts ? g->proc.prev : g->proc.last;
	if (!(r->has & REC_USED)) {
		/* Listed, memory unknown (WDDM): alive, nothing to count. */
		if (t != NULL)
			t->last = r->ts;
		else
			na_listed(e, r, proc_iv(g));
		return;
	}
	if (r->used == 0 && t == NULL && na_ended(e, r))
		return;
	if (r->used > 0) {
		if (t == NULL && (t = resume(e, g, r)) != NULL) {
			*hmap_put(&g->live, &r->pid, sizeof(r->pid), NULL) = t;
			e->nlive++;
		} else if (t == NULL) {
			uint64_t iv = proc_iv(g);

			if (e->nlive >= ENGINE_MAXLIVE) {
				e->st.capped++;
				return;
			}
			t = ecalloc(1, sizeof(*t));
			t->pid = r->pid;
			t->name = estrdup(r->name);
			t->start = r->ts;
			/*
			 * The poll before, where it was not listed yet: the
			 * loop's last one when it printed, else about one
			 * interval back (two device intervals when the loop's
			 * own is not known yet: it printed nothing so far).
			 */
			if (iv == 0)
				iv = 2 * g->dev.median;
			t->pprev = pollbefore != 0 && pollbefore < r->ts &&
			    r->ts - pollbefore <= iv + iv / 2 ? pollbefore :
			    r->ts > iv ? r->ts - iv : 0;
			t->chgprev = t->pprev;
			t->curts = r->ts;
			t->have_before = level_before(g, plus(t->pprev, 1),
			    &t->ubefore, NULL);
			*hmap_put(&g->live, &r->pid, sizeof(r->pid), NULL) = t;
			e->nlive++;
					g->nev++;
			t->nev = g->nev;
		} else if (r->name[0] != '\0' && strcmp(t->name, r->name) != 0) {
			free(t->name);
			t->name = estrdup(r->name);
		}
		if (t->cur > 0 && t->suspect == SUS_NONE &&
		    (int64_t)r->used + tol < (int64_t)t->cur) {
			/*
			 * It lists less than it held: a process that freed
			 * memory, or a new one under the same pid, which the
			 * next judged sample tells.
			 */
			suspect(g, t, SUS_DROP, r->ts, tol);
		}
		if (t->last != 0 && r->ts > t->last && t->end == 0)
			cadence_gap(&g->cont, r->ts - t->last);
		if (r->used != t->cur) {
			t->prev = t->cur;
			t->chgprev = t->cur == 0 && t->last == 0 ? t->pprev :
			    t->last;
			t->curts = r->ts;
			recent_add(g, t);
		}
		g->attributed += (int64_t)r->used - t->cur;
		t->cur = r->used;
		t->held = r->used;
		if (!t->early_done)
			early_level(g, t, r->ts);
		if (r->used > t->peak)
			t->peak = r->used;
		t->last = r->ts;
		return;
	}
	if (t == NULL)
		return;		/* gone, and never seen holding memory */
	/* The process has gone: its memory waits to come back. */
	g->attributed -= t->cur;
	recent_del(g, t);
	if (t->suspect != SUS_NONE) {
		list_del(g->sus, &g->nsus, t);
		t->suspect = SUS_NONE;
	}
	t->end = r->ts;
	t->lastnot = t->last;
	t->notes |= recdir_end(e->rd, r->pid, t->last, &t->end);
	hmap_del(&g->live, &r->pid, sizeof(r->pid));
	if (g->hot == t)
		g->hot = NULL;
	e->nlive--;
	/* The level while it was listed: the judged sample at its last. */
	if (!level_before(g, plus(t->last, 1), &u, &nev)) {
		u = g->unattr;
		nev = g->nev + 1;	/* unknown: no context measured */
	}
	/*
	 * Context memory: what the device held for it beyond its listing,
	 * the rise of unattributed memory from before its start to the
	 * first judged sample its listing held still around (its early
	 * level), no more than the rise to its last listing when no other
	 * task came or went meanwhile (the context shrank or went first).
	 * A rise later in its life is someone else's: a desktop, a container
	 * the log cannot see.  Without an early level, the rise to its last
	 * listing while no other task came or went.
	 */
	if (t->have_before && t->have_early) {
		int64_t c = t->uearly - t->ubefore;

		if (nev == t->nev && g->nev == t->nev && u - t->ubefore < c)
			c = u - t->ubefore;
		if (c > tol && c <= CTX_MAX)
			t->ctx = (uint32_t)c;
	} else if (t->have_before && nev == t->nev && g->nev == t->nev &&
	    u - t->ubefore > tol && u - t->ubefore <= CTX_MAX)
		t->ctx = (uint32_t)(u - t->ubefore);
	g->nev++;
	t->remaining = t->held + t->ctx;
	wait_ended(e, g, t, u);
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
	else {
		if (!g->procs) {
			/* Its processes say who held the memory. */
			g->procs = 1;
			episodes_free(g->ep);
			g->ep = NULL;
		}
		process(e, g, r);
	}
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
	return hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

/* An episode of a GPU no process was listed on (episode.h). */
struct emit_ctx {
	struct engine *e;
	struct gpu *g;
	size_t n;
};

static void
emit_episode(void *ctx, struct task *t)
{
	struct emit_ctx *c = ctx;
	char held[REC_MAXSTR + 64];

	t->notes |= recdir_name(c->e->rd, c->g->gpu, t, held, sizeof(held));
	if ((t->notes & NOTE_HOLDER) && c->e->st.episode_held++ == 0)
		c->e->held1 = estrdup(held);
	c->n++;
	c->e->st.episodes++;
	if (t->status == TASK_LEAKED)
		c->e->st.episode_mib += t->leaked;
	emit(c->e, c->g, t);
}

/*
 * The process log's last poll on g came long before the device log's end
 * (LOG_STOP intervals, LOG_STOP_MIN at least): the loop may have died
 * (killed, suspended) and the processes it listed there lived on, or they
 * ended and nothing ran after them; the logs cannot tell.  The memory of
 * those still waiting was not back by the end either way: they are noted,
 * and said once per GPU.
 */
static void
log_stopped(struct gpu *g)
{
	uint64_t quiet, need = LOG_STOP * proc_iv(g);
	size_t i, n = 0;
	char t[GTIME_BUFSZ];

	if (!g->proc.have || !g->dev.have || g->dev.last <= g->proc.last)
		return;
	quiet = g->dev.last - g->proc.last;
	if (quiet < need || quiet < LOG_STOP_MIN)
		return;
	for (i = 0; i < g->nwait; i++)
		if (g->wait[i]->last == g->proc.last &&
		    silence_end(g, g->wait[i])) {
			g->wait[i]->notes |= NOTE_LOGSTOP;
			n++;
		}
	if (n == 0)
		return;
	gtime_fmt(g->proc.last, 1, t);
	warnmsg("%s%sGPU %u: the process log's last poll is at %s, %.0f s "
	    "before the device log ends, and %zu process%s listed there held "
	    "memory to the end: leaked, or still running if the log stopped "
	    "(noted log-stopped)", g->host, g->host[0] != '\0' ? " " : "",
	    g->gpu, t, (double)quiet / NS_PER_SEC, n, n == 1 ? "" : "es");
}

/*
 * Memory left at the end of g (mib), that no listing holds, named after
 * the processes holding g open then that no listing named (listed, n:
 * the pids of its tasks; recdir.h): a row of its own, said.  Return 0
 * when holders.csv names none.
 */
static int
left_held(struct engine *e, struct gpu *g, int64_t mib,
    const uint32_t *listed, size_t n)
{
	char held[RECDIR_NAMED * (REC_MAXSTR + 48) + 32];
	struct task t;
	uint64_t first = 0;

	if (recdir_at_end(e->rd, g->gpu, g->first_ts, g->dev.last,
	    g->dev.median, listed, n, &first, held, sizeof(held)) == NULL)
		return 0;
	memset(&t, 0, sizeof(t));
	t.name = held;
	t.start = first > g->first_ts ? first : g->first_ts;
	t.end = g->dev.last;
	t.peak = t.held = t.leaked = (uint32_t)mib;
	t.has_leaked = 1;
	t.status = TASK_LEAKED;
	t.declared = 1;
	t.notes = NOTE_HOLDER;
	warnmsg("%s%sGPU %u: %lld MiB in use at the end is no listed "
	    "process's: %s, which held the GPU open at the end unlisted (a "
	    "task of its own, note 'holder')", g->host,
	    g->host[0] != '\0' ? " " : "", g->gpu, (long long)mib, held);
	emit(e, g, &t);
	return 1;
}

/* The end of the stream for one GPU: leaks, unknowns, running tasks. */
static void
finish_gpu(struct engine *e, struct gpu *g)
{
	struct ptask **live = NULL;
	struct hent *h;
	size_t it = 0, n = 0, i, nlisted = 0;
	uint32_t *listed = NULL;	/* the pids of its tasks at the end */

	if (g->tent) {
		/* A drop in the last sample: nothing after it to confirm it. */
		size_t k;

		g->tent = 0;
		for (k = 0; k < g->nwait; k++)
			g->wait[k]->notes |= NOTE_LASTSAMPLE;
		give_back(e, g, g->tent_r, g->tent_ts);
		for (k = 0; k < g->nwait; k++)
			g->wait[k]->notes &= ~(unsigned)NOTE_LASTSAMPLE;
	}
	log_stopped(g);
	for (i = 0; i < g->nwait; i++) {
		listed = egrow(listed, nlisted, sizeof(*listed));
		listed[nlisted++] = g->wait[i]->pid;
		emit_ptask(e, g, g->wait[i], TASK_LEAKED);
		ptask_free(g->wait[i]);
	}
	g->nwait = 0;
	while ((h = hmap_next(&g->live, &it)) != NULL) {
		live = egrow(live, n, sizeof(*live));
		live[n++] = h->val;
		listed = egrow(listed, nlisted, sizeof(*listed));
		listed[nlisted++] = live[n - 1]->pid;
	}
	if (n > 1)
		qsort(live, n, sizeof(*live), by_start);
	for (i = 0; i < n; i++)
		emit_ptask(e, g, live[i], TASK_RUNNING);
	free(live);
	declared_finish(e->decl, g->decl, emit_declared, e, g);
	if (g->procs && g->have_first && e->cb.task != NULL) {
		/* Left at the end, above the start, and no leak's. */
		int64_t above = g->unattr - g->first_unattr -
		    (int64_t)g->leaked_mib;

		if (above > (int64_t)e->cfg->tolerance &&
		    !left_held(e, g, above, listed, nlisted)) {
			e->st.unowned_gpus++;
			e->st.unowned_mib += (uint64_t)above;
		}
	}
	free(listed);
	if (g->ep != NULL) {
		struct emit_ctx c = {e, g, 0};

		e->st.episode_merged += episodes_finish(g->ep, emit_episode,
		    &c);
		if (c.n > 0)
			e->st.episode_gpus++;
	}
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
	if (e->st.ambiguous > 0)
		note("%llu device samples fell between the two process polls "
		    "around a change of a process's memory: not used to time "
		    "releases", (unsigned long long)e->st.ambiguous);
	if (e->st.dips > 0)
		note("%llu drops of memory in use lasted one sample only: "
		    "not taken as releases", (unsigned long long)e->st.dips);
	if (e->st.resumed > 0)
		note("%llu processes were missing from some polls and listed "
		    "again: one task each", (unsigned long long)e->st.resumed);
	if (e->st.splits > 0)
		note("%llu pids were reused by a new process while the memory "
		    "of the one before was still out: two tasks each",
		    (unsigned long long)e->st.splits);
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
	if (e->st.episodes > 0) {
		char left[64];

		if (e->st.episode_mib > 0)
			snprintf(left, sizeof(left), "%llu MiB of it not back "
			    "at the end", (unsigned long long)e->st.episode_mib);
		else
			snprintf(left, sizeof(left), "all of it back by the end");
		if (e->st.episode_held == 0)
			warnmsg("no process was listed on %llu GPU%s: %llu "
			    "rise%s of memory in use %s task%s named %s (note "
			    "'device-only'), %s; give the --query-compute-apps "
			    "log of the same run, or --tasks, to know whose",
			    (unsigned long long)e->st.episode_gpus,
			    e->st.episode_gpus == 1 ? "" : "s",
			    (unsigned long long)e->st.episodes,
			    e->st.episodes == 1 ? "" : "s",
			    e->st.episodes == 1 ? "is a" : "are",
			    e->st.episodes == 1 ? "" : "s", EPISODE_NAME, left);
		else
			warnmsg("no process was listed on %llu GPU%s: %llu "
			    "rise%s of memory in use, %s; %llu named after the "
			    "process holding the GPU open (note 'holder'), the "
			    "first %s%s", (unsigned long long)e->st.episode_gpus,
			    e->st.episode_gpus == 1 ? "" : "s",
			    (unsigned long long)e->st.episodes,
			    e->st.episodes == 1 ? "" : "s", left,
			    (unsigned long long)e->st.episode_held, e->held1,
			    e->st.episode_held < e->st.episodes ? "; the others "
			    "are named " EPISODE_NAME ": give the "
			    "--query-compute-apps log of the same run, or "
			    "--tasks, to know whose" : "");
	}
	if (e->st.unowned_drops > 0)
		note("%llu drops of memory were of memory that rose while "
		    "tasks ran and none came or went (a desktop's, another "
		    "container's): not taken as waiting tasks' releases",
		    (unsigned long long)e->st.unowned_drops);
	if (e->st.unowned_gpus > 0)
		warnmsg("%llu MiB in use at the end on %llu GPU%s is held by no "
		    "task: above the level at the first sample, and no "
		    "process listed holds it (memory of processes the log "
		    "cannot see: a desktop, another container)",
		    (unsigned long long)e->st.unowned_mib,
		    (unsigned long long)e->st.unowned_gpus,
		    e->st.unowned_gpus == 1 ? "" : "s");
	if (e->st.episode_merged > 0)
		warnmsg("%llu episodes of memory in use were merged with "
		    "others: more than %d on one GPU, or %d open at once",
		    (unsigned long long)e->st.episode_merged, EPISODE_MAX,
		    EPISODE_OPEN);
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
	free(g->recent);
	free(g->sus);
	declared_free_gpu(g->decl);
	episodes_free(g->ep);
	free(g->host);
	free(g);
}

static void
hostgpus_free(void *p)
{
	struct hostgpus *h = p;

	free(h->host);
	free(h);
}

void
engine_free(struct engine *e)
{
	size_t i;

	if (e == NULL)
		return;
	hmap_release(&e->gpus, gpu_free);
	hmap_release(&e->hosts, hostgpus_free);
	declared_free(e->decl);
	for (i = 0; i < e->nna; i++) {
		free(e->na[i].host);
		free(e->na[i].name);
	}
	free(e->na);
	hmap_release(&e->nalive, NULL);
	free(e->pend);
	free(e->held1);
	sbuf_release(&e->key);
	free(e);
}
