/* SPDX-License-Identifier: ISC */
/* ciout.c: gpumem check's verdicts as text, Markdown and JSON (ciout.h). */
#include <stdlib.h>
#include <string.h>

#include "ciout.h"
#include "esc.h"
#include "gpumap.h"
#include "gtime.h"
#include "json.h"
#include "tasktab.h"

#define MD_MAX_ROWS 100		/* rows of a Markdown table before a cut */
#define MD_MAX_TASKS 500	/* rows of the table of every task */

static const char *const status_names[] = {"released", "leaked", "running"};

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
		sbuf_adds(sb, task_label(v->t, buf, sizeof(buf)));
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
		sbuf_printf(sb, "%s: ", gpu_label(v->host, v->gpu, g,
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
		obuf_flush(o, 0);
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
		sbuf_printf(sb, "%s s", delay_str(t, d));
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
static const char *
change_of(const struct task *t, const struct task *b)
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
		uint64_t x = delay_rounded(t), y = delay_rounded(b);

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
		esc_md(&o->sb, task_label(t, buf, sizeof(buf)));
	else {
		struct verdict v;

		memset(&v, 0, sizeof(v));
		v.base = b;
		md_what(&o->sb, &v);
	}
	sbuf_printf(&o->sb, " | %s | ", change_of(t, b));
	delay_cell(&o->sb, b);
	sbuf_adds(&o->sb, " \xe2\x86\x92 ");
	delay_cell(&o->sb, t);
	if (t != NULL && b != NULL && t->status == TASK_RELEASED &&
	    b->status == TASK_RELEASED && delay_rounded(b) > 0)
		sbuf_printf(&o->sb, " (%+.0f%%)", ((double)delay_rounded(t) -
		    (double)delay_rounded(b)) * 100 /
		    (double)delay_rounded(b));
	sbuf_adds(&o->sb, " | ");
	leak_cell(&o->sb, b);
	sbuf_adds(&o->sb, " \xe2\x86\x92 ");
	leak_cell(&o->sb, t);
	sbuf_adds(&o->sb, " |\n");
	obuf_flush(o, 0);
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
		if (strcmp(change_of(v->t, vs->match[v->t - n->t]),
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

	sbuf_adds(sb, fmt_mib(v, b));
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
		esc_md(&o->sb, task_label(t, buf, sizeof(buf)));
		sbuf_printf(&o->sb, " | %s | ", status_names[t->status]);
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
		obuf_flush(o, 0);
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
	return obuf_end(&o);
}

/* --- JSON --- */

static void
jkey(struct sbuf *sb, const char *key)
{
	sbuf_printf(sb, "\"%s\": ", key);
}

static void
jstr(struct sbuf *sb, const char *key, const char *s)
{
	jkey(sb, key);
	if (s == NULL)
		sbuf_adds(sb, "null");
	else
		esc_json(sb, s);
}

/* A number already formatted as JSON, or null when empty. */
static void
jnum(struct sbuf *sb, const char *key, const char *v)
{
	jkey(sb, key);
	sbuf_adds(sb, v != NULL && v[0] != '\0' ? v : "null");
}

static void
json_task_numbers(struct sbuf *sb, const struct task *t)
{
	char d[32];

	jstr(sb, "host", t->host);
	sbuf_printf(sb, ", \"gpu\": %u, ", t->gpu);
	if (t->declared)
		sbuf_adds(sb, "\"process_id\": null, ");
	else
		sbuf_printf(sb, "\"process_id\": %u, ", t->pid);
	jstr(sb, "name", t->name);
	sbuf_adds(sb, ", ");
	json_time(sb, "start", t->start, 1);
	sbuf_adds(sb, ", ");
	json_time(sb, "end", t->end, 1);
	sbuf_printf(sb, ", \"peak_mib\": %u, \"held_mib\": %u, ", t->peak,
	    t->held);
	json_time(sb, "release", t->release, t->status == TASK_RELEASED);
	sbuf_adds(sb, ", ");
	jnum(sb, "release_delay_s", t->status == TASK_RELEASED ?
	    delay_str(t, d) : NULL);
	sbuf_adds(sb, ", ");
	jnum(sb, "interval_s", t->interval != 0 ?
	    gtime_fmt_secs(t->interval, d) : NULL);
	if (t->status == TASK_RELEASED)
		sbuf_adds(sb, ", \"leaked_mib\": 0");
	else if (t->status == TASK_LEAKED && t->has_leaked)
		sbuf_printf(sb, ", \"leaked_mib\": %u", t->leaked);
	else
		sbuf_adds(sb, ", \"leaked_mib\": null");
	sbuf_printf(sb, ", \"status\": \"%s\"", status_names[t->status]);
}

static void
json_rules(struct sbuf *sb, const struct verdicts *vs)
{
	const struct limits *lim = vs->lim;
	const struct config *c = lim->cfg;
	char d[32];

	sbuf_adds(sb, "  \"rules\": {");
	jstr(sb, "config", c->path);
	sbuf_printf(sb, ", \"tolerance_mib\": %u", c->tolerance);
	sbuf_printf(sb, ", \"max_leak_mib\": %u", lim->has_leak ? lim->leak :
	    c->defaults.has_leak ? c->defaults.max_leak_mib :
	    BUILTIN_MAX_LEAK_MIB);
	sbuf_adds(sb, ", ");
	jnum(sb, "max_release_delay_s", lim->has_delay ?
	    gtime_fmt_secs(lim->delay, d) : c->defaults.has_delay ?
	    gtime_fmt_secs(c->defaults.max_delay_ns, d) : NULL);
	sbuf_printf(sb, ", \"task_rules\": %zu", c->ngates);
	/* Built in: the tolerance, after the leaks of the GPU's tasks. */
	sbuf_printf(sb, ", \"max_unattributed_mib_at_end\": %u, "
	    "\"unattributed_builtin\": %s", c->has_max_unattr_end ?
	    c->max_unattr_end : c->tolerance, c->has_max_unattr_end ?
	    "false" : "true");
	sbuf_adds(sb, ", ");
	json_time(sb, "command_start", lim->cmd_start, lim->has_cmd_start);
	sbuf_adds(sb, ", ");
	json_time(sb, "command_end", lim->cmd_end, lim->has_cmd_end);
	sbuf_printf(sb, ", \"max_delay_regression\": %g, "
	    "\"max_leak_regression_mib\": %u},\n", c->has_delay_regression ?
	    c->delay_regression : BUILTIN_DELAY_REGRESSION,
	    c->has_leak_regression ? c->leak_regression_mib : 0);
}

static void
json_gpus(struct obuf *o, const struct verdicts *vs)
{
	const struct run *r = vs->now;
	size_t i;

	sbuf_adds(&o->sb, "  \"gpus\": [");
	for (i = 0; i < r->ngpu; i++) {
		const struct gpuinfo *g = &r->gpu[i];
		const struct cfg_device *dev = config_device(vs->lim->cfg,
		    g->host, g->gpu);

		sbuf_adds(&o->sb, i == 0 ? "\n    {" : ",\n    {");
		jstr(&o->sb, "host", g->host);
		sbuf_printf(&o->sb, ", \"gpu\": %u, \"samples\": %llu, ",
		    g->gpu, (unsigned long long)g->samples);
		json_time(&o->sb, "first_sample", g->first_ts, g->samples > 0);
		sbuf_adds(&o->sb, ", ");
		json_time(&o->sb, "last_sample", g->last_ts, g->samples > 0);
		if (g->samples > 0)
			sbuf_printf(&o->sb, ", \"unattributed_mib_at_first\": "
			    "%lld, \"usage_mib_at_end\": %u, "
			    "\"unattributed_mib_at_end\": %lld",
			    (long long)g->first_unattr, g->last_usage,
			    (long long)g->last_unattr);
		else
			sbuf_adds(&o->sb, ", \"unattributed_mib_at_first\": "
			    "null, \"usage_mib_at_end\": null, "
			    "\"unattributed_mib_at_end\": null");
		if (dev != NULL && dev->has_idle)
			sbuf_printf(&o->sb, ", \"idle_mib\": %u}", dev->idle);
		else
			sbuf_adds(&o->sb, ", \"idle_mib\": null}");
	}
	sbuf_adds(&o->sb, r->ngpu > 0 ? "\n  ],\n" : "],\n");
}

static void
json_tasks(struct obuf *o, const struct verdicts *vs)
{
	const struct tasklist *l = &vs->now->tl;
	size_t i;

	sbuf_adds(&o->sb, "  \"tasks\": [");
	for (i = 0; i < l->n; i++) {
		sbuf_adds(&o->sb, i == 0 ? "\n    {" : ",\n    {");
		json_task_numbers(&o->sb, &l->t[i]);
		sbuf_printf(&o->sb, ", \"result\": \"%s\"}",
		    result_name(vs->tres[i]));
		obuf_flush(o, 0);
	}
	sbuf_adds(&o->sb, l->n > 0 ? "\n  ],\n" : "],\n");
}

static void
json_gates(struct obuf *o, const struct verdicts *vs)
{
	size_t i;

	sbuf_adds(&o->sb, "  \"gates\": [");
	for (i = 0; i < vs->nv; i++) {
		const struct verdict *v = &vs->v[i];
		const struct task *t = v->t != NULL ? v->t : v->base;

		sbuf_adds(&o->sb, i == 0 ? "\n    {" : ",\n    {");
		sbuf_printf(&o->sb, "\"gate\": \"%s\", \"result\": \"%s\", ",
		    gate_name(v->gate), result_name(v->res));
		if (v->gate == GATE_INPUT)
			sbuf_adds(&o->sb, "\"host\": null, \"gpu\": null");
		else {
			jstr(&o->sb, "host", v->host);
			sbuf_printf(&o->sb, ", \"gpu\": %u", v->gpu);
		}
		sbuf_adds(&o->sb, ", ");
		jstr(&o->sb, "task", t != NULL ? t->name : NULL);
		if (v->t != NULL && !v->t->declared)
			sbuf_printf(&o->sb, ", \"process_id\": %u", v->t->pid);
		else
			sbuf_adds(&o->sb, ", \"process_id\": null");
		if (v->base != NULL && !v->base->declared)
			sbuf_printf(&o->sb, ", \"baseline_process_id\": %u",
			    v->base->pid);
		else
			sbuf_adds(&o->sb, ", \"baseline_process_id\": null");
		sbuf_adds(&o->sb, ", ");
		jnum(&o->sb, "value", v->value);
		sbuf_adds(&o->sb, ", ");
		jnum(&o->sb, "limit", v->limit);
		sbuf_adds(&o->sb, ", ");
		jstr(&o->sb, "unit", v->unit);
		sbuf_adds(&o->sb, ", ");
		jstr(&o->sb, "from", v->src);
		sbuf_adds(&o->sb, ", ");
		jstr(&o->sb, "message", v->msg);
		sbuf_adds(&o->sb, "}");
		obuf_flush(o, 0);
	}
	sbuf_adds(&o->sb, vs->nv > 0 ? "\n  ],\n" : "],\n");
}

static void
json_delta(struct obuf *o, const char *host, const struct task *t,
    const struct task *b, int first)
{
	const struct task *x = t != NULL ? t : b;
	char d[32];

	sbuf_adds(&o->sb, first ? "\n      {" : ",\n      {");
	jstr(&o->sb, "host", host);
	sbuf_printf(&o->sb, ", \"gpu\": %u, ", x->gpu);
	jstr(&o->sb, "name", x->name);
	if (t != NULL && !t->declared)
		sbuf_printf(&o->sb, ", \"process_id\": %u", t->pid);
	else
		sbuf_adds(&o->sb, ", \"process_id\": null");
	if (b != NULL && !b->declared)
		sbuf_printf(&o->sb, ", \"baseline_process_id\": %u", b->pid);
	else
		sbuf_adds(&o->sb, ", \"baseline_process_id\": null");
	sbuf_printf(&o->sb, ", \"change\": \"%s\", ", change_of(t, b));
	jstr(&o->sb, "status", t != NULL ? status_names[t->status] : NULL);
	sbuf_adds(&o->sb, ", ");
	jstr(&o->sb, "baseline_status", b != NULL ? status_names[b->status] :
	    NULL);
	sbuf_adds(&o->sb, ", ");
	jnum(&o->sb, "release_delay_s", t != NULL &&
	    t->status == TASK_RELEASED ? delay_str(t, d) : NULL);
	sbuf_adds(&o->sb, ", ");
	jnum(&o->sb, "baseline_release_delay_s", b != NULL &&
	    b->status == TASK_RELEASED ? delay_str(b, d) : NULL);
	if (t != NULL && t->status != TASK_RUNNING &&
	    (t->status == TASK_RELEASED || t->has_leaked))
		sbuf_printf(&o->sb, ", \"leaked_mib\": %u",
		    t->status == TASK_RELEASED ? 0 : t->leaked);
	else
		sbuf_adds(&o->sb, ", \"leaked_mib\": null");
	if (b != NULL && b->status != TASK_RUNNING &&
	    (b->status == TASK_RELEASED || b->has_leaked))
		sbuf_printf(&o->sb, ", \"baseline_leaked_mib\": %u}",
		    b->status == TASK_RELEASED ? 0 : b->leaked);
	else
		sbuf_adds(&o->sb, ", \"baseline_leaked_mib\": null}");
	obuf_flush(o, 0);
}

static void
json_baseline(struct obuf *o, const struct verdicts *vs)
{
	const struct tasklist *n = &vs->now->tl;
	size_t i, rows = 0;

	if (vs->base == NULL) {
		sbuf_adds(&o->sb, "  \"baseline\": null\n");
		return;
	}
	sbuf_adds(&o->sb, "  \"baseline\": {");
	jstr(&o->sb, "file", vs->basepath);
	sbuf_printf(&o->sb, ", \"tasks\": %zu, \"matched\": %zu, "
	    "\"appeared\": %zu, \"vanished\": %zu, \"deltas\": [",
	    vs->base->tl.n, vs->matched, vs->appeared, vs->vanished);
	for (i = 0; i < vs->nv; i++) {
		const struct verdict *v = &vs->v[i];

		if (v->gate == GATE_VANISHED)
			json_delta(o, v->host, NULL, v->base, rows++ == 0);
		else if (v->gate == GATE_LEAK)
			json_delta(o, v->host, v->t, vs->match[v->t - n->t],
			    rows++ == 0);
	}
	sbuf_adds(&o->sb, rows > 0 ? "\n    ]}\n" : "]}\n");
}

int
ciout_json(FILE *f, const struct verdicts *vs)
{
	struct obuf o = {f, SBUF_INIT, 0};
	const char *verdict = ciout_verdict(vs);
	struct sbuf sum = SBUF_INIT;

	ciout_summary(&sum, vs);
	sbuf_adds(&o.sb, "{\n  ");
	json_version(&o.sb);
	sbuf_printf(&o.sb, ",\n  \"verdict\": \"%s\",\n  ",
	    strcmp(verdict, "PASS") == 0 ? "pass" :
	    strcmp(verdict, "FAIL") == 0 ? "fail" : "trouble");
	jstr(&o.sb, "summary", sum.buf);
	sbuf_release(&sum);
	sbuf_printf(&o.sb, ",\n  \"checks\": {\"total\": %zu, \"passed\": %zu, "
	    "\"failed\": %zu, \"skipped\": %zu, \"errors\": %zu},\n", vs->nv,
	    vs->count[RES_PASS], vs->count[RES_FAIL], vs->count[RES_SKIP],
	    vs->count[RES_ERROR]);
	json_rules(&o.sb, vs);
	json_gpus(&o, vs);
	json_tasks(&o, vs);
	json_gates(&o, vs);
	json_baseline(&o, vs);
	sbuf_adds(&o.sb, "}\n");
	return obuf_end(&o);
}

/* --- OpenMetrics --- */

static void
om_family(struct sbuf *sb, const char *name, const char *type,
    const char *help)
{
	sbuf_printf(sb, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
	    type);
}

/* The upper bounds of the release delay histogram: seconds, and ns. */
static const char *const om_le[] = {"0.5", "1", "2", "5", "10", "30",
    "60", "300"};
static const uint64_t om_le_ns[] = {500000000, 1000000000, 2000000000,
    5000000000, 10000000000, 30000000000, 60000000000, 300000000000};
#define OM_NLE (sizeof(om_le) / sizeof(om_le[0]))

/* NAME{host="H",gpu="N" and "}" when close: a series of t's GPU. */
static void
om_series(struct sbuf *sb, const char *name, const struct task *t,
    int close)
{
	sbuf_printf(sb, "%s{host=", name);
	esc_prom(sb, t->host);
	sbuf_printf(sb, ",gpu=\"%u\"%s", t->gpu, close ? "}" : "");
}

/* The end of the run's tasks of t[0]'s GPU (tasks are sorted by GPU). */
static size_t
om_gpu_end(const struct tasklist *l, size_t i)
{
	size_t j;

	for (j = i; j < l->n && hostgpu_cmp(l->t[i].host, l->t[i].gpu,
	    l->t[j].host, l->t[j].gpu) == 0; j++)
		;
	return j;
}

/* Per GPU: tasks by status, leaked bytes, the release delays. */
static void
om_tasks(struct obuf *o, const struct tasklist *l)
{
	size_t i, j, k, e;

	om_family(&o->sb, "gpumem_tasks", "gauge",
	    "Tasks on a GPU, by status.");
	for (i = 0; i < l->n; i = e) {
		size_t n[3] = {0, 0, 0};

		for (j = i, e = om_gpu_end(l, i); j < e; j++)
			n[l->t[j].status]++;
		for (k = 0; k < 3; k++) {
			om_series(&o->sb, "gpumem_tasks", &l->t[i], 0);
			sbuf_printf(&o->sb, ",status=\"%s\"} %zu\n",
			    status_names[k], n[k]);
		}
	}
	om_family(&o->sb, "gpumem_leaked_bytes", "gauge",
	    "GPU memory of ended tasks that never came back, per GPU.");
	for (i = 0; i < l->n; i = e) {
		uint64_t sum = 0;

		for (j = i, e = om_gpu_end(l, i); j < e; j++)
			if (l->t[j].status == TASK_LEAKED &&
			    l->t[j].has_leaked)
				sum += l->t[j].leaked;
		om_series(&o->sb, "gpumem_leaked_bytes", &l->t[i], 1);
		sbuf_printf(&o->sb, " %llu\n",
		    (unsigned long long)sum * 1048576ULL);
	}
	om_family(&o->sb, "gpumem_release_delay_seconds", "histogram",
	    "How long after its tasks ended a GPU's memory came back.");
	for (i = 0; i < l->n; i = e) {
		uint64_t cum[OM_NLE] = {0}, sum = 0, n = 0;
		char d[32];

		for (j = i, e = om_gpu_end(l, i); j < e; j++) {
			if (l->t[j].status != TASK_RELEASED)
				continue;
			for (k = 0; k < OM_NLE; k++)
				cum[k] += l->t[j].delay <= om_le_ns[k];
			sum += l->t[j].delay;
			n++;
		}
		for (k = 0; k <= OM_NLE; k++) {
			om_series(&o->sb, "gpumem_release_delay_seconds_bucket",
			    &l->t[i], 0);
			sbuf_printf(&o->sb, ",le=\"%s\"} %llu\n",
			    k < OM_NLE ? om_le[k] : "+Inf",
			    (unsigned long long)(k < OM_NLE ? cum[k] : n));
		}
		om_series(&o->sb, "gpumem_release_delay_seconds_sum", &l->t[i],
		    1);
		sbuf_printf(&o->sb, " %s\n", gtime_fmt_secs(sum, d));
		om_series(&o->sb, "gpumem_release_delay_seconds_count",
		    &l->t[i], 1);
		sbuf_printf(&o->sb, " %llu\n", (unsigned long long)n);
	}
}

int
ciout_openmetrics(FILE *f, const struct verdicts *vs)
{
	const struct run *r = vs->now;
	struct obuf o = {f, SBUF_INIT, 0};
	size_t i, k;

	om_tasks(&o, &r->tl);
	om_family(&o.sb, "gpumem_unattributed_bytes_at_end", "gauge",
	    "GPU memory no live process owned at the last sample.");
	for (i = 0; i < r->ngpu; i++) {
		const struct gpuinfo *g = &r->gpu[i];

		if (g->samples == 0)
			continue;
		sbuf_adds(&o.sb, "gpumem_unattributed_bytes_at_end{host=");
		esc_prom(&o.sb, g->host);
		sbuf_printf(&o.sb, ",gpu=\"%u\"} %llu\n", g->gpu,
		    (unsigned long long)(g->last_unattr < 0 ? 0 :
		    g->last_unattr) * 1048576ULL);
	}
	om_family(&o.sb, "gpumem_check_checks", "gauge",
	    "Checks of gpumem check, by result.");
	for (k = RES_PASS; k <= RES_ERROR; k++)
		sbuf_printf(&o.sb, "gpumem_check_checks{result=\"%s\"} %zu\n",
		    result_name((enum result)k), vs->count[k]);
	om_family(&o.sb, "gpumem_check_passed", "gauge",
	    "1 when every check of gpumem check held, else 0.");
	sbuf_printf(&o.sb, "gpumem_check_passed %d\n# EOF\n",
	    strcmp(ciout_verdict(vs), "PASS") == 0);
	return obuf_end(&o);
}
