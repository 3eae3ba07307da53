/* SPDX-License-Identifier: ISC */
/*
 * cijson.c: gpumem check's verdicts as one JSON object (ciout.h,
 * docs/schema/check.json): rules, GPUs, tasks, gates and the baseline.
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
	    gates_delay_str(t, d) : NULL);
	sbuf_adds(sb, ", ");
	jnum(sb, "interval_s", t->interval != 0 ?
	    gtime_fmt_secs(t->interval, d) : NULL);
	if (t->status == TASK_RELEASED)
		sbuf_adds(sb, ", \"leaked_mib\": 0");
	else if (t->status == TASK_LEAKED && t->has_leaked)
		sbuf_printf(sb, ", \"leaked_mib\": %u", t->leaked);
	else
		sbuf_adds(sb, ", \"leaked_mib\": null");
	sbuf_printf(sb, ", \"status\": \"%s\"", ciout_status_names[t->status]);
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
		    gates_result_name(vs->tres[i]));
		esc_obuf_flush(o, 0);
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
		    gate_name(v->gate), gates_result_name(v->res));
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
		esc_obuf_flush(o, 0);
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
	sbuf_printf(&o->sb, ", \"change\": \"%s\", ", ciout_change_of(t, b));
	jstr(&o->sb, "status",
	    t != NULL ? ciout_status_names[t->status] : NULL);
	sbuf_adds(&o->sb, ", ");
	jstr(&o->sb, "baseline_status",
	    b != NULL ? ciout_status_names[b->status] : NULL);
	sbuf_adds(&o->sb, ", ");
	jnum(&o->sb, "release_delay_s", t != NULL &&
	    t->status == TASK_RELEASED ? gates_delay_str(t, d) : NULL);
	sbuf_adds(&o->sb, ", ");
	jnum(&o->sb, "baseline_release_delay_s", b != NULL &&
	    b->status == TASK_RELEASED ? gates_delay_str(b, d) : NULL);
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
	esc_obuf_flush(o, 0);
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
	return esc_obuf_end(&o);
}
