/* SPDX-License-Identifier: ISC */
/*
 * twoloop.c: gpumem synth's two-loop simulator (synth.h), in true time as
 * "gpumem record" records: the device loop samples every GPU, the process
 * loop polls the processes on its own interval (drift, lost polls and
 * lines, a loop that dies), events in time order; then each task's true
 * start, exit and release as the truth.
 */
#include <stdlib.h>

#include "gtime.h"
#include "synth.h"
#include "util.h"

/* Uniform in [lo, hi]. */
static uint32_t
rng_in(const uint32_t r[2])
{
	return r[0] + (uint32_t)synth_rng_below((uint64_t)r[1] - r[0] + 1);
}

/* The tasks of sc, in start order (made from the seed for seq). */
struct ctask *
synth_ctasks(const struct scenario *sc, size_t *n)
{
	const struct seqgen *g = sc->tl->seq;
	struct ctask *t;
	uint64_t at;
	size_t i;

	*n = g != NULL ? g->count : sc->tl->nct;
	t = ecalloc(*n, sizeof(*t));
	at = g != NULL ? g->first : 0;
	for (i = 0; i < *n; i++) {
		if (g == NULL)
			t[i].d = sc->tl->ct[i];
		else {
			t[i].d.pid = g->pid + (uint32_t)i;
			t[i].d.name = g->name;
			t[i].d.start = at;
			t[i].d.exit = at + rng_in(g->run);
			t[i].d.mem = rng_in(g->mem);
			t[i].d.delay = rng_in(g->delay);
			at = t[i].d.exit + rng_in(g->gap);
		}
		t[i].s = t[i].d.start * NS_PER_MS;
		t[i].x = t[i].d.exit * NS_PER_MS;
		t[i].y = t[i].x + t[i].d.delay * NS_PER_MS;
	}
	return t;
}

/* MiB a task's process holds at rel, ramping up over its first steps. */
static uint32_t
ctask_mem(const struct ctask *t, uint64_t ramp, uint64_t rel)
{
	uint64_t k;

	if (ramp == 0)
		return t->d.mem;
	k = (rel - t->s) / ramp;
	return k == 0 ? t->d.mem / 4 : k == 1 ? t->d.mem / 2 : t->d.mem;
}

/* MiB the device holds for a task at rel (ns from the start). */
static uint64_t
ctask_dev(const struct ctask *t, uint64_t ramp, uint64_t rel)
{
	if (rel < t->s)
		return 0;
	if (rel < t->x)
		return ctask_mem(t, ramp, rel) + (uint64_t)t->d.ctx;
	if (rel < t->y)
		return ctask_mem(t, ramp, t->x) + (uint64_t)t->d.ctx;
	return t->d.leak > 0 ? (uint64_t)t->d.leak + t->d.ctx : 0;
}

/*
 * Whether a task's process is dead at rel but still listed, as nvidia-smi
 * lists a process killed before its context was torn down: its name
 * "[Not Found]", its memory, until the driver lets the memory go.
 */
static int
zombie(const struct ctask *t, uint64_t rel)
{
	return t->d.notfound && rel >= t->x && (rel < t->y || t->d.leak > 0);
}

/* A time jittered by up to jitter% of iv either way, in whole ms. */
static uint64_t
cjitter(const struct synth *s, uint64_t t, uint64_t iv)
{
	uint64_t j = (uint64_t)s->sc->jitter * iv / 100;

	if (j > 0)
		t = t + synth_rng_below(2 * j + 1) - j;
	if (t < s->start)
		t = s->start;	/* nothing before the first sample */
	return t - t % NS_PER_MS;
}

/* The process loop's interval as it runs (drift included). */
static uint64_t
proc_period(const struct loops *lp)
{
	return (uint64_t)((int64_t)lp->pp + (int64_t)lp->pp * lp->drift /
	    1000000);
}

