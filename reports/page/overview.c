/* SPDX-License-Identifier: ISC */
/*
 * overview.c: the first thing on the page, every host x GPU as a cell
 * of a grid that links to its section.
 */
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "esc.h"
#include "gpumap.h"
#include "gtime.h"
#include "page.h"
#include "util.h"

/*
 * One GPU of the overview: every GPU read, charted or known from its
 * tasks; sec is its section in c->g (c->ng: not charted, no section).
 */
struct ovcell {
	const char *host;
	uint32_t gpu;
	size_t sec;
	uint64_t ntasks, nleaked, leaked, maxdelay;
};

static int
by_cell(const void *a, const void *b)
{
	const struct ovcell *x = a, *y = b;

	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

/*
 * The cells of every GPU of c in order of host and GPU, with their
 * tasks' counts, leaked MiB and longest delay, in *out (to be freed);
 * return their number.  O(n log n) in the GPUs and tasks.
 */
static size_t
ov_cells(const struct collection *c, struct ovcell **out)
{
	struct ovcell *v = ecalloc(c->ng + c->nothers + c->tasks.n + 1,
	    sizeof(*v));
	size_t i, n = 0, k;

	for (i = 0; i < c->ng; i++, n++) {
		v[n].host = c->g[i]->host;
		v[n].gpu = c->g[i]->gpu;
		v[n].sec = i;
	}
	for (i = 0; i < c->nothers; i++, n++) {
		v[n].host = c->others[i].host;
		v[n].gpu = c->others[i].gpu;
		v[n].sec = c->ng;
	}
	for (i = 0; i < c->tasks.n; i++, n++) {
		v[n].host = c->tasks.t[i].host;
		v[n].gpu = c->tasks.t[i].gpu;
		v[n].sec = c->ng;
	}
	qsort(v, n, sizeof(*v), by_cell);
	for (i = 0, k = 0; i < n; i++)
		if (k > 0 && by_cell(&v[k - 1], &v[i]) == 0) {
			if (v[i].sec < v[k - 1].sec)
				v[k - 1].sec = v[i].sec;
		} else
			v[k++] = v[i];
	for (i = 0; i < c->tasks.n; i++) {
		const struct task *t = &c->tasks.t[i];
		struct ovcell key, *o;

		key.host = t->host;
		key.gpu = t->gpu;
		if ((o = bsearch(&key, v, k, sizeof(*v), by_cell)) == NULL)
			BUG("a task of no GPU");
		o->ntasks++;
		if (t->status == TASK_LEAKED) {
			o->nleaked++;
			o->leaked += t->has_leaked ? t->leaked : 0;
		} else if (t->status == TASK_RELEASED && t->delay > o->maxdelay)
			o->maxdelay = t->delay;
	}
	*out = v;
	return k;
}

/*
 * The first thing on the page: every host x GPU as a cell of a grid, a
 * row a host, tinted by the memory it leaked, its left edge in the
 * colour of its longest release delay (the Gantt charts' scale), its
 * task count in it, the rest in its tooltip; a link to its section when
 * it has one.  Then the link to the task table.
 */
void
page_overview(struct sbuf *page, const struct collection *c, int nhosts,
    char *const *href)
{
	struct ovcell *v;
	size_t i, n = ov_cells(c, &v);
	char mb[32], d[32], w[64];

	if (n == 0) {
		free(v);
		return;
	}
	sbuf_printf(page, "<nav class=\"index\" id=\"index\"><b>%zu GPU%s"
	    "</b> <small>(a cell a GPU: its number and tasks; tinted by "
	    "leaked memory, its left edge coloured by its longest release "
	    "delay; hover for more)</small>\n<table class=\"ov\">\n", n,
	    n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const struct ovcell *o = &v[i];
		/* Tints: none, under 1 GiB, under 8 GiB, more. */
		const char *tint = o->nleaked == 0 ? "" : o->leaked < 1024 ?
		    " l1" : o->leaked < 8192 ? " l2" : " l3";
		struct sbuf tip = SBUF_INIT;

		if (i == 0 || strcmp(o->host, v[i - 1].host) != 0) {
			sbuf_adds(page, i > 0 ? "</tr>\n<tr><th>" : "<tr><th>");
			page_html(page, nhosts > 1 || *o->host ?
			    (*o->host ? o->host : "-") : "GPU");
			sbuf_adds(page, "</th>");
		}
		if (*o->host)
			sbuf_printf(&tip, "%s ", o->host);
		sbuf_printf(&tip, "GPU %u: %llu task%s", o->gpu,
		    (unsigned long long)o->ntasks, o->ntasks == 1 ? "" : "s");
		if (o->nleaked > 0)
			sbuf_printf(&tip, ", %llu leaked (%s)",
			    (unsigned long long)o->nleaked,
			    num_fmt_mib((int64_t)o->leaked, mb));
		if (o->maxdelay > 0)
			sbuf_printf(&tip, ", longest release delay %s",
			    gtime_secs_words(gtime_fmt_secs(o->maxdelay, d), w,
			    sizeof(w)));
		if (o->sec == c->ng)
			sbuf_adds(&tip, "; not charted");
		sbuf_printf(page, "<td class=\"c%s\" style=\"border-left-color:"
		    "%s\" title=\"", tint, o->maxdelay > 0 ?
		    chart_delay_colour(o->maxdelay) : "#ddd");
		page_html(page, tip.buf);
		sbuf_release(&tip);
		if (o->sec < c->ng) {
			sbuf_adds(page, "\"><a href=\"");
			if (href != NULL)
				esc_url(page, href[o->sec]);
			sbuf_printf(page, "#gpu-%zu\">%u</a>", o->sec, o->gpu);
		}
		else
			sbuf_printf(page, "\">%u", o->gpu);
		sbuf_printf(page, " <small>%llu</small></td>",
		    (unsigned long long)o->ntasks);
	}
	sbuf_adds(page, "</tr>\n</table>\n<a href=\"#tasklist\">the task "
	    "table</a></nav>\n");
	free(v);
}
