/* SPDX-License-Identifier: ISC */
/*
 * tabmetrics.c: the task table as OpenMetrics gauges (tasktab.h): per
 * task the memory held and leaked and the release delay, per GPU the
 * tasks by status and the memory leaked.
 */
#include <stdlib.h>

#include "esc.h"
#include "gpumap.h"
#include "gtime.h"
#include "tabstate.h"

/*
 * The labels of t's metric, braces included: its GPU's, and with task
 * its pid, start, name and status too; status, when not NULL, is the
 * status label of a GPU's count.
 */
static void
om_labels(struct sbuf *sb, const struct task *t, int task,
    const char *status)
{
	sbuf_reset(sb);
	sbuf_adds(sb, "{host=");
	esc_prom(sb, t->host);
	sbuf_printf(sb, ",gpu=\"%u\"", t->gpu);
	if (task) {
		/* start_ns: a pid's two lives are two series. */
		sbuf_printf(sb, ",pid=\"%u\",start_ns=\"%llu\",name=", t->pid,
		    (unsigned long long)t->start);
		esc_prom(sb, t->name);
		status = tab_status_names[t->status];
	}
	if (status != NULL)
		sbuf_printf(sb, ",status=\"%s\"", status);
	sbuf_addc(sb, '}');
}

static void
om_family(struct tasktab_w *w, const char *name, const char *help)
{
	tab_out(w, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static int
same_gpu(const struct task *x, const struct task *y)
{
	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu) == 0;
}

/* Rows in the order of their GPUs, else as they came. */
static int
om_by_gpu(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a;
	const struct task *y = *(const struct task *const *)b;
	int c = gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

	return c != 0 ? c : (x > y) - (x < y);
}

void
tab_put_metrics(struct tasktab_w *w)
{
	static const uint64_t mib = 1048576;
	struct sbuf sb = SBUF_INIT;
	const struct task *t, **by;
	size_t i, j, k;
	char d[32];

	/* The kept rows' strings are in strs: point each row at its own. */
	for (i = 0; i < w->nrows; i++) {
		w->rows[i].host = w->strs.buf + w->offs[2 * i];
		w->rows[i].name = w->strs.buf + w->offs[2 * i + 1];
	}
	om_family(w, "gpumem_task_held_bytes",
	    "GPU memory a task held when it ended (or at the last sample).");
	for (t = w->rows; t < w->rows + w->nrows; t++) {
		om_labels(&sb, t, 1, NULL);
		tab_out(w, "gpumem_task_held_bytes%s %llu\n", sb.buf,
		    (unsigned long long)(t->held * mib));
	}
	om_family(w, "gpumem_task_leaked_bytes",
	    "GPU memory of an ended task that never came back.");
	for (t = w->rows; t < w->rows + w->nrows; t++) {
		if (t->status == TASK_RUNNING ||
		    (t->status == TASK_LEAKED && !t->has_leaked))
			continue;
		om_labels(&sb, t, 1, NULL);
		tab_out(w, "gpumem_task_leaked_bytes%s %llu\n", sb.buf,
		    (unsigned long long)(t->status == TASK_LEAKED ?
		    t->leaked * mib : 0));
	}
	om_family(w, "gpumem_task_release_delay_seconds",
	    "How long after a task ended its memory came back.");
	for (t = w->rows; t < w->rows + w->nrows; t++) {
		if (t->status != TASK_RELEASED)
			continue;
		om_labels(&sb, t, 1, NULL);
		tab_out(w, "gpumem_task_release_delay_seconds%s %s\n", sb.buf,
		    gtime_fmt_secs(t->delay, d));
	}
	/* Per GPU: the rows in GPU order, taken a GPU at a time. */
	by = ecalloc(w->nrows + 1, sizeof(*by));
	for (i = 0; i < w->nrows; i++)
		by[i] = &w->rows[i];
	qsort(by, w->nrows, sizeof(*by), om_by_gpu);
	om_family(w, "gpumem_tasks", "Tasks on a GPU, by status.");
	for (i = 0; i < w->nrows; i = j) {
		size_t n[3] = {0, 0, 0};

		for (j = i; j < w->nrows && same_gpu(by[i], by[j]); j++)
			n[by[j]->status]++;
		for (k = 0; k < 3; k++) {
			om_labels(&sb, by[i], 0, tab_status_names[k]);
			tab_out(w, "gpumem_tasks%s %zu\n", sb.buf, n[k]);
		}
	}
	om_family(w, "gpumem_leaked_bytes",
	    "GPU memory of ended tasks that never came back, per GPU.");
	for (i = 0; i < w->nrows; i = j) {
		uint64_t sum = 0;

		for (j = i; j < w->nrows && same_gpu(by[i], by[j]); j++)
			if (by[j]->status == TASK_LEAKED && by[j]->has_leaked)
				sum += by[j]->leaked * mib;
		om_labels(&sb, by[i], 0, NULL);
		tab_out(w, "gpumem_leaked_bytes%s %llu\n", sb.buf,
		    (unsigned long long)sum);
	}
	tab_out(w, "# EOF\n");
	free(by);
	sbuf_release(&sb);
}