/* One device sample of every GPU at ts. */
static void
cdevice(struct synth *s, const struct ctask *t, size_t n, uint64_t ramp,
    uint64_t ts, int *dipped)
{
	const struct scenario *sc = s->sc;
	uint64_t rel = ts - s->start, used;
	uint32_t gi;
	size_t i;

	for (gi = 0; gi < s->gpus; gi++) {
		used = sc->base;
		for (i = 0; i < n; i++)
			if (t[i].d.gpu == gi)
				used += ctask_dev(&t[i], ramp, rel);
		/* Memory no process lists: a desktop's graphics. */
		if (gi == 0 && sc->tl->desk > 0 &&
		    rel >= sc->tl->desk_from * NS_PER_MS &&
		    rel < sc->tl->desk_to * NS_PER_MS)
			used += sc->tl->desk;
		/* A glitch of one sample: the usage reads low once. */
		if (gi == 0 && sc->tl->dip > 0 && !*dipped &&
		    rel >= sc->tl->dip_at * NS_PER_MS) {
			*dipped = 1;
			used = used > sc->tl->dip ? used - sc->tl->dip : 0;
		}
		synth_device_rec(s, gi, ts, used);
	}
}

static int
by_gpu_pid(const void *a, const void *b)
{
	const struct ctask *x = *(struct ctask *const *)a;
	const struct ctask *y = *(struct ctask *const *)b;

	if (x->d.gpu != y->d.gpu)
		return (x->d.gpu > y->d.gpu) - (x->d.gpu < y->d.gpu);
	return (x->d.pid > y->d.pid) - (x->d.pid < y->d.pid);
}

/*
 * One poll of the process loop at ts: the processes alive then, but the
 * lines lost, or nothing when the poll is lost; then a memory_used = 0
 * record for each process listed before and not now (unless a process of
 * the same pid is listed now: a reader cannot tell them apart).
 */
static void
cpoll(struct synth *s, struct ctask *t, size_t n, const struct loops *lp,
    uint64_t ramp, uint64_t ts, struct ctask **v)
{
	uint64_t rel = ts - s->start, per = proc_period(lp);
	size_t i, k, nv = 0;
	int lost;

	lost = lp->lose_polls > 0 && synth_rng_below(100) < lp->lose_polls;
	for (i = 0; i < n && !lost; i++)
		if (t[i].d.lose > 0 && rel < t[i].x &&
		    rel + t[i].d.lose * per >= t[i].x)
			lost = 1;	/* the polls just before its exit */
	if (lost)
		return;
	for (i = 0; i < n; i++) {
		int now = t[i].s <= rel && (rel < t[i].x || zombie(&t[i],
		    rel)) && (lp->lose_lines == 0 ||
		    synth_rng_below(100) >= lp->lose_lines);

		if (now || t[i].listed)
			v[nv++] = &t[i];
		t[i].listed = t[i].listed ? 2 : 0;
		if (now)
			t[i].listed = 1;
	}
	qsort(v, nv, sizeof(*v), by_gpu_pid);
	for (i = 0; i < nv; i++) {
		uint32_t m;

		if (v[i]->listed != 1)
			continue;
		if (zombie(v[i], rel)) {
			synth_proc_rec(s, v[i]->d.gpu, v[i]->d.pid,
			    REC_NOT_FOUND, ts, ctask_mem(v[i], ramp, v[i]->x));
			continue;
		}
		m = ctask_mem(v[i], ramp, rel);
		v[i]->ever = 1;
		v[i]->last = ts;
		v[i]->held = m;
		if (m > v[i]->peak)
			v[i]->peak = m;
		synth_proc_rec(s, v[i]->d.gpu, v[i]->d.pid, v[i]->d.name, ts,
		    m);
	}
	for (i = 0; i < nv; i++) {
		if (v[i]->listed != 2)
			continue;
		v[i]->listed = 0;
		for (k = 0; k < nv; k++)
			if (v[k]->listed == 1 && v[k]->d.gpu == v[i]->d.gpu &&
			    v[k]->d.pid == v[i]->d.pid)
				break;
		if (k == nv)
			synth_proc_rec(s, v[i]->d.gpu, v[i]->d.pid,
			    v[i]->d.name, ts, 0);
	}
}

