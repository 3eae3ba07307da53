/* SPDX-License-Identifier: ISC */
/*
 * oneloop.c: gpumem synth's one-loop generator (synth.h): a scenario
 * sample by sample, every GPU at each tick, with time jitter, memory noise
 * and dropped samples; each task's truth as it finishes, and at the end
 * the leaks and the tasks still running.  The random scenario draws its
 * tasks as it goes, so memory does not grow with --duration.
 */
#include <stdlib.h>
#include <string.h>

#include "gtime.h"
#include "synth.h"
#include "util.h"

static void
truth_row(struct synth *s, uint32_t gpu, const struct task *t)
{
	char secs[32];

	if (s->truth == NULL)
		return;
	fprintf(s->truth, "%s,%u,%u,", s->host, gpu, t->d.pid);
	{
		char buf[2 * 256 + 3];
		size_t n = csv_field(buf, t->d.name);

		fwrite(buf, 1, n, s->truth);
	}
	fprintf(s->truth, ",%llu,%llu,%u,%u,", (unsigned long long)t->t_start,
	    (unsigned long long)(t->state == T_LIVE ? t->t_last : t->t_end),
	    t->peak, t->held);
	if (t->t_release != 0 && t->d.leak == 0) {
		uint64_t d = t->t_release - t->t_end;

		snprintf(secs, sizeof(secs), "%llu.%03llu",
		    (unsigned long long)(d / NS_PER_SEC),
		    (unsigned long long)(d % NS_PER_SEC / NS_PER_MS));
		fprintf(s->truth, "%llu,%s,0,released\n",
		    (unsigned long long)t->t_release, secs);
	} else if (t->state == T_LIVE || (t->state == T_PENDING)) {
		fprintf(s->truth, ",,,running\n");
	} else {
		fprintf(s->truth, ",,%u,leaked\n", t->d.leak != 0 ?
		    t->d.leak : t->held);
	}
}

/* The next scenario task, or a random one; 0 when there is none. */
static int
next_def(struct synth *s, uint32_t gpu, uint64_t tick, struct tdef *d)
{
	static const char *const names[] = {
		"python3", "python3 train.py", "torchrun", "ollama",
		"pytest", "llama-server", "blender", "ffmpeg"
	};
	struct gpu *g = &s->g[gpu];
	uint64_t len;

	if (s->sc->tasks != NULL) {
		if (s->nextdef < s->sc->ntasks &&
		    s->sc->tasks[s->nextdef].gpu == gpu &&
		    s->sc->tasks[s->nextdef].start <= tick) {
			*d = s->sc->tasks[s->nextdef++];
			return 1;
		}
		return 0;
	}
	if (tick < g->next_rand)
		return 0;
	/* A random task: 10 s to 10 min, 1 to 20 GiB, mostly quick releases. */
	memset(d, 0, sizeof(*d));
	d->gpu = gpu;
	d->pid = 10000 + gpu * 100000 + g->next_pid++;
	d->name = names[synth_rng_below(sizeof(names) / sizeof(names[0]))];
	len = (10 + synth_rng_below(590)) * NS_PER_SEC / s->interval + 1;
	d->start = tick;
	d->end = tick + len;
	d->mem = (uint32_t)(1024 + synth_rng_below(19 * 1024));
	d->delay = synth_rng_below(4) == 0 ? synth_rng_below(30 * NS_PER_SEC /
	    s->interval + 1) : 0;
	d->leak = synth_rng_below(20) == 0 ? (uint32_t)(synth_rng_below(2) ?
	    d->mem : d->mem / 4) : 0;
	if (g->leaked + d->leak > 40 * 1024)
		d->leak = 0;	/* keep the GPU usable */
	g->next_rand = d->end + 1 +
	    synth_rng_below(20 * NS_PER_SEC / s->interval);
	return 1;
}

/* Memory a task's process holds at tick: ramping up over 3 samples. */
static uint32_t
task_mem(const struct tdef *d, uint64_t tick)
{
	uint64_t k = tick - d->start;

	if (k == 0)
		return d->mem / 4;
	if (k == 1)
		return d->mem / 2;
	return d->mem;
}

