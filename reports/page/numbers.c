/* SPDX-License-Identifier: ISC */
/*
 * numbers.c: the page's numbers: the headline (cards, the worst delays,
 * the leaks) and the task table with its data for the table's script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "esc.h"
#include "gtime.h"
#include "page.h"
#include "tasktab.h"
#include "util.h"

#define WORST 5			/* the worst delays listed */
#define LEAKS 20		/* the leaks listed */
#define TOPN 50		/* task rows before "show all" */
#define PAGE 500		/* task rows a page with "show all" */
#define SLOW 10			/* s: a release this late is slow (filter) */

static int
by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least q of them at or below. */
static uint64_t
percentile(const uint64_t *v, size_t n, double q)
{
	size_t k = (size_t)(q * (double)n + 0.999999);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

/* A delay to the precision its sampling interval gives (all, when unknown). */
static void
secs(struct sbuf *sb, uint64_t ns, uint64_t interval)
{
	char d[32], w[64];

	sbuf_adds(sb, gtime_secs_words(interval != 0 ? tasktab_delay(ns,
	    interval, d) : gtime_fmt_secs(ns, d), w, sizeof(w)));
}

static void
card(struct sbuf *sb, const char *cls, const char *num, const char *label,
    const char *sub)
{
	sbuf_printf(sb, "<div class=\"card%s%s\"><div class=\"num\">", *cls ?
	    " " : "", cls);
	page_html(sb, num);
	sbuf_adds(sb, "</div><div class=\"lbl\">");
	page_html(sb, label);
	sbuf_adds(sb, "</div>");
	if (sub != NULL) {
		sbuf_adds(sb, "<div class=\"sub\">");
		page_html(sb, sub);
		sbuf_adds(sb, "</div>");
	}
	sbuf_adds(sb, "</div>\n");
}

/* A time as a table cell: shown as a clock, sorted by seconds. */
static void
time_cell(struct sbuf *sb, uint64_t t, int utc, int date)
{
	char buf[GTIME_BUFSZ];

	sbuf_printf(sb, "<td data-v=\"%llu.%03u\">%s</td>",
	    (unsigned long long)(t / NS_PER_SEC),
	    (unsigned)(t % NS_PER_SEC / NS_PER_MS),
	    chart_clock(t, utc, date, buf));
}

static int
by_interest(const void *a, const void *b)
{
	return collect_task_interest(*(const struct task *const *)a,
	    *(const struct task *const *)b);
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The distinct strings of s[0..n) sorted, in *out (to be freed); return
 * their number.  The JSON names each by its place (strindex).
 */
static size_t
strtable(const char **s, size_t n, const char ***out)
{
	const char **v = ereallocarray(NULL, n + 1, sizeof(*v));
	size_t i, k = 0;

	memcpy(v, s, n * sizeof(*v));
	qsort(v, n, sizeof(*v), by_str);
	for (i = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
			v[k++] = v[i];
	*out = v;
	return k;
}

static size_t
strindex(const char **v, size_t n, const char *s)
{
	const char **p = bsearch(&s, v, n, sizeof(*v), by_str);

	return p != NULL ? (size_t)(p - v) : 0;
}

static void
json_strs(struct sbuf *sb, const char *key, const char **v, size_t n)
{
	size_t i;

	sbuf_printf(sb, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i > 0)
			sbuf_addc(sb, ',');
		esc_json(sb, v[i]);
	}
	sbuf_addc(sb, ']');
}

/* Seconds to the millisecond, without trailing zeros: 12, 0.5. */
static void
json_secs(struct sbuf *sb, uint64_t ns)
{
	char d[32];
	size_t n;

	snprintf(d, sizeof(d), "%llu.%03u", (unsigned long long)(ns /
	    NS_PER_SEC), (unsigned)(ns % NS_PER_SEC / NS_PER_MS));
	n = strlen(d);
	while (d[n - 1] == '0')
		d[--n] = '\0';
	if (d[n - 1] == '.')
		d[--n] = '\0';
	sbuf_adds(sb, d);
}

/* The place of a task's GPU in c->g (its host and GPU), 0 when absent. */
static size_t
gpu_place(const struct collection *c, const struct task *t)
{
	size_t i;

	for (i = 0; i < c->ng; i++)
		if (c->g[i]->gpu == t->gpu && strcmp(c->g[i]->host, t->host) == 0)
			return i;
	return c->ng;
}

/*
 * Every task as JSON for the table's script (page_table_js), in order of
 * interest: [gpu, pid, name, start, life, peak (0: as held), held, delay,
 * leaked (-1 unknown), status]; gpu is a place in "gpus" ([host, gpu,
 * interval, decimals of a delay]; the last one for tasks of GPUs without
 * samples, as their own entries), name in "names", times in seconds from
 * t0.  In a <script> element: '<' is written \u003c, so that no name can
 * end it.
 */
static void
task_json(struct sbuf *page, const struct collection *c,
    const struct task **v, size_t n, int utc, int date, uint32_t tolerance)
{
	struct sbuf sb = SBUF_INIT;
	const char **s, **names;
	size_t i, nn, *gp, ngp = c->ng;
	const struct task **gt;
	uint64_t t0 = c->have_range ? c->first : 0;
	long zone = 0;
	char d[32];

	if (!c->have_range && n > 0)
		t0 = v[0]->start;
	for (i = 0; i < n; i++)
		if (v[i]->start < t0)
			t0 = v[i]->start;
	t0 -= t0 % NS_PER_SEC;
	if (!utc) {
		time_t secs = (time_t)(t0 / NS_PER_SEC);
		struct tm tm;

		localtime_r(&secs, &tm);
		zone = tm.tm_gmtoff;
	}
	s = ereallocarray(NULL, n + 1, sizeof(*s));
	for (i = 0; i < n; i++)
		s[i] = v[i]->name;
	nn = strtable(s, n, &names);
	/* GPUs: those charted, then one entry a task of any other. */
	gp = ereallocarray(NULL, n + 1, sizeof(*gp));
	gt = ereallocarray(NULL, c->ng + n + 1, sizeof(*gt));
	for (i = 0; i < c->ng; i++)
		gt[i] = NULL;
	for (i = 0; i < n; i++) {
		gp[i] = gpu_place(c, v[i]);
		if (gp[i] == c->ng)
			gp[i] = ngp++;
		if (gt[gp[i]] == NULL || gp[i] >= c->ng)
			gt[gp[i]] = v[i];
	}
	sbuf_printf(&sb, "{\"t0\":%llu,\"zone\":%ld,\"date\":%d,\"tol\":%u,"
	    "\"slow\":%d,\"top\":%d,\"page\":%d,\"hosts\":%d,\"gpus\":[",
	    (unsigned long long)(t0 / NS_PER_SEC), zone, date, tolerance, SLOW,
	    TOPN, PAGE, c->nhosts);
	for (i = 0; i < ngp; i++) {
		const struct task *t = gt[i];
		const char *dot;
		size_t places;
		uint64_t iv;

		/*
		 * The GPU's interval: from its tasks, else (tasks read from
		 * tables have none) the mean gap of its curve's samples.
		 */
		iv = t != NULL ? t->interval : 0;
		if (i < c->ng && c->g[i]->interval != 0)
			iv = c->g[i]->interval;
		else if (i < c->ng && c->g[i]->nsamples >= 2)
			iv = (c->g[i]->last - c->g[i]->first) /
			    (c->g[i]->nsamples - 1);
		sbuf_adds(&sb, i > 0 ? ",[" : "[");
		esc_json(&sb, i < c->ng ? c->g[i]->host : t->host);
		sbuf_printf(&sb, ",%u,\"", i < c->ng ? c->g[i]->gpu : t->gpu);
		/*
		 * Decimals of a delay: as many as its interval allows (none
		 * for a whole second or more), all three when unknown.
		 */
		places = 3;
		if (iv != 0) {
			sbuf_adds(&sb, gtime_fmt_secs(iv, d));
			dot = strchr(tasktab_delay(0, iv, d), '.');
			places = dot != NULL ? strlen(dot + 1) : 0;
		}
		sbuf_printf(&sb, "\",%zu]", places);
	}
	sbuf_adds(&sb, "]");
	json_strs(&sb, "names", names, nn);
	sbuf_adds(&sb, ",\"rows\":[\n");
	for (i = 0; i < n; i++) {
		const struct task *t = v[i];

		sbuf_printf(&sb, "%s[%zu,%u,%zu,", i > 0 ? ",\n" : "", gp[i],
		    t->pid, strindex(names, nn, t->name));
		json_secs(&sb, t->start - t0);
		sbuf_addc(&sb, ',');
		json_secs(&sb, t->end > t->start ? t->end - t->start : 0);
		sbuf_printf(&sb, ",%u,%u,", t->peak == t->held ? 0 : t->peak,
		    t->held);
		if (t->status == TASK_RELEASED)
			json_secs(&sb, t->delay);
		else
			sbuf_addc(&sb, '0');
		sbuf_printf(&sb, ",%lld,%d]", t->status == TASK_LEAKED &&
		    t->has_leaked ? (long long)t->leaked : t->status ==
		    TASK_RELEASED ? 0LL : -1LL, (int)t->status);
	}
	sbuf_adds(&sb, "]}");
	sbuf_adds(page, "<script type=\"application/json\" id=\"taskdata\">\n");
	for (i = 0; i < sb.len; i++)
		if (sb.buf[i] == '<')
			sbuf_adds(page, "\\u003c");
		else
			sbuf_addc(page, sb.buf[i]);
	sbuf_adds(page, "\n</script>\n");
	free(s);
	free(gp);
	free(gt);
	free(names);
	sbuf_release(&sb);
}

/* The filters of the task table, shown by its script. */
static void
task_filters(struct sbuf *sb, const struct collection *c)
{
	size_t i;

	sbuf_printf(sb, "<div id=\"filters\" class=\"filters\" hidden>"
	    "<label><input type=\"checkbox\" id=\"f-leaked\"> leaked</label> "
	    "<label><input type=\"checkbox\" id=\"f-slow\"> slow (released "
	    "after %d s or more)</label> <select id=\"f-gpu\">"
	    "<option value=\"\">every GPU</option>", SLOW);
	for (i = 0; i < c->ng; i++) {
		const struct gpuview *g = c->g[i];

		sbuf_adds(sb, "<option value=\"");
		page_html(sb, g->host);
		sbuf_printf(sb, "/%u\">", g->gpu);
		if (c->nhosts > 1) {
			page_html(sb, *g->host ? g->host : "-");
			sbuf_addc(sb, ' ');
		}
		sbuf_printf(sb, "GPU %u</option>", g->gpu);
	}
	sbuf_adds(sb, "</select> <input type=\"search\" id=\"f-name\" "
	    "placeholder=\"name or pid\"> <button type=\"button\" "
	    "id=\"f-all\">show all</button> <button type=\"button\" "
	    "id=\"f-prev\" hidden>&lsaquo; previous</button> <button "
	    "type=\"button\" id=\"f-next\" hidden>next &rsaquo;</button> "
	    "<span id=\"f-count\"></span></div>\n");
}

/* One task's row, as page_table_js draws it too. */
static void
task_row(struct sbuf *sb, const struct task *t, int nhosts, int utc,
    int date, uint32_t tolerance)
{
	static const char *const status_names[] = {"released", "leaked",
	    "running"};
	char mb[32], iv[32];

	sbuf_printf(sb, "<tr class=\"%s\">", status_names[t->status]);
	if (nhosts > 1) {
		sbuf_adds(sb, "<td>");
		page_html(sb, t->host);
		sbuf_adds(sb, "</td>");
	}
	sbuf_printf(sb, "<td class=\"n\">%u</td><td class=\"n\">%u</td>"
	    "<td class=\"name\">", t->gpu, t->pid);
	page_html(sb, t->name);
	sbuf_adds(sb, "</td>");
	time_cell(sb, t->start, utc, date);
	time_cell(sb, t->end, utc, date);
	sbuf_printf(sb, "<td class=\"n\" data-v=\"%u\">%s</td>",
	    t->peak, num_fmt_mib(t->peak, mb));
	sbuf_printf(sb, "<td class=\"n\" data-v=\"%u\">%s</td>",
	    t->held, num_fmt_mib(t->held, mb));
	if (t->status == TASK_RELEASED) {
		sbuf_printf(sb, "<td class=\"n\" data-v=\"%.3f\">",
		    (double)t->delay / NS_PER_SEC);
		secs(sb, t->delay, t->interval);
		if (t->interval != 0)
			sbuf_printf(sb, " &plusmn;%s s",
			    gtime_fmt_secs(t->interval, iv));
		sbuf_adds(sb, "</td>");
	} else if (chart_back_late(t, tolerance) > 0)
		sbuf_printf(sb, "<td class=\"n\" data-v=\"\">%s back "
		    "late</td>", num_fmt_mib(chart_back_late(t,
		    tolerance), mb));
	else
		sbuf_adds(sb, "<td class=\"n\" data-v=\"\">&ndash;</td>");
	if (t->status == TASK_LEAKED && t->has_leaked)
		sbuf_printf(sb, "<td class=\"n\" data-v=\"%u\">%s</td>",
		    t->leaked, num_fmt_mib(t->leaked, mb));
	else if (t->status == TASK_RELEASED)
		sbuf_adds(sb, "<td class=\"n\" data-v=\"0\">0</td>");
	else
		sbuf_adds(sb, "<td class=\"n\" data-v=\"\">?</td>");
	sbuf_printf(sb, "<td>%s</td></tr>\n", status_names[t->status]);
}

/*
 * The task table: the TOPN most interesting tasks as rows, every task
 * in the JSON its script draws from (page_table_js).
 */
void
page_task_table(struct sbuf *sb, const struct collection *c, int utc, int date,
    uint32_t tolerance)
{
	const struct task **v;
	size_t i, n, hidden;

	n = chart_gantt_rows(&c->tasks, 0, NULL, 0, c->tasks.n + 1, &v,
	    &hidden);
	qsort(v, n, sizeof(*v), by_interest);
	task_filters(sb, c);
	sbuf_adds(sb, "<table class=\"sortable\" id=\"tasks\">\n<thead><tr>");
	if (c->nhosts > 1)
		sbuf_adds(sb, "<th>host</th>");
	sbuf_adds(sb, "<th class=\"n\">gpu</th><th class=\"n\">pid</th>"
	    "<th>name</th><th>start</th><th>end</th><th class=\"n\">peak</th>"
	    "<th class=\"n\">held</th><th class=\"n\">released after</th>"
	    "<th class=\"n\">leaked</th><th>status</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n && i < TOPN; i++)
		task_row(sb, v[i], c->nhosts, utc, date, tolerance);
	sbuf_adds(sb, "</tbody>\n</table>\n");
	if (n > TOPN)
		sbuf_printf(sb, "<p class=\"note\" id=\"more\">The %d most "
		    "interesting of %zu tasks (leaks, then the longest "
		    "delays); &ldquo;show all&rdquo; pages through the rest."
		    "</p>\n", TOPN, n);
	task_json(sb, c, v, n, utc, date, tolerance);
	free(v);
}

/*
 * Memory in use at the end beyond the level at the start, on GPUs where
 * no task leaked, by more than the tolerance: "all memory came back" is
 * never said over it.
 */
static int64_t
unowned_at_end(const struct collection *c, uint32_t tolerance)
{
	int64_t sum = 0, above;
	size_t i;

	for (i = 0; i < c->ng; i++) {
		const struct gpuview *v = c->g[i];

		if (v->nsamples == 0 || v->nleaked > 0)
			continue;
		above = v->unattr_last - v->unattr_first;
		if (above > (int64_t)tolerance)
			sum += above;
	}
	return sum;
}

/* The headline: cards, the worst delays, the leaks. */
void
page_headline(struct sbuf *sb, const struct collection *c, int utc, int date,
    int nhosts, uint32_t tolerance)
{
	const struct task **v;
	uint64_t *delays;
	size_t i, n = 0, hidden, shown;
	char num[64], sub[160], mb[32], iv[32], label[160], when[GTIME_BUFSZ];
	char range[96], words[128];
	char text[160];
	int64_t unowned;
	struct sbuf s = SBUF_INIT;

	delays = ereallocarray(NULL, c->tasks.n + 1, sizeof(*delays));
	for (i = 0; i < c->tasks.n; i++)
		if (c->tasks.t[i].status == TASK_RELEASED)
			delays[n++] = c->tasks.t[i].delay;
	qsort(delays, n, sizeof(*delays), by_u64);
	sbuf_adds(sb, "<section class=\"cards\">\n");
	snprintf(num, sizeof(num), "%llu", (unsigned long long)c->ntasks);
	snprintf(sub, sizeof(sub), "%llu released, %llu leaked, %llu running",
	    (unsigned long long)c->nreleased, (unsigned long long)c->nleaked,
	    (unsigned long long)c->nrunning);
	card(sb, "", num, "tasks", sub);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)c->nleaked);
	unowned = unowned_at_end(c, tolerance);
	if (c->nleaked > 0 && c->nleaked_unknown == c->nleaked)
		snprintf(sub, sizeof(sub), "how much is unknown: no "
		    "whole-device memory figures after they ended");
	else if (c->nleaked > 0 && c->nleaked_unknown > 0)
		snprintf(sub, sizeof(sub), "%s never came back, %llu more "
		    "an unknown amount",
		    num_fmt_mib((int64_t)c->leaked_mib, mb),
		    (unsigned long long)c->nleaked_unknown);
	else if (c->nleaked > 0 && unowned > 0)
		snprintf(sub, sizeof(sub), "%s never came back, %s more "
		    "held by no task", num_fmt_mib((int64_t)c->leaked_mib, mb),
		    num_fmt_mib(unowned, iv));
	else if (c->nleaked > 0)
		snprintf(sub, sizeof(sub), "%s never came back",
		    num_fmt_mib((int64_t)c->leaked_mib, mb));
	else if (unowned > 0)
		snprintf(sub, sizeof(sub), "but %s more is in use at the end "
		    "than at the start, held by no task",
		    num_fmt_mib(unowned, mb));
	else
		snprintf(sub, sizeof(sub), "all memory came back");
	card(sb, c->nleaked > 0 || unowned > 0 ? "bad" : "good", num, "leaks",
	    sub);
	if (n > 0) {
		static const struct {
			const char *name;
			double q;
		} qs[] = {{"p50 delay", 0.5}, {"p95 delay", 0.95},
		    {"max delay", 1.0}};

		for (i = 0; i < 3; i++) {
			sbuf_reset(&s);
			secs(&s, percentile(delays, n, qs[i].q), c->interval);
			if (c->interval != 0)
				snprintf(sub, sizeof(sub), "\xc2\xb1%s s, of %zu "
				    "released", gtime_fmt_secs(c->interval, iv),
				    n);
			else
				snprintf(sub, sizeof(sub), "of %zu released",
				    n);
			card(sb, "", s.buf, qs[i].name, sub);
		}
	} else
		card(sb, "", "-", "release delays", "no task was released");
	sbuf_adds(sb, "</section>\n");
	if (n > 0) {
		sbuf_adds(sb, "<p class=\"note\">A release delay is the time "
		    "from a task's end to the first sample showing its memory "
		    "back; it is measured between samples");
		if (c->interval != 0)
			sbuf_printf(sb, " taken every %s s, so each is known to "
			    "&plusmn;%s s", gtime_fmt_secs(c->interval, iv), iv);
		sbuf_adds(sb, ".</p>\n");
	}
	/* The worst delays and the leaks, most first. */
	n = chart_gantt_rows(&c->tasks, 0, NULL, 0, c->tasks.n + 1, &v,
	    &hidden);
	{
		const struct task **w = ereallocarray(NULL, n + 1, sizeof(*w));
		size_t nw = 0, nl = 0;

		for (i = 0; i < n; i++)
			w[nw++] = v[i];
		/* chart_gantt_rows orders by place; these want interest. */
		for (i = 1; i < nw; i++) {
			const struct task *x = w[i];
			size_t j = i;

			while (j > 0 &&
			    collect_task_interest(x, w[j - 1]) < 0) {
				w[j] = w[j - 1];
				j--;
			}
			w[j] = x;
		}
		for (i = 0; i < nw; i++)
			if (w[i]->status == TASK_LEAKED)
				nl++;
		if (nl > 0) {
			sbuf_adds(sb, "<h2>Leaks: memory that never came back"
			    "</h2>\n<ul>\n");
			for (i = 0, shown = 0; i < nw && shown < LEAKS; i++) {
				const struct task *t = w[i];

				if (t->status != TASK_LEAKED)
					continue;
				shown++;
				sbuf_adds(sb, "<li><b>");
				page_html(sb, chart_task_label(t, nhosts, 60,
				    label, sizeof(label)));
				sbuf_adds(sb, "</b>: ");
				if (chart_back_late(t, tolerance) > 0)
					sbuf_printf(sb, "held %s: ",
					    num_fmt_mib(t->held, mb));
				if (!t->has_leaked)
					sbuf_adds(sb, "leaked, ");
				page_html(sb, chart_leak_text(t, tolerance,
				    ", ", text, sizeof(text)));
				sbuf_printf(sb, " (ended %s)</li>\n",
				    chart_clock(t->end, utc, date, when));
			}
			if (nl > shown)
				sbuf_printf(sb, "<li>%zu more in the table "
				    "below</li>\n", nl - shown);
			sbuf_adds(sb, "</ul>\n");
		}
		shown = 0;
		for (i = 0; i < nw && shown < WORST; i++) {
			const struct task *t = w[i];

			if (t->status != TASK_RELEASED || t->delay == 0)
				continue;
			if (shown++ == 0)
				sbuf_adds(sb, "<h2>Worst release delays</h2>\n"
				    "<ol>\n");
			sbuf_adds(sb, "<li><b>");
			page_html(sb, chart_task_label(t, nhosts, 60, label,
			    sizeof(label)));
			/* The bounds the data allows, as the table's. */
			sbuf_adds(sb, "</b>: memory held ");
			page_html(sb, gtime_secs_words(tasktab_delay_range(t,
			    range), words, sizeof(words)));
			sbuf_printf(sb, " after its end (%s",
			    chart_clock(t->end, utc, date, when));
			sbuf_printf(sb, " to %s)</li>\n",
			    chart_clock(t->release, utc, date, when));
		}
		if (shown > 0)
			sbuf_adds(sb, "</ol>\n");
		free(w);
	}
	free(v);
	free(delays);
	sbuf_release(&s);
}