/* The truth of a two-loop task: true times, what was listed. */
static void
ctruth(struct synth *s, const struct ctask *t, const struct loops *lp,
    uint64_t ramp)
{
	char buf[2 * REC_MAXSTR + 3];
	uint64_t d;
	size_t n;

	if (s->truth == NULL || !t->ever)
		return;
	fprintf(s->truth, "%s,%u,%u,", s->host, t->d.gpu, t->d.pid);
	n = csv_field(buf, t->d.name);
	fwrite(buf, 1, n, s->truth);
	if (t->x >= lp->len) {
		/* Still running: last seen at its last poll. */
		fprintf(s->truth, ",%llu,%llu,%u,%u,,,,running\n",
		    (unsigned long long)(s->start + t->s),
		    (unsigned long long)t->last, t->peak, t->held);
		return;
	}
	fprintf(s->truth, ",%llu,%llu,%u,%u,",
	    (unsigned long long)(s->start + t->s),
	    (unsigned long long)(s->start + t->x), t->peak, t->held);
	if (t->y >= lp->len)	/* still waiting: what it holds is out */
		fprintf(s->truth, ",,%llu,leaked\n", (unsigned long long)
		    (ctask_mem(t, ramp, t->x) + (uint64_t)t->d.ctx));
	else if (t->d.leak > 0)
		fprintf(s->truth, ",,%llu,leaked\n",
		    (unsigned long long)t->d.leak + t->d.ctx);
	else {
		d = t->y - t->x;
		fprintf(s->truth, "%llu,%llu.%03llu,0,released\n",
		    (unsigned long long)(s->start + t->y),
		    (unsigned long long)(d / NS_PER_SEC),
		    (unsigned long long)(d % NS_PER_SEC / NS_PER_MS));
	}
}

/* The two loops, one event at a time in time order (devices first). */
void
synth_run_loops(struct synth *s, struct ctask *t, size_t n,
    const struct loops *lp)
{
	uint64_t ramp = s->sc->tl->ramp * NS_PER_MS, per = proc_period(lp);
	uint64_t end = s->start + lp->len, dt, pt, last = 0, k = 0, j = 0;
	uint64_t pbase = s->start + lp->off;
	const struct twoloop *tl = s->sc->tl;
	struct ctask **v = ereallocarray(NULL, n + 1, sizeof(*v));
	int dipped = 0;
	size_t i;

	dt = cjitter(s, s->start, lp->pd);
	pt = cjitter(s, s->start + lp->off, lp->pp);
	while (dt < end || pt < end) {
		uint64_t now = dt <= pt ? dt : pt;

		if (s->gmem && now != last)
			synth_flush_gmem(s);
		last = now;
		if (dt <= pt) {
			cdevice(s, t, n, ramp, dt, &dipped);
			k++;
			dt = cjitter(s, s->start + k * lp->pd, lp->pd);
		} else {
			cpoll(s, t, n, lp, ramp, pt, v);
			j++;
			pt = cjitter(s, pbase + j * per, lp->pp);
			/* Restarted with another interval (-l 1 after -lms). */
			if (tl->restart != 0 && per != tl->pp2 * NS_PER_MS &&
			    pt >= s->start + tl->restart * NS_PER_MS) {
				per = tl->pp2 * NS_PER_MS;
				pbase = s->start + tl->restart * NS_PER_MS +
				    lp->off;
				j = 0;
				pt = pbase;
				/* A new nvidia-smi prints its header. */
				if (s->apps != NULL && !s->noheader)
					fprintf(s->apps, "%s\n",
					    SYNTH_APPS_HEADER);
			}
			/* Killed: no poll from then on. */
			if (tl->pstop != 0 &&
			    pt >= s->start + tl->pstop * NS_PER_MS)
				pt = end;
		}
	}
	if (s->gmem)
		synth_flush_gmem(s);
	for (i = 0; i < n; i++)
		ctruth(s, &t[i], lp, ramp);
	free(v);
}
