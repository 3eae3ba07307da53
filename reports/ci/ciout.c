/* SPDX-License-Identifier: ISC */
/*
 * ciout.c: gpumem check's verdicts as text and Markdown (ciout.h); the
 * JSON is in cijson.c, the metrics in cimetrics.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ciout.h"
#include "cioutint.h"
#include "esc.h"
#include "gpumap.h"
#include "gtime.h"
#include "json.h"
#include "tasktab.h"

#define MD_MAX_ROWS 100		/* rows of a Markdown table before a cut */
#define MD_MAX_TASKS 500	/* rows of the table of every task */

const char *const ciout_status_names[] = {"released", "leaked", "running"};

const char *
ciout_verdict(const struct verdicts *vs)
{
	if (vs->count[RES_ERROR] > 0)
		return "TROUBLE";
	return vs->count[RES_FAIL] > 0 ? "FAIL" : "PASS";
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void
ciout_summary(struct sbuf *sb, const struct verdicts *vs)
{
	const struct tasklist *l = &vs->now->tl;
	size_t st[3] = {0, 0, 0}, i, judged;

	for (i = 0; i < l->n; i++)
		st[l->t[i].status]++;
	if (vs->input_failed)
		sbuf_adds(sb, "the input could not be read in full; ");
	if (vs->stopped_at != 0) {
		char at[GTIME_BUFSZ];

		sbuf_printf(sb, "the recorder stopped at %s, %s s before the "
		    "command ended; ", gtime_fmt(vs->stopped_at, 1, at),
		    vs->stopped_by);
	}
	judged = vs->count[RES_PASS] + vs->count[RES_FAIL];
	if (vs->count[RES_FAIL] > 0)
		sbuf_printf(sb, "%zu of %zu %s failed", vs->count[RES_FAIL],
		    judged, plural(judged, "check", "checks"));
	else if (judged > 0)
		sbuf_printf(sb, "%zu %s held", judged, plural(judged, "check",
		    "checks"));
	else
		sbuf_adds(sb, "nothing judged");
	if (vs->count[RES_SKIP] > 0)
		sbuf_printf(sb, ", %zu skipped", vs->count[RES_SKIP]);
	sbuf_printf(sb, "; %zu %s on %zu %s: %zu released, %zu leaked, %zu "
	    "running", l->n, plural(l->n, "task", "tasks"), vs->now->ngpu,
	    plural(vs->now->ngpu, "GPU", "GPUs"), st[TASK_RELEASED],
	    st[TASK_LEAKED], st[TASK_RUNNING]);
	if (vs->base != NULL)
		sbuf_printf(sb, "; against the baseline: %zu matched, %zu "
		    "appeared, %zu vanished", vs->matched, vs->appeared,
		    vs->vanished);
}

void
ciout_what(struct sbuf *sb, const struct verdict *v)
{
	char buf[512];

	if (v->t != NULL)
		sbuf_adds(sb, gates_task_label(v->t, buf, sizeof(buf)));
	else if (v->base != NULL) {
		if (v->base->declared)
			sbuf_printf(sb, "%s (baseline, declared)",
			    v->base->name);
		else if (v->base->name[0] == '\0')
			sbuf_printf(sb, "baseline pid %u", v->base->pid);
		else
			sbuf_printf(sb, "%s (baseline pid %u)", v->base->name,
			    v->base->pid);
	}
}

void
ciout_finding(struct sbuf *sb, const struct verdict *v)
{
	if (v->gate != GATE_INPUT)
		sbuf_printf(sb, "%s: ", gate_name(v->gate));
	sbuf_adds(sb, v->msg);
	if (v->src != NULL)
		sbuf_printf(sb, " (%s)", v->src);
}

void
ciout_line(struct sbuf *sb, const struct verdict *v)
{
	char g[256];

	if (v->gate != GATE_INPUT) {
		sbuf_printf(sb, "%s: ", gates_gpu_label(v->host, v->gpu, g,
		    sizeof(g)));
		ciout_what(sb, v);
		if (v->t != NULL || v->base != NULL)
			sbuf_adds(sb, ": ");
	}
	ciout_finding(sb, v);
}

/* --- Markdown --- */

/* The GPU column: "0", or "node1:0". */
static void
md_gpu(struct sbuf *sb, const char *host, uint32_t gpu)
{
	if (host[0] != '\0') {
		esc_md(sb, host);
		sbuf_addc(sb, ':');
	}
	sbuf_printf(sb, "%u", gpu);
}

static void
md_what(struct sbuf *sb, const struct verdict *v)
{
	struct sbuf w = SBUF_INIT;

	ciout_what(&w, v);
	if (w.len == 0)
		sbuf_adds(sb, "(the GPU)");
	else
		esc_md(sb, w.buf);
	sbuf_release(&w);
}

static void
md_amount(struct sbuf *sb, const char *v, const char *unit, const char *none)
{
	if (v[0] == '\0')
		sbuf_adds(sb, none);
	else
		sbuf_printf(sb, "%s %s", v, unit);
}

static void
md_failures(struct obuf *o, const struct verdicts *vs)
{
	size_t i, shown = 0;

	if (vs->count[RES_FAIL] + vs->count[RES_ERROR] == 0)
		return;
	sbuf_adds(&o->sb, "\n| task | gpu | rule | value | limit |\n"
	    "|---|---|---|---:|---:|\n");
	for (i = 0; i < vs->nv; i++) {
		const struct verdict *v = &vs->v[i];

		if (v->res != RES_FAIL && v->res != RES_ERROR)
			continue;
		if (shown++ == MD_MAX_ROWS) {
			sbuf_printf(&o->sb, "\nand %zu more (the JSON output "
			    "has them all).\n", vs->count[RES_FAIL] +
			    vs->count[RES_ERROR] - MD_MAX_ROWS);
			break;
		}
		if (v->gate == GATE_INPUT) {
			sbuf_adds(&o->sb, "| (the inputs) | | input | ");
			esc_md(&o->sb, v->msg);
			sbuf_adds(&o->sb, " | |\n");
			continue;
		}
		sbuf_adds(&o->sb, "| ");
		md_what(&o->sb, v);
		sbuf_adds(&o->sb, " | ");
		md_gpu(&o->sb, v->host, v->gpu);
		sbuf_printf(&o->sb, " | %s (", gate_name(v->gate));
		esc_md(&o->sb, v->src != NULL ? v->src : "");
		sbuf_adds(&o->sb, ") | ");
		md_amount(&o->sb, v->value, v->unit, "unknown");
		sbuf_adds(&o->sb, " | ");
		md_amount(&o->sb, v->limit, v->unit, "-");
		sbuf_adds(&o->sb, " |\n");
		esc_obuf_flush(o, 0);
	}
}

/* What a task's delay cell says: "45 s", "never", "running", "-". */
static void
delay_cell(struct sbuf *sb, const struct task *t)
{
	char d[32];

	if (t == NULL)
		sbuf_adds(sb, "-");
	else if (t->status == TASK_RELEASED)
		sbuf_printf(sb, "%s s", gates_delay_str(t, d));
	else
		sbuf_adds(sb, t->status == TASK_LEAKED ? "never" : "running");
}

static void
leak_cell(struct sbuf *sb, const struct task *t)
{
	if (t == NULL || t->status == TASK_RUNNING)
		sbuf_adds(sb, "-");
	else if (t->status == TASK_RELEASED)
		sbuf_adds(sb, "0 MiB");
	else if (t->has_leaked)
		sbuf_printf(sb, "%u MiB", t->leaked);
	else
		sbuf_adds(sb, "unknown");
}

/* How task t differs from its baseline task b (either may be NULL). */
const char *
ciout_change_of(const struct task *t, const struct task *b)
{
	if (b == NULL)
		return "appeared";
	if (t == NULL)
		return "vanished";
	if (t->status != b->status) {
		if (t->status == TASK_LEAKED)
			return "new leak";
		if (b->status == TASK_LEAKED)
			return "leak gone";
		return t->status == TASK_RUNNING ? "still running" :
		    "now released";
	}
	if (t->status == TASK_RELEASED) {
		uint64_t x = gates_delay_rounded(t), y = gates_delay_rounded(b);

		if (x != y)
			return x > y ? "delay grew" : "delay shrank";
	} else if (t->status == TASK_LEAKED && t->has_leaked &&
	    b->has_leaked && t->leaked != b->leaked)
		return t->leaked > b->leaked ? "leak grew" : "leak shrank";
	return "unchanged";
}

/*
 * The result of the baseline checks of the task whose checks start at
 * vs->v[i] (they are together): fail if one failed, skipped if one was.
 */
static enum result
base_result(const struct verdicts *vs, size_t i)
{
	const struct task *t = vs->v[i].t;
	enum result r = RES_PASS;
	size_t k;

	for (k = i; k < vs->nv && vs->v[k].t == t; k++) {
		const struct verdict *v = &vs->v[k];

		if (v->gate != GATE_BASE_LEAK && v->gate != GATE_BASE_DELAY)
			continue;
		if (v->res == RES_FAIL)
			return RES_FAIL;
		if (v->res == RES_SKIP)
			r = RES_SKIP;
	}
	return r;
}

static const char *
mark(enum result r)
{
	static const char *const marks[] = {"\xe2\x9c\x85", "\xe2\x9d\x8c",
	    "\xe2\x8f\xad\xef\xb8\x8f", "\xe2\x9a\xa0\xef\xb8\x8f"};

	return marks[r];
}

/* A row of the baseline table; res: the task's baseline checks. */
static void
delta_row(struct obuf *o, enum result res, const char *host,
    const struct task *t, const struct task *b)
{
	const struct task *x = t != NULL ? t : b;
	char buf[512];

	sbuf_printf(&o->sb, "| %s | ", mark(res));
	md_gpu(&o->sb, host, x->gpu);
	sbuf_adds(&o->sb, " | ");
	if (t != NULL)
		esc_md(&o->sb, gates_task_label(t, buf, sizeof(buf)));
	else {
		struct verdict v;

		memset(&v, 0, sizeof(v));
		v.base = b;
		md_what(&o->sb, &v);
	}
	sbuf_printf(&o->sb, " | %s | ", ciout_change_of(t, b));
	delay_cell(&o->sb, b);
	sbuf_adds(&o->sb, " \xe2\x86\x92 ");
	delay_cell(&o->sb, t);
	if (t != NULL && b != NULL && t->status == TASK_RELEASED &&
	    b->status == TASK_RELEASED && gates_delay_rounded(b) > 0)
		sbuf_printf(&o->sb, " (%+.0f%%)",
		    ((double)gates_delay_rounded(t) -
		    (double)gates_delay_rounded(b)) * 100 /
		    (double)gates_delay_rounded(b));
	sbuf_adds(&o->sb, " | ");
	leak_cell(&o->sb, b);
	sbuf_adds(&o->sb, " \xe2\x86\x92 ");
	leak_cell(&o->sb, t);
	sbuf_adds(&o->sb, " |\n");
	esc_obuf_flush(o, 0);
}

static void
md_baseline(struct obuf *o, const struct verdicts *vs)
{
	const struct tasklist *n = &vs->now->tl;
	size_t i, rows = 0, same = 0, more = 0;
	enum result res;

	sbuf_adds(&o->sb, "\n### Against the baseline\n\n`");
	esc_md(&o->sb, vs->basepath);
	sbuf_printf(&o->sb, "`: %zu %s matched, %zu appeared, %zu "
	    "vanished.\n\n", vs->matched, plural(vs->matched, "task",
	    "tasks"), vs->appeared, vs->vanished);
	for (i = 0; i < vs->nv; i++) {
		const struct verdict *v = &vs->v[i];

		/* One row per task (at its first check) and per vanished. */
		if (v->gate == GATE_VANISHED) {
			if (rows++ == 0)
				sbuf_adds(&o->sb, "| | gpu | task | change | "
				    "release delay | leaked |\n"
				    "|---|---|---|---|---:|---:|\n");
			if (rows > MD_MAX_ROWS)
				more++;
			else
				delta_row(o, RES_SKIP, v->host, NULL,
				    v->base);
			continue;
		}
		if (v->gate != GATE_LEAK)
			continue;
		res = base_result(vs, i);
		if (strcmp(ciout_change_of(v->t, vs->match[v->t - n->t]),
		    "unchanged") == 0 && res != RES_FAIL) {
			same++;
			continue;
		}
		if (rows++ == 0)
			sbuf_adds(&o->sb, "| | gpu | task | change | "
			    "release delay | leaked |\n"
			    "|---|---|---|---|---:|---:|\n");
		if (rows > MD_MAX_ROWS)
			more++;
		else
			delta_row(o, res, v->host, v->t,
			    vs->match[v->t - n->t]);
	}
	if (more > 0)
		sbuf_printf(&o->sb, "\nand %zu more changes (the JSON output "
		    "has them all).\n", more);
	if (same > 0)
		sbuf_printf(&o->sb, "%s%zu %s as in the baseline.\n",
		    rows > 0 ? "\n" : "", same, plural(same, "task is",
		    "tasks are"));
	else if (rows == 0)
		sbuf_adds(&o->sb, "No tasks in either run.\n");
}

static void
mib_cell(struct sbuf *sb, uint32_t v)
{
	char b[FMT_MIBSZ];

	sbuf_adds(sb, num_fmt_mib(v, b));
}

static void
md_tasks(struct obuf *o, const struct verdicts *vs)
{
	const struct tasklist *l = &vs->now->tl;
	char buf[512];
	size_t i;

	if (l->n == 0)
		return;
	sbuf_printf(&o->sb, "\n<details><summary>%s %zu %s</summary>\n\n"
	    "| | gpu | task | status | peak | held | released after | "
	    "leaked |\n|---|---|---|---|---:|---:|---:|---:|\n",
	    l->n == 1 ? "The" : "All", l->n, plural(l->n, "task", "tasks"));
	for (i = 0; i < l->n && i < MD_MAX_TASKS; i++) {
		const struct task *t = &l->t[i];

		sbuf_printf(&o->sb, "| %s | ", mark(vs->tres[i]));
		md_gpu(&o->sb, t->host, t->gpu);
		sbuf_adds(&o->sb, " | ");
		esc_md(&o->sb, gates_task_label(t, buf, sizeof(buf)));
		sbuf_printf(&o->sb, " | %s | ", ciout_status_names[t->status]);
		mib_cell(&o->sb, t->peak);
		sbuf_adds(&o->sb, " | ");
		mib_cell(&o->sb, t->held);
		sbuf_adds(&o->sb, " | ");
		if (t->status == TASK_RELEASED) {
			char r[96];

			sbuf_adds(&o->sb, tasktab_delay_range(t, r));
		} else
			sbuf_adds(&o->sb, "-");
		sbuf_adds(&o->sb, " | ");
		if (t->status == TASK_LEAKED && t->has_leaked)
			mib_cell(&o->sb, t->leaked);
		else
			sbuf_adds(&o->sb, t->status == TASK_LEAKED ?
			    "unknown" : "-");
		sbuf_adds(&o->sb, " |\n");
		esc_obuf_flush(o, 0);
	}
	if (l->n > MD_MAX_TASKS)
		sbuf_printf(&o->sb, "\nand %zu more (the JSON output has them "
		    "all).\n", l->n - MD_MAX_TASKS);
	sbuf_adds(&o->sb, "\n</details>\n");
}

int
ciout_markdown(FILE *f, const struct verdicts *vs)
{
	struct obuf o = {f, SBUF_INIT, 0};
	const char *verdict = ciout_verdict(vs);

	sbuf_printf(&o.sb, "## %s gpumem check: %s\n\n",
	    strcmp(verdict, "PASS") == 0 ? mark(RES_PASS) :
	    strcmp(verdict, "FAIL") == 0 ? mark(RES_FAIL) : mark(RES_ERROR),
	    verdict);
	ciout_summary(&o.sb, vs);
	sbuf_adds(&o.sb, ".\n");
	md_failures(&o, vs);
	if (vs->base != NULL)
		md_baseline(&o, vs);
	md_tasks(&o, vs);
	return esc_obuf_end(&o);
}
