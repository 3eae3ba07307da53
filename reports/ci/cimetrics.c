/* SPDX-License-Identifier: ISC */
/*
 * cimetrics.c: gpumem check's run as metrics in the Prometheus text
 * exposition format (ciout.h): per GPU and per run, never per task.
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

	for (j = i; j < l->n && gpumap_hostgpu_cmp(l->t[i].host, l->t[i].gpu,
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
			    ciout_status_names[k], n[k]);
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
		    gates_result_name((enum result)k), vs->count[k]);
	om_family(&o.sb, "gpumem_check_passed", "gauge",
	    "1 when every check of gpumem check held, else 0.");
	sbuf_printf(&o.sb, "gpumem_check_passed %d\n# EOF\n",
	    strcmp(ciout_verdict(vs), "PASS") == 0);
	return esc_obuf_end(&o);
}
