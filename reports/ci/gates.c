/* SPDX-License-Identifier: ISC */
/*
 * gates.c: gpumem check's rules applied to a run (gates.h): names and
 * labels, the rules of each task and GPU, the verdicts, and gates_eval,
 * which applies them all (with baseline.c's against a baseline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatesint.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "util.h"

const char *
gate_name(enum gate g)
{
	static const char *const names[] = {"input", "max_leak_mib",
	    "max_release_delay_s", "allow_running_after_command",
	    "max_unattributed_mib_at_end",
	    "max_leak_regression_mib", "max_delay_regression", "vanished"};

	return names[g];
}

const char *
gates_result_name(enum result r)
{
	static const char *const names[] = {"pass", "fail", "skipped",
	    "error"};

	return names[r];
}

char *
gates_gpu_label(const char *host, uint32_t gpu, char *buf, size_t n)
{
	if (host[0] != '\0')
		snprintf(buf, n, "%s:gpu %u", host, gpu);
	else
		snprintf(buf, n, "gpu %u", gpu);
	return buf;
}

const char *
gates_task_name(const struct task *t, char *buf, size_t n)
{
	if (t->name[0] != '\0')
		return t->name;
	snprintf(buf, n, "pid %u", t->pid);
	return buf;
}

char *
gates_task_label(const struct task *t, char *buf, size_t n)
{
	if (t->notes & (NOTE_DEVONLY | NOTE_HOLDER))
		snprintf(buf, n, "%s (no process listed)", t->name);
	else if (t->declared)
		snprintf(buf, n, "%s (declared)", t->name);
	else if (t->name[0] == '\0')
		snprintf(buf, n, "pid %u", t->pid);
	else
		snprintf(buf, n, "%s (pid %u)", t->name, t->pid);
	return buf;
}

char *
gates_delay_str(const struct task *t, char *buf)
{
	return tasktab_delay(t->delay, t->interval, buf);
}

/*
 * Limits are compared with what the sampling can tell, not with the noise
 * below it.
 */
uint64_t
gates_delay_rounded(const struct task *t)
{
	char buf[32];
	uint64_t ns;

	if (gtime_duration(gates_delay_str(t, buf), &ns) < 0)
		BUG("delay '%s' does not read back", buf);
	return ns;
}

/* A limit and where it comes from. */
struct rule {
	int set;
	uint64_t v;		/* MiB, or ns */
	char src[256];
};

/*
 * Whether g sets the rule of gate k (max_leak_mib, max_release_delay_s or
 * allow_running_after_command); its value and the line of its key.
 */
static int
cfg_sets(const struct cfg_gate *g, enum gate k, uint64_t *v, unsigned *line)
{
	switch (k) {
	case GATE_LEAK:
		*v = g->max_leak_mib;
		*line = g->leak_line;
		return g->has_leak;
	case GATE_DELAY:
		*v = g->max_delay_ns;
		*line = g->delay_line;
		return g->has_delay;
	case GATE_RUNNING:
		*v = (uint64_t)g->allow_running;
		*line = g->running_line;
		return g->has_running;
	default:
		BUG("%s is not a rule of tasks", gate_name(k));
	}
}

/* The rule of gate k (as cfg_sets()) for task t. */
static void
task_rule(const struct limits *lim, const struct task *t, enum gate k,
    struct rule *r)
{
	const struct config *c = lim->cfg;
	unsigned line;
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < c->ngates; i++) {
		if (!cfg_sets(&c->gates[i], k, &r->v, &line) ||
		    !config_match(&c->gates[i].m, t->pid, t->name))
			continue;
		r->set = 1;
		snprintf(r->src, sizeof(r->src), "tasks[%zu], %s:%u", i,
		    c->path, line);
		return;
	}
	if ((k == GATE_LEAK && lim->has_leak) ||
	    (k == GATE_DELAY && lim->has_delay)) {
		r->set = 1;
		r->v = k == GATE_LEAK ? lim->leak : lim->delay;
		snprintf(r->src, sizeof(r->src), "%s", k == GATE_LEAK ?
		    "--max-leak" : "--max-delay");
	} else if (cfg_sets(&c->defaults, k, &r->v, &line)) {
		r->set = 1;
		snprintf(r->src, sizeof(r->src), "defaults, %s:%u", c->path,
		    line);
	} else if (k != GATE_DELAY) {
		/* No leak, and no task left running, unless allowed. */
		r->set = 1;
		r->v = k == GATE_LEAK ? BUILTIN_MAX_LEAK_MIB : 0;
		snprintf(r->src, sizeof(r->src), "built-in");
	}
}

