/* SPDX-License-Identifier: ISC */
/*
 * engemit.c: the tasks the engine writes out (engstate.h): a task's row
 * counted and given to the caller, declared tasks and the episodes of a
 * GPU no process is listed on turned into rows, and the end of the
 * stream for a GPU: leaks, running tasks, memory left that no task holds.
 */
#include <stdlib.h>
#include <string.h>

#include "engstate.h"
#include "gpumap.h"
#include "recdir.h"

void
eng_emit(struct engine *e, struct gpu *g, struct task *t)
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

/* A task's row, its other fields 0. */
void
eng_task_init(struct task *t, const char *name, uint32_t pid, uint64_t start,
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
void
eng_emit_ptask(struct engine *e, struct gpu *g, const struct ptask *p,
    enum task_status status)
{
	struct task t;

	eng_task_init(&t, p->name, p->pid, p->start, status == TASK_RUNNING ?
	    p->last : p->end, p->peak, p->held, status);
	t.notes = p->notes;
	if (status == TASK_LEAKED) {
		t.has_leaked = g->have_sample && p->after > 0;
		t.leaked = t.has_leaked ? p->remaining : 0;
	}
	eng_emit(e, g, &t);
}

/* A declared task judged (declared.h): ctx is the engine, gp the GPU. */
void
eng_emit_declared(void *ctx, void *gp, const struct declared_task *d)
{
	struct task t;

	/* A running estimated task ends, as others do, at its last listing. */
	eng_task_init(&t, d->name, d->pid, d->start, d->end == UINT64_MAX ?
	    eng_na_last(ctx, d->host, d->gpu, d->pid) : d->end, d->peak, d->held,
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
	eng_emit(ctx, gp, &t);
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
	eng_emit(c->e, c->g, t);
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
	uint64_t quiet, need = LOG_STOP * eng_proc_iv(g);
	size_t i, n = 0;
	char t[GTIME_BUFSZ];

	if (!g->proc.have || !g->dev.have || g->dev.last <= g->proc.last)
		return;
	quiet = g->dev.last - g->proc.last;
	if (quiet < need || quiet < LOG_STOP_MIN)
		return;
	for (i = 0; i < g->nwait; i++)
		if (g->wait[i]->last == g->proc.last &&
		    eng_silence_end(g, g->wait[i])) {
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
	eng_emit(e, g, &t);
	return 1;
}

/* The end of the stream for one GPU: leaks, unknowns, running tasks. */
void
eng_finish_gpu(struct engine *e, struct gpu *g)
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
		eng_give_back(e, g, g->tent_r, g->tent_ts);
		for (k = 0; k < g->nwait; k++)
			g->wait[k]->notes &= ~(unsigned)NOTE_LASTSAMPLE;
	}
	log_stopped(g);
	for (i = 0; i < g->nwait; i++) {
		listed = egrow(listed, nlisted, sizeof(*listed));
		listed[nlisted++] = g->wait[i]->pid;
		eng_emit_ptask(e, g, g->wait[i], TASK_LEAKED);
		eng_ptask_free(g->wait[i]);
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
		eng_emit_ptask(e, g, live[i], TASK_RUNNING);
	free(live);
	declared_finish(e->decl, g->decl, eng_emit_declared, e, g);
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