/* One sample of every GPU at tick (ts is its jittered time). */
static void
sample(struct synth *s, uint64_t tick, uint64_t ts, int emitted)
{
	const struct scenario *sc = s->sc;
	uint32_t gi;
	size_t i;

	/* Tasks that start now; scenario tasks are in start order. */
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];
		struct tdef d;

		while (g->n < MAXTASK && next_def(s, gi, tick, &d)) {
			memset(&g->t[g->n], 0, sizeof(g->t[g->n]));
			g->t[g->n].d = d;
			g->n++;
		}
	}
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];
		uint64_t used;

		g->free = 0;

		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if (t->state == T_PENDING && tick >= t->d.start &&
			    tick < t->d.end && emitted)
				t->state = T_LIVE;
			if (t->state == T_LIVE && tick >= t->d.end && emitted) {
				t->state = T_WAITING;
				t->t_end = ts;
			}
			if (t->state == T_WAITING &&
			    tick >= t->d.end + t->d.delay && emitted) {
				t->t_release = ts;
				g->leaked += t->d.leak;
				t->state = T_DONE;
			}
		}
		/* What the device shows, once every task has moved on. */
		used = sc->base + g->leaked;
		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if (t->state == T_LIVE) {
				t->cur = task_mem(&t->d, tick);
				used += t->cur;
			} else if (t->state == T_WAITING)
				used += t->d.mem;
		}
		if (!emitted)
			continue;
		if (sc->noise > 0) {
			int64_t n = (int64_t)synth_rng_below(2 *
			    (uint64_t)sc->noise + 1) - sc->noise;

			if ((int64_t)used + n >= 0)
				used = (uint64_t)((int64_t)used + n);
		}
		synth_device_rec(s, gi, ts, used);
	}
	if (!emitted)
		return;
	/* Processes listed at this sample, then those just gone. */
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];

		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if (t->state != T_LIVE)
				continue;
			if (!t->listed) {
				t->listed = 1;
				t->t_start = ts;
			}
			if (t->cur > t->peak)
				t->peak = t->cur;
			t->held = t->cur;
			t->t_last = ts;
			synth_proc_rec(s, gi, t->d.pid, t->d.name, ts, t->cur);
		}
	}
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];

		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if ((t->state != T_WAITING && t->state != T_DONE) ||
			    t->ended_seen || t->t_end != ts)
				continue;
			t->ended_seen = 1;
			synth_proc_rec(s, gi, t->d.pid, t->d.name, ts, 0);
		}
	}
	if (s->gmem)
		synth_flush_gmem(s);
	/* Finished tasks: their truth, and room for new ones. */
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];

		for (i = 0; i < g->n;) {
			if (g->t[i].state == T_DONE) {
				truth_row(s, gi, &g->t[i]);
				g->t[i] = g->t[--g->n];
			} else
				i++;
		}
	}
}

/*
 * Rows of one sample must stay in sample order: sort the tasks of each GPU
 * by pid so that every output lists processes in the same order.
 */
static int
by_pid(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return (x->d.pid > y->d.pid) - (x->d.pid < y->d.pid);
}

void
synth_run(struct synth *s)
{
	uint64_t tick, ts;
	uint32_t gi;
	size_t i;

	for (tick = 0; tick < s->ticks; tick++) {
		int emitted = s->sc->drop == 0 || tick == 0 ||
		    synth_rng_below(100) >= (uint64_t)s->sc->drop;
		int64_t j = 0;

		if (s->sc->jitter > 0)
			j = (int64_t)synth_rng_below(2 *
			    (uint64_t)s->sc->jitter * s->interval / 100 + 1) -
			    (int64_t)((uint64_t)s->sc->jitter * s->interval / 100);
		/* Whole milliseconds, as nvidia-smi prints them. */
		ts = s->start + tick * s->interval + (uint64_t)j;
		ts -= ts % NS_PER_MS;
		for (gi = 0; gi < s->gpus; gi++)
			qsort(s->g[gi].t, s->g[gi].n, sizeof(struct task),
			    by_pid);
		sample(s, tick, ts, emitted);
	}
	/* What never finished: leaks and tasks still running. */
	for (gi = 0; gi < s->gpus; gi++)
		for (i = 0; i < s->g[gi].n; i++) {
			struct task *t = &s->g[gi].t[i];

			if (t->state == T_WAITING && t->d.leak == 0 &&
			    t->d.delay > 0) {
				/* Still waiting at the end: shown as leaked. */
				t->d.leak = t->d.mem;
			}
			if (t->listed)
				truth_row(s, gi, t);
		}
}