struct verdict *
gates_add(struct verdicts *vs, enum gate g, const char *host, uint32_t gpu,
    const struct task *t, const struct task *base)
{
	struct verdict *v;

	vs->v = run_grow(vs->v, vs->nv, &vs->capv, sizeof(*vs->v));
	v = &vs->v[vs->nv++];
	memset(v, 0, sizeof(*v));
	v->gate = g;
	v->host = host;
	v->gpu = gpu;
	v->t = t;
	v->base = base;
	return v;
}

void
gates_set_msg(struct verdict *v, enum result res, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	v->res = res;
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	v->msg = sb.buf;
}

static void
set_src(struct verdict *v, const char *src)
{
	v->src = estrdup(src);
}

void
gates_mib_value(char *buf, int64_t v)
{
	snprintf(buf, 32, "%lld", (long long)v);
}

const char gates_running_msg[] = "still running at the last sample: not "
    "judged";

/*
 * A leak the data cannot pin on t alone (note ambiguous): the other tasks
 * of its GPU noted so whose ends lie within two sampling intervals of
 * its end, as "; or ..." to append to its message; "" when none.
 */
static const char *
candidates(const struct verdicts *vs, const struct task *t, struct sbuf *sb)
{
	uint64_t win = 2 * (t->interval != 0 ? t->interval : NS_PER_SEC);
	char buf[160];
	size_t i, n = 0;

	sbuf_reset(sb);
	if (!(t->notes & NOTE_AMBIGUOUS))
		return "";
	for (i = 0; i < vs->now->tl.n; i++) {
		const struct task *o = &vs->now->tl.t[i];

		if (o == t || !(o->notes & NOTE_AMBIGUOUS) ||
		    gpumap_hostgpu_cmp(o->host, o->gpu, t->host, t->gpu) != 0 ||
		    (o->end > t->end ? o->end - t->end : t->end - o->end) >
		    win)
			continue;
		sbuf_adds(sb, n++ == 0 ? "; the data cannot tell it from " :
		    ", ");
		sbuf_adds(sb, gates_task_label(o, buf, sizeof(buf)));
	}
	if (n > 0)
		sbuf_adds(sb, ", which ended as it did (note ambiguous)");
	return sb->buf != NULL ? sb->buf : "";
}

static void
gate_leak(struct verdicts *vs, const struct task *t)
{
	struct verdict *v = gates_add(vs, GATE_LEAK, t->host, t->gpu, t, NULL);
	struct sbuf sb = SBUF_INIT;
	struct rule r;

	task_rule(vs->lim, t, GATE_LEAK, &r);
	set_src(v, r.src);
	v->unit = "MiB";
	gates_mib_value(v->limit, (int64_t)r.v);
	switch (t->status) {
	case TASK_RUNNING:
		gates_set_msg(v, RES_SKIP, "%s", gates_running_msg);
		break;
	case TASK_RELEASED:
		gates_mib_value(v->value, 0);
		gates_set_msg(v, RES_PASS, "nothing leaked");
		break;
	case TASK_LEAKED:
		if (!t->has_leaked) {
			gates_set_msg(v, RES_FAIL, "leaked an unknown amount: "
			    "no whole-device sample after it ended (give the "
			    "query-gpu log of the same run)");
			break;
		}
		gates_mib_value(v->value, t->leaked);
		if (t->leaked > r.v)
			gates_set_msg(v, RES_FAIL,
			    "leaked %u MiB, more than %llu%s%s", t->leaked,
			    (unsigned long long)r.v,
			    candidates(vs, t, &sb), t->notes & NOTE_LOGSTOP ?
			    " (or still running: the process log stopped "
			    "after listing it)" : "");
		else
			gates_set_msg(v, RES_PASS, "leaked %u MiB, within %llu",
			    t->leaked, (unsigned long long)r.v);
		break;
	}
	sbuf_release(&sb);
}

static void
gate_delay(struct verdicts *vs, const struct task *t)
{
	struct verdict *v;
	struct rule r;
	char d[32], lim[32];
	uint64_t delay;

	task_rule(vs->lim, t, GATE_DELAY, &r);
	if (!r.set)
		return;
	v = gates_add(vs, GATE_DELAY, t->host, t->gpu, t, NULL);
	set_src(v, r.src);
	v->unit = "s";
	gtime_fmt_secs(r.v, lim);
	snprintf(v->limit, sizeof(v->limit), "%s", lim);
	switch (t->status) {
	case TASK_RUNNING:
		gates_set_msg(v, RES_SKIP, "%s", gates_running_msg);
		break;
	case TASK_LEAKED:
		gates_set_msg(v, RES_SKIP, "never released: see max_leak_mib");
		break;
	case TASK_RELEASED:
		delay = gates_delay_rounded(t);
		snprintf(v->value, sizeof(v->value), "%s",
		    gates_delay_str(t, d));
		if (delay > r.v)
			gates_set_msg(v, RES_FAIL, "released after %s s, more "
			    "than %s s", d, lim);
		else
			gates_set_msg(v, RES_PASS,
			    "released after %s s, within %s s", d, lim);
		break;
	}
}

/*
 * A task the recorded command left running: still listed at the last
 * sample, last seen after the command ended, holding memory (a task with
 * a record of 0 MiB has ended).
 */
static void
gate_running(struct verdicts *vs, const struct task *t)
{
	const struct limits *lim = vs->lim;
	struct verdict *v;
	struct rule r;

	if (t->status != TASK_RUNNING || t->declared || !lim->has_cmd_end)
		return;
	v = gates_add(vs, GATE_RUNNING, t->host, t->gpu, t, NULL);
	task_rule(lim, t, GATE_RUNNING, &r);
	set_src(v, r.src);
	v->unit = "MiB";
	gates_mib_value(v->value, t->held);
	if (t->end <= lim->cmd_end)
		gates_set_msg(v, RES_SKIP, "last seen before the command ended "
		    "(%s): not judged", lim->cmd_from);
	else if (lim->has_cmd_start && t->start < lim->cmd_start)
		gates_set_msg(v, RES_SKIP, "running since before the command "
		    "started (%s), not the command's: not judged",
		    lim->cmd_from);
	else if (r.v)
		gates_set_msg(v, RES_PASS, "still running after the command "
		    "ended (%s), holding %u MiB at the last sample: allowed",
		    lim->cmd_from, t->held);
	else {
		gates_mib_value(v->limit, 0);
		gates_set_msg(v, RES_FAIL, "still running after the command "
		    "ended (%s), holding %u MiB at the last sample",
		    lim->cmd_from, t->held);
	}
}

/*
 * Memory left on GPU g at the end.  leaks: the MiB its tasks leaked (known
 * amounts), which the built-in rule takes off: max_leak_mib judged them.
 */
static void
gate_unattr(struct verdicts *vs, const struct gpuinfo *g, uint64_t leaks)
{
	const struct config *c = vs->lim->cfg;
	const struct cfg_device *dev;
	struct verdict *v;
	struct sbuf sb = SBUF_INIT;
	char idle[96];
	int64_t base, above, left;
	int builtin = !c->has_max_unattr_end;
	uint32_t limit = builtin ? c->tolerance : c->max_unattr_end;

	v = gates_add(vs, GATE_UNATTR, g->host, g->gpu, NULL, NULL);
	v->gi = g;
	v->unit = "MiB";
	gates_mib_value(v->limit, limit);
	if (builtin)
		sbuf_adds(&sb, "built-in: tolerance_mib");
	else
		sbuf_printf(&sb, "gpus, %s:%u", c->path, c->unattr_line);
	v->src = sb.buf;
	if (vs->now->table) {
		gates_set_msg(v, RES_SKIP,
		    "a task table has no device samples");
		return;
	}
	if (g->samples == 0) {
		gates_set_msg(v, RES_FAIL, "unknown: no whole-device sample "
		    "(give the query-gpu log of the same run)");
		return;
	}
	dev = config_device(c, g->host, g->gpu);
	if (dev != NULL && dev->has_idle) {
		base = dev->idle;
		snprintf(idle, sizeof(idle), "idle_mib %u", dev->idle);
	} else {
		base = g->first_unattr;
		snprintf(idle, sizeof(idle), "%lld MiB at the first sample",
		    (long long)base);
	}
	above = g->last_unattr - base;
	if (!builtin || leaks == 0) {
		gates_mib_value(v->value, above);
		gates_set_msg(v, above > (int64_t)limit ? RES_FAIL : RES_PASS,
		    "%lld MiB unattributed at the last sample, %lld MiB above "
		    "the idle baseline (%s): %s %u",
		    (long long)g->last_unattr, (long long)above, idle,
		    above > (int64_t)limit ? "more than" : "within", limit);
		return;
	}
	/* What the leaks judged above do not account for. */
	left = above - (int64_t)(leaks > INT64_MAX ? INT64_MAX : leaks);
	if (left < 0)
		left = above < 0 ? above : 0;
	gates_mib_value(v->value, left);
	gates_set_msg(v, left > (int64_t)limit ? RES_FAIL : RES_PASS, "%lld "
	    "MiB unattributed at the last sample, %lld MiB above the idle "
	    "baseline (%s), %llu MiB of it leaked by its tasks (see "
	    "max_leak_mib): %lld MiB unaccounted for, %s %u",
	    (long long)g->last_unattr, (long long)above, idle,
	    (unsigned long long)leaks, (long long)left,
	    left > (int64_t)limit ? "more than" : "within", limit);
}

/* --- All together --- */

struct gref {
	const char *host;
	uint32_t gpu;
	const struct gpuinfo *gi;	/* NULL: only the baseline has it */
};

static int
by_gref(const void *a, const void *b)
{
	const struct gref *x = a, *y = b;

	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

/* The leaked MiB (known amounts) of the tasks of (host, gpu) from l->t[i]. */
static uint64_t
gpu_leaks(const struct tasklist *l, size_t i, const char *host, uint32_t gpu)
{
	uint64_t sum = 0;

	for (; i < l->n && gpumap_hostgpu_cmp(l->t[i].host, l->t[i].gpu, host,
	    gpu) == 0; i++)
		if (l->t[i].status == TASK_LEAKED && l->t[i].has_leaked)
			sum += l->t[i].leaked;
	return sum;
}

/*
 * No check passed or failed: a gate that passed now would pass on what it
 * cannot see.  An error first among the verdicts, as an unreadable input.
 */
static void
nothing_judged(struct verdicts *vs)
{
	struct verdict v;
	size_t i;

	for (i = 0; i < vs->nv; i++)
		if (vs->v[i].res == RES_PASS || vs->v[i].res == RES_FAIL)
			return;
	vs->nothing_judged = 1;
	gates_add(vs, GATE_INPUT, "", 0, NULL, NULL);
	v = vs->v[vs->nv - 1];
	memmove(vs->v + 1, vs->v, (vs->nv - 1) * sizeof(*vs->v));
	gates_set_msg(&v, RES_ERROR, "nothing judged: give --tasks FILE (the "
	    "jobs of a device-only log) or a log with processes");
	vs->v[0] = v;
}

/*
 * The recording ends before the command did, by more than two sampling
 * intervals of its last GPU (2 s at least): the recorder stopped or
 * died.  An error: what the tasks did after it is unknown.
 */
static void
gate_stopped(struct verdicts *vs)
{
	const struct run *now = vs->now;
	const struct gpuinfo *last = NULL;
	struct verdict *v;
	uint64_t end = vs->lim->cmd_end, iv, slack;
	char at[GTIME_BUFSZ];
	size_t i;

	if (!vs->lim->has_cmd_end)
		return;
	for (i = 0; i < now->ngpu; i++)
		if (now->gpu[i].samples > 0 &&
		    (last == NULL || now->gpu[i].last_ts > last->last_ts))
			last = &now->gpu[i];
	if (last == NULL)
		return;
	iv = last->samples > 1 ? (last->last_ts - last->first_ts) /
	    (last->samples - 1) : 0;
	slack = 2 * (iv > NS_PER_SEC ? iv : NS_PER_SEC);
	if (vs->lim->until < end)
		end = vs->lim->until;
	if (last->last_ts >= end || end - last->last_ts <= slack)
		return;
	vs->stopped_at = last->last_ts;
	v = gates_add(vs, GATE_INPUT, "", 0, NULL, NULL);
	v->unit = "s";
	snprintf(v->value, sizeof(v->value), "%llu",
	    (unsigned long long)((end - last->last_ts) / NS_PER_SEC));
	memcpy(vs->stopped_by, v->value, sizeof(vs->stopped_by));
	gates_set_msg(v, RES_ERROR, "the recorder stopped at %s, %s s before "
	    "the command ended (%s): the verdict is incomplete",
	    gtime_fmt(last->last_ts, 1, at), v->value, vs->lim->cmd_from);
}

void
gates_eval(struct verdicts *vs)
{
	const struct run *now = vs->now, *base = vs->base;
	const struct tasklist *b = base != NULL ? &base->tl : NULL;
	struct gref *g;
	unsigned char *used = NULL;
	uint32_t *bocc = NULL;
	const char *vhost = NULL;	/* hosts ignored: the host of now */
	size_t ng, i, ti = 0, bi = 0;
	int hosts = 1;

	vs->match = ecalloc(now->tl.n + 1, sizeof(*vs->match));
	vs->tres = ecalloc(now->tl.n + 1, sizeof(*vs->tres));
	vs->occ = ecalloc(now->tl.n + 1, sizeof(*vs->occ));
	gates_occurrences(&now->tl, vs->occ);
	if (vs->input_failed) {
		struct verdict *v = gates_add(vs, GATE_INPUT, "", 0, NULL,
		    NULL);

		gates_set_msg(v, RES_ERROR, "the input could not be read in "
		    "full (the messages of gpumem check say why): the verdict "
		    "is incomplete");
	}
	gate_stopped(vs);
	if (base != NULL) {
		used = ecalloc(b->n + 1, 1);
		bocc = ecalloc(b->n + 1, sizeof(*bocc));
		hosts = !(gates_one_host(now) && gates_one_host(base));
		if (!hosts)
			vhost = now->ngpu > 0 ? now->gpu[0].host : NULL;
		gates_match(vs, hosts, used, bocc);
	}

	/* The GPUs: this run's, and the baseline's with a vanished task. */
	g = ereallocarray(NULL, now->ngpu + (b != NULL ? b->n : 0) + 1,
	    sizeof(*g));
	for (ng = 0; ng < now->ngpu; ng++) {
		g[ng].host = now->gpu[ng].host;
		g[ng].gpu = now->gpu[ng].gpu;
		g[ng].gi = &now->gpu[ng];
	}
	for (i = 0; b != NULL && i < b->n; i++) {
		const char *h = vhost != NULL ? vhost : b->t[i].host;
		size_t k;

		if (used[i])
			continue;
		for (k = 0; k < ng; k++)
			if (g[k].gpu == b->t[i].gpu &&
			    strcmp(g[k].host, h) == 0)
				break;
		if (k == ng) {
			g[ng].host = h;
			g[ng].gpu = b->t[i].gpu;
			g[ng++].gi = NULL;
		}
	}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), by_gref);

	/* Tasks and baseline tasks are sorted by GPU as g is. */
	for (i = 0; i < ng; i++) {
		if (g[i].gi != NULL)
			gate_unattr(vs, g[i].gi, gpu_leaks(&now->tl, ti,
			    g[i].host, g[i].gpu));
		for (; ti < now->tl.n; ti++) {
			const struct task *t = &now->tl.t[ti];

			if (gpumap_hostgpu_cmp(t->host, t->gpu, g[i].host,
			    g[i].gpu) != 0)
				break;
			size_t first = vs->nv, k;
			int pass = 0;

			gate_leak(vs, t);
			gate_delay(vs, t);
			gate_running(vs, t);
			if (base != NULL) {
				gates_base_leak(vs, t, vs->match[ti]);
				gates_base_delay(vs, t, vs->match[ti]);
			}
			/* The task's result: fail, else pass, else skipped. */
			vs->tres[ti] = RES_SKIP;
			for (k = first; k < vs->nv; k++) {
				if (vs->v[k].res == RES_FAIL)
					vs->tres[ti] = RES_FAIL;
				pass |= vs->v[k].res == RES_PASS;
			}
			if (vs->tres[ti] != RES_FAIL && pass)
				vs->tres[ti] = RES_PASS;
		}
		for (; b != NULL && bi < b->n; bi++) {
			const struct task *t = &b->t[bi];
			const char *h = vhost != NULL ? vhost : t->host;

			if (gpumap_hostgpu_cmp(h, t->gpu, g[i].host,
			    g[i].gpu) != 0)
				break;
			if (!used[bi])
				gates_vanished(vs, g[i].host, t, bocc[bi]);
		}
	}
	if (ti != now->tl.n || (b != NULL && bi != b->n))
		BUG("tasks left over: %zu of %zu, %zu of %zu", ti, now->tl.n,
		    bi, b != NULL ? b->n : 0);
	if (!vs->input_failed)
		nothing_judged(vs);
	for (i = 0; i < vs->nv; i++)
		vs->count[vs->v[i].res]++;
	for (i = 0; i < vs->nv; i++)
		if (vs->v[i].t != NULL)
			vs->v[i].occ = vs->occ[vs->v[i].t - now->tl.t];
	free(g);
	free(used);
	free(bocc);
}

void
gates_verdicts_release(struct verdicts *vs)
{
	size_t i;

	for (i = 0; i < vs->nv; i++) {
		free(vs->v[i].src);
		free(vs->v[i].msg);
	}
	free(vs->v);
	free(vs->match);
	free(vs->tres);
	free(vs->occ);
	vs->occ = NULL;
	vs->v = NULL;
	vs->match = NULL;
	vs->tres = NULL;
	vs->nv = vs->capv = 0;
}
