/* SPDX-License-Identifier: ISC */
/*
 * report.c: gpumem-report, logs or record streams in, one self-contained
 * HTML page out: the headline numbers (tasks, leaks, the worst delays,
 * p50/p95/max delay with the sampling interval they are known to), per
 * GPU the usage chart and the Gantt chart as inline SVG (drawn by
 * gnuplot), and the task table, sortable.  No network, no external file:
 * a CI artifact or a mail attachment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chartopt.h"
#include "cmd.h"
#include "collect.h"
#include "config.h"
#include "esc.h"
#include "gnuplot.h"
#include "gpumap.h"
#include "gtime.h"
#include "readopt.h"
#include "tasktab.h"
#include "util.h"

#define MAXROWS 50		/* Gantt rows per GPU by default, at most */
#define PAGE_ROWS 120		/* Gantt rows of a page by default, about */
#define MINROWS 10		/* Gantt rows per GPU by default, at least */
#define PAGE_BUCKETS 1200	/* usage chart columns of a page, about */
#define MINBUCKETS 100		/* usage chart columns per GPU, at least */
#define PAGE_TIPS 300		/* usage tooltip columns of a page, about */
#define MINTIPS 30		/* usage tooltip columns per GPU, at least */
#define PAGE_GPUS 32		/* GPUs charted on the page itself by default */
#define MARKS 12		/* tasks marked per GPU on the usage chart */
#define CHART_W 1100		/* chart width in SVG pixels */
#define WORST 5			/* the worst delays listed */
#define LEAKS 20		/* the leaks listed */
#define NOCHARTS "gnuplot is not installed"
#define TOPN 50		/* task rows before "show all" */
#define PAGE 500		/* task rows a page with "show all" */
#define SLOW 10			/* s: a release this late is slow (filter) */

enum {
	OPT_MAXROWS = OPT_CHART_LAST,
	OPT_PAGEGPUS
};

static const struct cmd_opt opts[] = {
	{OPT_TITLE, "title", "TEXT", "the report's title"},
	{OPT_MAXROWS, "max-rows", "N", "Gantt rows per GPU, the most leaked "
	    "and latest first (50,\nfewer for many GPUs)"},
	{OPT_PAGEGPUS, "page-gpus", "N", "GPUs charted on the page itself "
	    "(32; 0: all); with more\nand -o FILE, their charts go to a "
	    "page a host beside FILE"},
	CHARTOPT_UTC,
	CFGOPT_OPTS,
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct cfgopts cfg;
	const char *title;
	size_t maxrows;
	size_t page_gpus;	/* GPUs charted on the first page, at most */
	int utc;
	int nocharts;		/* gnuplot is missing: the page without charts */
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case OPT_MAXROWS:
		o->maxrows = (size_t)opt_u64("--max-rows", arg, 1, 100000);
		return 1;
	case OPT_PAGEGPUS:
		o->page_gpus = (size_t)opt_u64("--page-gpus", arg, 0,
		    COLLECT_MAXPAGES);
		return 1;
	case OPT_TITLE:
		o->title = arg;
		return 1;
	case OPT_UTC:
		o->utc = 1;
		return 1;
	}
	return 0;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [-o FILE] [--title TEXT] [--max-rows N] [--utc]\n"
	    "[--config FILE] [--tasks FILE] [--tolerance MIB] [read options] "
	    "[FILE ...]",
	.about = "Write a one-page HTML report of record streams (or of "
	    "anything gpumem read\nreads): the headline numbers (tasks, "
	    "leaks, the worst release delays,\np50/p95/max delay), per GPU "
	    "the usage chart and the Gantt chart, and the\ntask table, "
	    "sortable.  One self-contained file: charts are inline SVG "
	    "drawn\nby gnuplot, nothing is fetched.  With no FILE, or when "
	    "FILE is -, read\nstandard input.",
	.opts = opts,
	.exits = "0 success (without gnuplot: no charts), 2 trouble (usage, "
	    "unreadable\ninput, gnuplot failed)",
	.flags = CMD_OUTPUT | CMD_READ,
	.option = option,
	.run = run,
};

/*
 * Text or an attribute value of the page: esc_xml, the one escaper of
 * markup (HTML takes XML's entities; invalid UTF-8 and control
 * characters become U+FFFD).  A name, not a copy: main's calls stay.
 */
static void
html(struct sbuf *sb, const char *s)
{
	esc_xml(sb, s, 1);
}

/*
 * Inline an SVG document that gnuplot wrote: drop what comes before
 * <svg (the XML declaration and the DOCTYPE, which HTML does not take),
 * and give every id, and every reference to one, the prefix pfx: each
 * gnuplot picture names its parts alike (gnuplot_canvas, gpPt0...), and
 * in one page ids must differ.  Only markup is rewritten, never text.
 */
/*
 * Tooltips for a chart's bars: for each of its bar elements
 * (chart_ids), the text of each bar in order, after skip polygons (the
 * key's sample).  svg_inline gives each such polygon a <title> child,
 * which browsers show on hover: no script, nothing fetched.
 */
struct tips {
	int plot[3];
	size_t skip[3];
	struct sbuf text[3];	/* the texts, each ending with '\0' */
};

/* The next text of group g, or NULL when there is none. */
static const char *
tip_next(const struct tips *tp, int g, size_t *off)
{
	if (*off >= tp->text[g].len)
		return NULL;
	return tp->text[g].buf + *off;
}

static int
svg_inline(struct sbuf *sb, const char *svg, size_t len, const char *pfx,
    const struct tips *tp)
{
	const char *p = NULL, *end = svg + len, *tip = NULL;
	size_t i, npoly = 0, off[3] = {0, 0, 0};
	int intag = 0, g = -1;

	for (i = 0; i + 4 <= len; i++)
		if (memcmp(svg + i, "<svg", 4) == 0) {
			p = svg + i;
			break;
		}
	if (p == NULL)
		return -1;
	while (p < end) {
		static const char *const refs[] = {"id='", "id=\"", "href='#",
		    "href=\"#", "url(#"};
		size_t k;

		if (*p == '<')
			intag = 1;
		else if (*p == '>')
			intag = 0;
		if (intag && (p == svg || p[-1] == ' ' || p[-1] == '\t' ||
		    p[-1] == ':' || p[-1] == '(' || p[-1] == '\n')) {
			for (k = 0; k < sizeof(refs) / sizeof(refs[0]); k++) {
				size_t rl = strlen(refs[k]);

				if ((size_t)(end - p) > rl &&
				    memcmp(p, refs[k], rl) == 0)
					break;
			}
			if (k < sizeof(refs) / sizeof(refs[0])) {
				size_t rl = strlen(refs[k]);

				sbuf_add(sb, p, rl);
				sbuf_adds(sb, pfx);
				p += rl;
				/* A plot element: are its polygons bars? */
				if (tp != NULL && k < 2 && (size_t)(end - p) >
				    13 && memcmp(p, "gnuplot_plot_", 13) == 0) {
					int n = atoi(p + 13), j;

					g = -1;
					npoly = 0;
					for (j = 0; j < 3; j++)
						if (n > 0 && tp->plot[j] == n)
							g = j;
				}
				continue;
			}
		}
		if (g >= 0 && *p == '<' && (size_t)(end - p) > 8 &&
		    memcmp(p, "<polygon", 8) == 0 && npoly++ >= tp->skip[g] &&
		    (tip = tip_next(tp, g, &off[g])) != NULL)
			off[g] += strlen(tip) + 1;
		if (tip != NULL && intag && *p == '/' && p + 1 < end &&
		    p[1] == '>') {
			sbuf_adds(sb, "><title>");
			html(sb, tip);
			sbuf_adds(sb, "</title></polygon>");
			tip = NULL;
			intag = 0;
			p += 2;
			continue;
		}

		/*
		 * Smaller, same picture: a run of white space in a tag is
		 * one space, and white space alone between tags goes (a
		 * <text> holds words, never only blanks).
		 */
		if (intag && (*p == ' ' || *p == '\t' || *p == '\n')) {
			const char *q = p;

			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n'))
				q++;
			if (p[-1] != '=' && q < end && *q != '=' && *q != '>' &&
			    *q != '/')
				sbuf_addc(sb, ' ');
			p = q;
			continue;
		} else if (!intag && p > svg && p[-1] == '>') {
			const char *q = p;

			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n'))
				q++;
			if (q < end && *q == '<' && q > p) {
				sbuf_addc(sb, '\n');
				p = q;
				continue;
			}
		}
		sbuf_addc(sb, *p++);
	}
	return 0;
}

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
	html(sb, num);
	sbuf_adds(sb, "</div><div class=\"lbl\">");
	html(sb, label);
	sbuf_adds(sb, "</div>");
	if (sub != NULL) {
		sbuf_adds(sb, "<div class=\"sub\">");
		html(sb, sub);
		sbuf_adds(sb, "</div>");
	}
	sbuf_adds(sb, "</div>\n");
}

static const char style[] =
"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
"color:#222;background:#fff;margin:0 auto;max-width:1160px;padding:24px}\n"
"h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
"border-bottom:1px solid #ddd;padding-bottom:4px}\n"
".meta{color:#666;margin:0 0 16px}\n"
".cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}\n"
".card{border:1px solid #ddd;border-radius:6px;padding:10px 16px;"
"min-width:130px;background:#fafafa}\n"
".card .num{font-size:26px;font-weight:600}.card .lbl{color:#555}\n"
".card .sub{color:#777;font-size:12px}\n"
".card.bad{border-color:#cb181d;background:#fff5f0}"
".card.bad .num{color:#a50f15}\n"
".card.good .num{color:#238b45}\n"
".note{color:#555;font-size:13px}\n"
".warn{border:1px solid #e6550d;background:#fff5eb;padding:8px 12px;"
"border-radius:6px}\n"
"figure{margin:8px 0 16px;overflow-x:auto}figure svg{width:100%;"
"height:auto;display:block}\n"
".zoom{text-align:right;font-size:12px}.zoom button{margin-left:4px}\n"
"table{border-collapse:collapse;width:100%;font-size:13px}\n"
"th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:left;"
"white-space:nowrap}\n"
"td.n,th.n{text-align:right}\n"
"th{cursor:pointer;background:#f3f3f3;position:sticky;top:0;"
"user-select:none}\n"
"th:hover{background:#e8e8e8}th[data-dir=asc]::after{content:' \\25B2'}"
"th[data-dir=desc]::after{content:' \\25BC'}\n"
"tr.leaked td{background:#fff0ee}tr.running td{color:#666}\n"
"td.name{white-space:normal;max-width:380px}\n"
"footer{margin-top:32px;color:#777;font-size:12px}\n"
"nav.index small{color:#777}\n"
"table.ov{width:auto;border-collapse:separate;border-spacing:2px;"
"font-size:12px;margin:6px 0}\n"
"table.ov th{background:none;cursor:default;position:static;"
"font-weight:600;text-align:right;padding:0 6px}\n"
"table.ov td.c{border:1px solid #ddd;border-left:5px solid;padding:1px 5px;"
"min-width:34px}\ntable.ov td.c a{font-weight:600}\n"
"table.ov td.l1{background:#fee0d2}table.ov td.l2{background:#fc9272}"
"table.ov td.l3{background:#de2d26}table.ov td.l3,table.ov td.l3 a,"
"table.ov td.l3 small{color:#fff}\n"
".legend .swatch{display:inline-block;width:22px;height:12px;"
"margin:0 4px 0 10px;vertical-align:middle;border-radius:2px}\n"
".filters{margin:8px 0;display:flex;flex-wrap:wrap;gap:10px;"
"align-items:center}\n";

/*
 * The task table's script.  The table holds the TOPN most interesting
 * tasks as rows (a page without script still shows them); every task is
 * in the JSON of #taskdata, one array a task (tdcols below), and the
 * script draws the rows again from it when a filter (leaked, slow, GPU,
 * name), a sort (a header's click) or a page asks: the first TOPN of
 * what the filters keep, or with "show all" every one, PAGE rows a page.
 */
static const char table_js[] =
"(function(){\n"
"var D=JSON.parse(document.getElementById('taskdata').textContent);\n"
"var T=document.getElementById('tasks'),tb=T.tBodies[0];\n"
"var ths=T.tHead.rows[0].cells,col=-1,up=true,all=false,page=0;\n"
"var hosts=D.hosts>1,ST=['released','leaked','running'];\n"
"function $(i){return document.getElementById(i)}\n"
"function mib(m){return m>=1024?(m/1024).toFixed(1)+' GiB':m+' MiB'}\n"
"function span(t){var d=+t;if(d<60)return t+' s';var h=Math.floor(d/3600),\n"
" m=Math.floor(d%3600/60),x=+(d%60).toFixed(3);return (h?h+' h':'')+\n"
" (m?(h?' ':'')+m+' min':'')+(x?' '+x+' s':'')}\n"
"function clock(s){var d=new Date((D.t0+s+D.zone)*1000).toISOString();\n"
" return D.date?d.slice(0,10)+' '+d.slice(11,19):d.slice(11,19)}\n"
"function esc(x){return String(x).replace(/[&<>\"']/g,function(c){\n"
" return '&#'+c.charCodeAt(0)+';'})}\n"
"function g(r){return D.gpus[r[0]]}\n"
"function key(r,i){var k=i-(hosts?1:0);switch(k){\n"
" case -1:return g(r)[0];case 0:return g(r)[1];case 1:return r[1];\n"
" case 2:return D.names[r[2]].toLowerCase();case 3:return r[3];\n"
" case 4:return r[3]+r[4];case 5:return r[5]||r[6];case 6:return r[6];\n"
" case 7:return r[9]==0?r[7]:-1;case 8:return r[8];\n"
" default:return ST[r[9]]}}\n"
"function row(r){var h='<tr class=\"'+ST[r[9]]+'\">',G=g(r);\n"
" if(hosts)h+='<td>'+esc(G[0])+'</td>';\n"
" h+='<td class=\"n\">'+G[1]+'</td><td class=\"n\">'+r[1]+'</td><td class=\"name\">'+\n"
"  esc(D.names[r[2]])+'</td><td>'+clock(r[3])+'</td><td>'+clock(r[3]+r[4])+\n"
"  '</td><td class=\"n\">'+mib(r[5]||r[6])+'</td><td class=\"n\">'+mib(r[6])+'</td><td class=\"n\">';\n"
" if(r[9]==0)h+=span(r[7].toFixed(G[3]))+(G[2]?' \\u00b1'+G[2]+' s':'');\n"
" else if(r[9]==1&&r[8]>=0&&r[6]-r[8]>D.tol)h+=mib(r[6]-r[8])+' back late';\n"
" else h+='\\u2013';\n"
" h+='</td><td class=\"n\">'+(r[9]==0?'0':r[9]==1&&r[8]>=0?mib(r[8]):'?')+\n"
"  '</td><td>'+ST[r[9]]+'</td></tr>';return h}\n"
"function draw(){var L=$('f-leaked').checked,S=$('f-slow').checked,\n"
" F=$('f-gpu').value,N=$('f-name').value.toLowerCase(),v=[];\n"
" D.rows.forEach(function(r){if(L&&r[9]!=1)return;\n"
"  if(S&&!(r[9]==0&&r[7]>=D.slow))return;\n"
"  if(F!==''&&g(r)[0]+'/'+g(r)[1]!==F)return;\n"
"  if(N&&D.names[r[2]].toLowerCase().indexOf(N)<0&&String(r[1])!==N)return;\n"
"  v.push(r)});\n"
" if(col>=0)v.sort(function(a,b){var x=key(a,col),y=key(b,col);\n"
"  return (x<y?-1:x>y?1:0)*(up?1:-1)});\n"
" var n=all?D.page:D.top,pages=Math.max(1,Math.ceil(v.length/n));\n"
" if(page>=pages)page=pages-1;if(!all)page=0;\n"
" tb.innerHTML=v.slice(page*n,page*n+n).map(row).join('');\n"
" $('f-count').textContent=v.length+' of '+D.rows.length+' tasks'+\n"
"  (v.length>n?', '+(all?'page '+(page+1)+' of '+pages:'the first '+n):'');\n"
" $('f-prev').hidden=$('f-next').hidden=!all||pages<2;\n"
" $('f-all').textContent=all?'show the first '+D.top:'show all'}\n"
"['f-leaked','f-slow','f-gpu'].forEach(function(i){\n"
" $(i).addEventListener('change',function(){page=0;draw()})});\n"
"$('f-name').addEventListener('input',function(){page=0;draw()});\n"
"$('f-all').addEventListener('click',function(){all=!all;page=0;draw()});\n"
"$('f-prev').addEventListener('click',function(){if(page>0)page--;draw()});\n"
"$('f-next').addEventListener('click',function(){page++;draw()});\n"
"Array.prototype.forEach.call(ths,function(th,i){\n"
" th.addEventListener('click',function(){up=col===i?!up:true;col=i;\n"
"  Array.prototype.forEach.call(ths,function(h){h.removeAttribute('data-dir')});\n"
"  th.setAttribute('data-dir',up?'asc':'desc');draw()})});\n"
"$('filters').hidden=false;draw()})();\n";

/*
 * Zoom on a chart's time axis: buttons above each chart widen it (the
 * picture is SVG: it stays sharp) in a frame that scrolls sideways,
 * keeping the time under the middle of the frame in view.
 */
static const char zoom_js[] =
"document.querySelectorAll('figure.chart').forEach(function(f){\n"
" var z=1,svg=f.querySelector('svg'),bar=document.createElement('div');\n"
" if(!svg)return;bar.className='zoom';\n"
" function set(k){var mid=(f.scrollLeft+f.clientWidth/2)/f.scrollWidth;\n"
"  z=Math.max(1,Math.min(16,k));svg.style.width=(100*z)+'%';\n"
"  f.scrollLeft=mid*f.scrollWidth-f.clientWidth/2;\n"
"  bar.querySelector('span').textContent=z>1?'\\u00d7'+z:''}\n"
" [['+',2],['\\u2212',0.5],['reset',0]].forEach(function(b){\n"
"  var e=document.createElement('button');e.type='button';\n"
"  e.textContent=b[0];e.title=b[1]?'zoom the time axis':'whole time axis';\n"
"  e.addEventListener('click',function(){set(b[1]?z*b[1]:1)});\n"
"  bar.appendChild(e)});\n"
" bar.appendChild(document.createElement('span'));\n"
" f.parentNode.insertBefore(bar,f)});\n";

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
	return task_interest(*(const struct task *const *)a,
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
 * Every task as JSON for the table's script (table_js), in order of
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
		html(sb, g->host);
		sbuf_printf(sb, "/%u\">", g->gpu);
		if (c->nhosts > 1) {
			html(sb, *g->host ? g->host : "-");
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

/* One task's row, as table_js draws it too. */
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
		html(sb, t->host);
		sbuf_adds(sb, "</td>");
	}
	sbuf_printf(sb, "<td class=\"n\">%u</td><td class=\"n\">%u</td>"
	    "<td class=\"name\">", t->gpu, t->pid);
	html(sb, t->name);
	sbuf_adds(sb, "</td>");
	time_cell(sb, t->start, utc, date);
	time_cell(sb, t->end, utc, date);
	sbuf_printf(sb, "<td class=\"n\" data-v=\"%u\">%s</td>",
	    t->peak, fmt_mib(t->peak, mb));
	sbuf_printf(sb, "<td class=\"n\" data-v=\"%u\">%s</td>",
	    t->held, fmt_mib(t->held, mb));
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
		    "late</td>", fmt_mib(chart_back_late(t,
		    tolerance), mb));
	else
		sbuf_adds(sb, "<td class=\"n\" data-v=\"\">&ndash;</td>");
	if (t->status == TASK_LEAKED && t->has_leaked)
		sbuf_printf(sb, "<td class=\"n\" data-v=\"%u\">%s</td>",
		    t->leaked, fmt_mib(t->leaked, mb));
	else if (t->status == TASK_RELEASED)
		sbuf_adds(sb, "<td class=\"n\" data-v=\"0\">0</td>");
	else
		sbuf_adds(sb, "<td class=\"n\" data-v=\"\">?</td>");
	sbuf_printf(sb, "<td>%s</td></tr>\n", status_names[t->status]);
}

/*
 * The task table: the TOPN most interesting tasks as rows, every task
 * in the JSON its script draws from (table_js).
 */
static void
task_table(struct sbuf *sb, const struct collection *c, int utc, int date,
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
static void
headline(struct sbuf *sb, const struct collection *c, int utc, int date,
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
	if (c->nleaked > 0 && unowned > 0)
		snprintf(sub, sizeof(sub), "%s never came back, %s more "
		    "held by no task", fmt_mib((int64_t)c->leaked_mib, mb),
		    fmt_mib(unowned, iv));
	else if (c->nleaked > 0)
		snprintf(sub, sizeof(sub), "%s never came back",
		    fmt_mib((int64_t)c->leaked_mib, mb));
	else if (unowned > 0)
		snprintf(sub, sizeof(sub), "but %s more is in use at the end "
		    "than at the start, held by no task",
		    fmt_mib(unowned, mb));
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

			while (j > 0 && task_interest(x, w[j - 1]) < 0) {
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
				html(sb, chart_task_label(t, nhosts, 60, label,
				    sizeof(label)));
				sbuf_adds(sb, "</b>: ");
				if (chart_back_late(t, tolerance) > 0)
					sbuf_printf(sb, "held %s: ",
					    fmt_mib(t->held, mb));
				if (!t->has_leaked)
					sbuf_adds(sb, "leaked, ");
				html(sb, chart_leak_text(t, tolerance, ", ",
				    text, sizeof(text)));
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
			html(sb, chart_task_label(t, nhosts, 60, label,
			    sizeof(label)));
			/* The bounds the data allows, as the table's. */
			sbuf_adds(sb, "</b>: memory held ");
			html(sb, gtime_secs_words(tasktab_delay_range(t,
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

/*
 * The tooltips of a Gantt chart's bars: the task (GPU, pid, name), its
 * life, what it held and its release delay, or what it leaked.
 */
static void
gantt_tips(struct tips *tp, const struct chart_ids *ids,
    const struct task *const *rows, size_t n, int nhosts, int utc, int date,
    uint32_t tolerance)
{
	size_t i;
	char label[160], mb[32], a[GTIME_BUFSZ], b[GTIME_BUFSZ], d[96];

	memset(tp, 0, sizeof(*tp));
	tp->plot[0] = ids->life;
	tp->plot[1] = ids->held;
	tp->plot[2] = ids->leak;
	tp->skip[0] = 1;	/* the key's sample */
	tp->skip[2] = 1;
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		struct sbuf one = SBUF_INIT;
		int k;

		sbuf_printf(&one, "%s\n%s to %s, held %s",
		    chart_task_label(t, nhosts, 80, label, sizeof(label)),
		    chart_clock(t->start, utc, date, a), chart_clock(t->end,
		    utc, 0, b), fmt_mib(t->held, mb));
		if (t->status == TASK_RELEASED)
			sbuf_printf(&one, "\nreleased after %s",
			    tasktab_delay_range(t, d));
		else if (t->status == TASK_LEAKED)
			sbuf_printf(&one, "\nleaked: %s", chart_leak_text(t,
			    tolerance, ", ", d, sizeof(d)));
		else
			sbuf_adds(&one, "\nrunning at the end");
		/* The life's bar, and the bar after it says the same. */
		for (k = 0; k < 3; k++)
			if (k == 0 || (k == 1 && t->status == TASK_RELEASED) ||
			    (k == 2 && t->status == TASK_LEAKED))
				sbuf_add(&tp->text[k], one.buf, one.len + 1);
		sbuf_release(&one);
	}
}

/*
 * The tooltips of a GPU's usage chart: on each column its time and
 * curves, on each leak block the task, what it leaked and since when.
 */
static void
usage_tips(struct tips *tp, const struct chart_ids *ids,
    const struct gpuview *v, int nhosts, int utc, int date,
    uint32_t tolerance)
{
	struct tipcol *c;
	const struct task **lk;
	size_t i, n;
	char label[320], a[GTIME_BUFSZ];

	memset(tp, 0, sizeof(*tp));
	tp->plot[0] = ids->cols;
	tp->plot[1] = ids->blocks;
	tp->plot[2] = ids->marks;
	c = ereallocarray(NULL, ids->ncols + 1, sizeof(*c));
	n = chart_tip_cols(v, ids->ncols, c);
	for (i = 0; i < n; i++) {
		sbuf_printf(&tp->text[0], "%s\nusage %lld MiB, attributed "
		    "%lld MiB, unattributed %lld MiB", chart_clock(c[i].t, utc,
		    date, a), (long long)c[i].usage, (long long)c[i].attr,
		    (long long)c[i].unattr);
		sbuf_addc(&tp->text[0], '\0');
	}
	free(c);
	lk = ereallocarray(NULL, v->nmarks + 1, sizeof(*lk));
	n = chart_leak_blocks(v, lk);
	for (i = 0; i < n; i++) {
		sbuf_printf(&tp->text[1], "%s\nleaked %lu MiB since %s",
		    chart_task_label(lk[i], nhosts, 80, label, sizeof(label)),
		    (unsigned long)lk[i]->leaked, chart_clock(lk[i]->end, utc,
		    date, a));
		sbuf_addc(&tp->text[1], '\0');
	}
	n = chart_marks(v, lk);
	for (i = 0; i < n; i++)
		if (ids->drawn[i]) {
			sbuf_printf(&tp->text[2], "%zu. %s\n", i + 1,
			    chart_clock(lk[i]->end, utc, date, a));
			chart_mark_text(lk[i], nhosts, tolerance, label,
			    sizeof(label));
			sbuf_add(&tp->text[2], label, strlen(label) + 1);
		}
	free(lk);
}

/* A line of the list of marks under a usage chart (chart_mark_list). */
static void
mark_item(void *page, size_t num, const char *when, const char *text)
{
	sbuf_printf(page, "<li value=\"%zu\">%s ", num, when);
	html(page, text);
	sbuf_adds(page, "</li>\n");
}

/*
 * The charts of one page, drawn by one gnuplot run (a run costs more to
 * start than a chart to draw): their scripts one after the other, each
 * after "reset session" (nothing of one chart is left to the next; each
 * sets its terminal), and of each its place in the page text, the prefix
 * of its ids, its class and its tooltips.  gnuplot writes an SVG document
 * a plot, in order; drawing_page puts the page together after.
 */
struct pchart {
	size_t at;		/* offset in the page text of its figure */
	char pfx[32];
	const char *cls;
	struct tips tips;	/* owned */
	size_t from, len;	/* its SVG document in svg, once drawn */
};

struct drawing {
	struct sbuf script;
	struct pchart *v;
	size_t n;
	struct sbuf svg;	/* what gnuplot drew */
};

/* Add a chart whose script is in script, its figure at page->len. */
static void
drawing_add(struct drawing *dr, const struct sbuf *page,
    const struct sbuf *script, const char *pfx, const char *cls,
    const struct tips *tp)
{
	struct pchart *pc;

	dr->v = egrow(dr->v, dr->n, sizeof(*dr->v));
	pc = &dr->v[dr->n++];
	pc->at = page->len;
	snprintf(pc->pfx, sizeof(pc->pfx), "%s", pfx);
	pc->cls = cls;
	pc->tips = *tp;
	sbuf_adds(&dr->script, "reset session\n");
	sbuf_add(&dr->script, script->buf, script->len);
}

static void
drawing_release(struct drawing *dr)
{
	size_t i;
	int k;

	for (i = 0; i < dr->n; i++)
		for (k = 0; k < 3; k++)
			sbuf_release(&dr->v[i].tips.text[k]);
	free(dr->v);
	sbuf_release(&dr->script);
	sbuf_release(&dr->svg);
	memset(dr, 0, sizeof(*dr));
}

/*
 * Run gnuplot once on every chart of dr and find each one's SVG document:
 * return 0, or -1 after a message (gnuplot failed, or drew fewer SVG
 * documents than charts).
 */
static int
drawing_run(struct drawing *dr)
{
	size_t i, from = 0;

	if (dr->n == 0)
		return 0;
	if (gnuplot_run(dr->script.buf, dr->script.len, NULL, NULL,
	    &dr->svg) < 0)
		return -1;
	for (i = 0; i < dr->n; i++) {
		const char *end = dr->svg.buf != NULL ? strstr(dr->svg.buf +
		    from, "</svg>") : NULL;

		if (end == NULL) {
			msg("gnuplot drew %zu SVG pictures of %zu charts", i,
			    dr->n);
			return -1;
		}
		dr->v[i].from = from;
		dr->v[i].len = (size_t)(end + 6 - (dr->svg.buf + from));
		if (end[6] == '\n')
			dr->v[i].len++;
		from += dr->v[i].len;
	}
	return 0;
}

/*
 * text[from, to) with the charts of dr drawn (drawing_run) whose place is
 * in it put there, appended to out: return 0, or -1 when gnuplot drew
 * something else than an SVG document (said).
 */
static int
drawing_fill(struct sbuf *out, const struct sbuf *text, size_t from,
    size_t to, const struct drawing *dr)
{
	size_t i;

	for (i = 0; i < dr->n; i++) {
		const struct pchart *pc = &dr->v[i];

		if (pc->at < from || pc->at >= to)
			continue;
		sbuf_add(out, text->buf + from, pc->at - from);
		from = pc->at;
		sbuf_printf(out, "<figure class=\"chart %s\">\n", pc->cls);
		if (svg_inline(out, dr->svg.buf + pc->from, pc->len, pc->pfx,
		    &pc->tips) < 0) {
			msg("gnuplot drew no SVG");
			return -1;
		}
		sbuf_adds(out, "</figure>\n");
	}
	sbuf_add(out, text->buf + from, to - from);
	return 0;
}

/* GPU gi's section, its charts added to dr. */
static void
gpu_section(struct sbuf *page, struct drawing *dr,
    const struct collection *c, size_t gi, int utc, int date,
    size_t maxrows, int nocharts, uint32_t tolerance)
{
	const struct gpuview *v = c->g[gi];
	struct gpuview *one[1];
	struct chart ch;
	struct sbuf script = SBUF_INIT;
	const struct task **rows;
	struct chart_ids ids;
	struct tips tips;
	size_t n, hidden;
	char pfx[32], mb[32];

	memset(&ch, 0, sizeof(ch));
	ch.term = TERM_SVG;
	ch.utc = utc;
	ch.prog = progname;
	ch.align = 1;
	ch.tolerance = tolerance;
	ch.nocolorbox = 1;
	sbuf_printf(page, "<section class=\"gpu\" id=\"gpu-%zu\">\n<h2>", gi);
	if (c->nhosts > 1) {
		html(page, *v->host ? v->host : "-");
		sbuf_adds(page, " ");
	}
	sbuf_printf(page, "GPU %u", v->gpu);
	if (v->total > 0)
		sbuf_printf(page, " <small>(%s)</small>", fmt_mib(v->total,
		    mb));
	sbuf_adds(page, "</h2>\n");
	if (nocharts) {
		sbuf_printf(page, "<p class=\"note nocharts\">No charts: %s."
		    "</p>\n</section>\n", NOCHARTS);
		return;
	}
	if (v->nsamples > 0) {
		one[0] = (struct gpuview *)v;
		ch.width = CHART_W;
		ch.height = 380;
		ch.title = "";
		memset(&ids, 0, sizeof(ids));
		ids.ncols = PAGE_TIPS / c->ng;
		if (ids.ncols < MINTIPS)
			ids.ncols = MINTIPS;
		ch.ids = &ids;
		ids.drawn = ecalloc(v->nmarks + 1, 1);
		chart_usage(&script, &ch, one, 1, c->first, c->last, c->nhosts);
		ch.ids = NULL;
		usage_tips(&tips, &ids, v, c->nhosts, utc, date, tolerance);
		free(ids.drawn);
		ids.drawn = NULL;
		snprintf(pfx, sizeof(pfx), "u%zu_", gi);
		drawing_add(dr, page, &script, pfx, "usage", &tips);
		/* What the chart's numbered markers say. */
		if (v->nmarks > 0) {
			sbuf_adds(page, "<ol class=\"marks\">\n");
			chart_mark_list(v, c->nhosts, tolerance, utc, date,
			    mark_item, page);
			sbuf_adds(page, "</ol>\n");
		}
	} else
		sbuf_adds(page, "<p class=\"note\">No whole-device samples of "
		    "this GPU.</p>\n");
	n = chart_gantt_rows(&c->tasks, 1, v->host, v->gpu, maxrows, &rows,
	    &hidden);
	if (n > 0) {
		sbuf_reset(&script);
		chart_default_size(&ch, 1, n);
		ch.width = CHART_W;
		ch.title = NULL;
		ch.ids = &ids;
		chart_gantt(&script, &ch, rows, n, hidden, c->first, c->last,
		    c->nhosts);
		gantt_tips(&tips, &ids, rows, n, c->nhosts, utc, date, tolerance);
		snprintf(pfx, sizeof(pfx), "g%zu_", gi);
		drawing_add(dr, page, &script, pfx, "gantt", &tips);
	} else if (n == 0)
		sbuf_adds(page, "<p class=\"note\">No tasks on this GPU.</p>\n");
	free(rows);
	sbuf_release(&script);
	sbuf_adds(page, "</section>\n");
}

/* The page's head: title, style, the header line of what was read. */
static void
page_head(struct sbuf *page, const struct collection *c, const char *title,
    int utc, int date)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ], z[64];
	uint64_t samples = 0;
	size_t i;

	sbuf_adds(page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<meta name=\"generator\" content=\"gpumem-report "
	    GPUMEM_VERSION "\">\n<title>");
	html(page, title != NULL ? title : "GPU memory report");
	sbuf_printf(page, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<header>\n<h1>", style);
	html(page, title != NULL ? title : "GPU memory report");
	sbuf_adds(page, "</h1>\n<p class=\"meta\">");
	for (i = 0; i < c->ng; i++)
		samples += c->g[i]->nsamples;
	if (c->have_range) {
		struct sbuf m = SBUF_INIT;

		sbuf_printf(&m, "%s to %s %s", chart_clock(c->first, utc, 1, a),
		    chart_clock(c->last, utc, date, b), chart_zone(c->first,
		    utc, z));
		html(page, m.buf);
		sbuf_release(&m);
		sbuf_adds(page, " &middot; ");
	}
	/* Every GPU read, also those past the charts' cap. */
	sbuf_printf(page, "%s%zu GPU%s", c->uncounted ? "more than " : "",
	    c->ng + c->ng_uncharted, c->ng + c->ng_uncharted == 1 ? "" : "s");
	if (c->ng_uncharted > 0)
		sbuf_printf(page, " (%zu charted)", c->ng);
	sbuf_printf(page, " &middot; %llu samples", (unsigned long long)
	    (samples + c->uncharted));
	if (c->interval != 0)
		sbuf_printf(page, " every %s s", gtime_fmt_secs(c->interval, a));
	sbuf_adds(page, " &middot; from ");
	if (cmd.argc == 0)
		sbuf_adds(page, "standard input");
	for (i = 0; i < (size_t)cmd.argc; i++) {
		if (i > 0)
			sbuf_adds(page, ", ");
		html(page, strcmp(cmd.argv[i], "-") == 0 ? "standard input" :
		    cmd.argv[i]);
	}
	sbuf_adds(page, "</p>\n</header>\n");
}

/* The colour scale of release delays, one legend for every Gantt chart. */
static void
delay_legend(struct sbuf *page)
{
	const char *label, *colour;
	size_t k;

	sbuf_adds(page, "<p class=\"legend\">Gantt charts: memory held after "
	    "a task's end, coloured by how long (the same scale in every "
	    "chart):");
	for (k = 0; (label = chart_delay_stop(k, &colour)) != NULL; k++)
		sbuf_printf(page, " <span class=\"swatch\" style=\"background:"
		    "%s\"></span>%s", colour, label);
	sbuf_adds(page, "</p>\n");
}

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

	return hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
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
static void
overview(struct sbuf *page, const struct collection *c, int nhosts,
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
			html(page, nhosts > 1 || *o->host ? (*o->host ? o->host :
			    "-") : "GPU");
			sbuf_adds(page, "</th>");
		}
		if (*o->host)
			sbuf_printf(&tip, "%s ", o->host);
		sbuf_printf(&tip, "GPU %u: %llu task%s", o->gpu,
		    (unsigned long long)o->ntasks, o->ntasks == 1 ? "" : "s");
		if (o->nleaked > 0)
			sbuf_printf(&tip, ", %llu leaked (%s)",
			    (unsigned long long)o->nleaked, fmt_mib((int64_t)
			    o->leaked, mb));
		if (o->maxdelay > 0)
			sbuf_printf(&tip, ", longest release delay %s",
			    gtime_secs_words(gtime_fmt_secs(o->maxdelay, d), w,
			    sizeof(w)));
		if (o->sec == c->ng)
			sbuf_adds(&tip, "; not charted");
		sbuf_printf(page, "<td class=\"c%s\" style=\"border-left-color:"
		    "%s\" title=\"", tint, o->maxdelay > 0 ?
		    chart_delay_colour(o->maxdelay) : "#ddd");
		html(page, tip.buf);
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

/*
 * A page of many GPUs gets smaller charts, so that it stays small: the
 * usage curves fewer columns (their extremes kept), the Gantt charts
 * fewer rows (the most interesting kept) unless --max-rows says.
 */
static void
page_budget(struct collection *c, struct opts *o)
{
	size_t i, cols;

	if (c->ng == 0)
		return;
	cols = PAGE_BUCKETS / c->ng;
	if (cols < MINBUCKETS)
		cols = MINBUCKETS;
	for (i = 0; i < c->ng; i++)
		if (c->g[i]->ser.b != NULL)
			series_shrink(&c->g[i]->ser, cols);
	if (o->maxrows == 0) {
		o->maxrows = PAGE_ROWS / c->ng;
		if (o->maxrows < MINROWS)
			o->maxrows = MINROWS;
		if (o->maxrows > MAXROWS)
			o->maxrows = MAXROWS;
	}
}

/*
 * The pages of a fleet: when the GPUs charted are more than --page-gpus
 * and the page goes to a named file, their charts go to pages beside it,
 * one a host, STEM-HOST.html (STEM: the file's name less .html; HOST: its
 * letters, digits, '.', '_' and '-', any other byte '_').  A host of more
 * GPUs than that has several, STEM-HOST+2.html and on; a host whose name
 * reads as an earlier one's is STEM-HOST+hK.html, K its place among the
 * hosts ('+' is in no HOST: no name is taken twice).  The first page
 * keeps the overview, whose cells link to them, the numbers and the task
 * table.
 */
struct subpage {
	size_t first, n;	/* its sections: c->g[first .. first + n) */
	char *base;		/* its host's first page's path less .html */
	char *path;		/* beside the first page */
	const char *name;	/* path's last part: the links */
};

/* The subpages of c (per GPUs a page at most) in *out; their number. */
static size_t
subpages(const struct collection *c, size_t per, const char *output,
    struct subpage **out)
{
	struct subpage *v = NULL;
	struct sbuf base = SBUF_INIT;
	size_t i, j, n = 0, len = strlen(output), part = 0, hosts = 0;
	const char *slash, *q;

	if (len > 5 && strcmp(output + len - 5, ".html") == 0)
		len -= 5;
	else if (len > 4 && strcmp(output + len - 4, ".htm") == 0)
		len -= 4;
	for (i = 0; i < c->ng; i++) {
		const char *h = c->g[i]->host;
		int same = n > 0 && strcmp(h, c->g[v[n - 1].first]->host) == 0;

		if (same && v[n - 1].n < per) {
			v[n - 1].n++;
			continue;
		}
		v = egrow(v, n, sizeof(*v));
		v[n].first = i;
		v[n].n = 1;
		if (same) {
			v[n].base = estrdup(v[n - 1].base);
			part++;
		} else {
			sbuf_reset(&base);
			sbuf_add(&base, output, len);
			sbuf_addc(&base, '-');
			for (q = *h ? h : "gpus"; *q; q++)
				sbuf_addc(&base, (*q >= 'a' && *q <= 'z') ||
				    (*q >= 'A' && *q <= 'Z') || (*q >= '0' &&
				    *q <= '9') || *q == '.' || *q == '_' ||
				    *q == '-' ? *q : '_');
			hosts++;
			for (j = 0; j < n; j++)
				if (strcmp(v[j].base, base.buf) == 0)
					break;
			if (j < n)
				sbuf_printf(&base, "+h%zu", hosts);
			v[n].base = estrdup(base.buf);
			part = 1;
		}
		sbuf_reset(&base);
		sbuf_adds(&base, v[n].base);
		if (part > 1)
			sbuf_printf(&base, "+%zu", part);
		sbuf_adds(&base, ".html");
		v[n].path = estrdup(base.buf);
		slash = strrchr(v[n].path, '/');
		v[n].name = slash != NULL ? slash + 1 : v[n].path;
		n++;
	}
	sbuf_release(&base);
	*out = v;
	return n;
}

/*
 * Sections [first, first + n) with the legend before them appended to
 * text, their charts to dr.
 */
static void
sections(struct sbuf *text, struct drawing *dr, const struct collection *c,
    size_t first, size_t n, const struct opts *o, int date,
    uint32_t tolerance)
{
	size_t i;

	if (!o->nocharts && n > 0)
		delay_legend(text);
	for (i = first; i < first + n; i++)
		gpu_section(text, dr, c, i, o->utc, date, o->maxrows,
		    o->nocharts, tolerance);
}

/* The head and the sections of subpage sp, appended to text. */
static void
subpage_text(struct sbuf *text, struct drawing *dr,
    const struct subpage *sp, const struct collection *c,
    const struct opts *o, int date, uint32_t tolerance, const char *index)
{
	struct sbuf t = SBUF_INIT;
	const char *host = c->g[sp->first]->host;

	sbuf_printf(&t, "%s: %s", o->title != NULL ? o->title :
	    "GPU memory report", *host ? host : "GPUs");
	page_head(text, c, t.buf, o->utc, date);
	sbuf_release(&t);
	sbuf_adds(text, "<p class=\"meta\"><a href=\"");
	esc_url(text, index);
	sbuf_printf(text, "#index\">&larr; every GPU, the numbers and the "
	    "task table</a> &middot; this page: %zu GPU%s of ", sp->n,
	    sp->n == 1 ? "" : "s");
	html(text, *host ? host : "the input");
	sbuf_adds(text, "</p>\n");
	sections(text, dr, c, sp->first, sp->n, o, date, tolerance);
	sbuf_printf(text, "<script>\n%s</script>\n</body>\n</html>\n",
	    zoom_js);
}

/* Write text[from, to), dr's charts in it, to path; 0 or -1 (said why). */
static int
subpage_write(const char *path, const struct sbuf *text, size_t from,
    size_t to, const struct drawing *dr)
{
	struct sbuf page = SBUF_INIT;
	struct outfile of;
	int rc = drawing_fill(&page, text, from, to, dr);

	if (rc == 0) {
		if (outfile_open(&of, path) < 0)
			rc = -1;
		else if (ewrite_file(of.f, page.buf, page.len) < 0) {
			msg("%s: write error: %s", path, strerror(errno));
			outfile_abort(&of);
			rc = -1;
		} else if (outfile_commit(&of) < 0)
			rc = -1;
	}
	sbuf_release(&page);
	return rc;
}

/*
 * The whole page in page, its charts' pages beside output when it splits
 * (see struct subpage); return 0, or -1 when a chart or a page failed
 * (said why).  All charts are drawn by one gnuplot run (see struct
 * drawing), the pages put together after.
 */
static int
page_write(struct sbuf *page, const struct collection *c,
    const struct opts *o, uint32_t tolerance, const char *output)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ];
	struct sbuf text = SBUF_INIT;
	struct drawing dr;
	struct subpage *sp = NULL;
	char **href = NULL;
	const char *slash;
	int date = 0, rc;
	size_t i, j, nsp = 0, *at, start;

	/*
	 * Times carry their date when the input runs over more than one
	 * day as the page shows them (UTC with --utc, else local): a clock
	 * alone would be ambiguous.
	 */
	if (c->have_range)
		date = strncmp(chart_clock(c->first, o->utc, 1, a),
		    chart_clock(c->last, o->utc, 1, b), 10) != 0;
	if (output != NULL && !o->nocharts && o->page_gpus > 0 &&
	    c->ng > o->page_gpus)
		nsp = subpages(c, o->page_gpus, output, &sp);
	for (i = 0; i < nsp; i++)
		cmd_not_input(&cmd, "a page of charts", sp[i].path);
	memset(&dr, 0, sizeof(dr));
	at = ecalloc(nsp + 1, sizeof(*at));
	if (nsp > 0) {
		href = ecalloc(c->ng, sizeof(*href));
		for (i = 0; i < nsp; i++)
			for (j = 0; j < sp[i].n; j++)
				href[sp[i].first + j] = (char *)sp[i].name;
	}
	slash = output != NULL ? strrchr(output, '/') : NULL;
	for (i = 0; i < nsp; i++) {
		at[i] = text.len;
		subpage_text(&text, &dr, &sp[i], c, o, date, tolerance,
		    slash != NULL ? slash + 1 : output);
	}
	start = text.len;
	page_head(&text, c, o->title, o->utc, date);
	/* A cut of the page is said on it, whatever -q says to stderr. */
	if (c->ng_uncharted > 0)
		sbuf_printf(&text, "<p class=\"warn\" id=\"cut\">This page "
		    "charts the first %zu GPUs seen of %s%zu: the %llu "
		    "samples of the others are left out of the charts; their "
		    "tasks are counted in the numbers and listed in the task "
		    "table.</p>\n", c->ng, c->uncounted ? "more than " : "",
		    c->ng + c->ng_uncharted, (unsigned long long)c->uncharted);
	if (o->nocharts)
		sbuf_printf(&text, "<p class=\"warn\">%s: the charts need it, "
		    "this page has none.</p>\n", GNUPLOT_MISSING);
	overview(&text, c, c->nhosts, href);
	headline(&text, c, o->utc, date, c->nhosts, tolerance);
	if (nsp > 0) {
		sbuf_printf(&text, "<p class=\"note\" id=\"pages\">The charts "
		    "of these %zu GPUs are on %zu pages beside this one (a "
		    "cell above opens its GPU):", c->ng, nsp);
		for (i = 0; i < nsp; i++) {
			sbuf_adds(&text, i > 0 ? ", <a href=\"" : " <a href=\"");
			esc_url(&text, sp[i].name);
			sbuf_adds(&text, "\">");
			html(&text, *c->g[sp[i].first]->host ?
			    c->g[sp[i].first]->host : "GPUs");
			if (i > 0 && strcmp(sp[i].base, sp[i - 1].base) == 0)
				sbuf_printf(&text, " (from GPU %u)",
				    c->g[sp[i].first]->gpu);
			sbuf_adds(&text, "</a>");
		}
		sbuf_adds(&text, ".</p>\n");
	}
	sections(&text, &dr, c, 0, nsp > 0 ? 0 : c->ng, o, date, tolerance);
	at[nsp] = text.len;
	rc = drawing_run(&dr);
	for (i = 0; rc == 0 && i < nsp; i++)
		rc = subpage_write(sp[i].path, &text, at[i], i + 1 < nsp ?
		    at[i + 1] : start, &dr);
	if (rc == 0)
		rc = drawing_fill(page, &text, start, text.len, &dr);
	if (c->ng == 0)
		sbuf_adds(page, "<p class=\"note\">The input holds no "
		    "whole-device samples: there is no usage to chart.</p>\n");
	sbuf_adds(page, "<h2 id=\"tasklist\">Tasks</h2>\n<p class=\"note\">"
	    "Click a column to sort by it.</p>\n");
	task_table(page, c, o->utc, date, tolerance);
	sbuf_printf(page, "<footer>Written by gpumem-report %s.  "
	    "<b>usage</b> = total &minus; free; <b>attributed</b>: held by "
	    "live processes; <b>unattributed</b>: no live process owns it.  "
	    "A task is one life of a process on a GPU; its memory is "
	    "<b>released</b> when unattributed memory is back within the "
	    "tolerance (%u MiB) of its level before the end, and "
	    "<b>leaked</b> when it never is.</footer>\n"
	    "<script>\n%s%s</script>\n</body>\n</html>\n", GPUMEM_VERSION,
	    tolerance, table_js, zoom_js);
	drawing_release(&dr);
	for (i = 0; i < nsp; i++) {
		free(sp[i].path);
		free(sp[i].base);
	}
	free(sp);
	free(href);
	free(at);
	sbuf_release(&text);
	return rc;
}

/* The page of the inputs (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct config cfg;
	struct collect_opts co;
	struct collection col;
	struct sbuf page = SBUF_INIT, note = SBUF_INIT;
	int status = EXIT_TROUBLE;
	FILE *f;

	c->how = CMD_DISCARD;
	/* A page of HTML is no use on a terminal (as plot's PNG). */
	if (c->output == NULL && isatty(STDOUT_FILENO))
		die("standard output is a terminal: not writing an HTML page "
		    "there (use -o FILE)");
	/*
	 * Without gnuplot the numbers, lists and table are still worth a
	 * page: said once here and at the top of the page.
	 */
	if (!gnuplot_available()) {
		o->nocharts = 1;
		warnmsg("%s: the report has no charts", GNUPLOT_MISSING);
	}
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_TASKTAB | COLLECT_USAGE;
	co.needs = "a record stream or a log, or task tables and usage "
	    "curves";
	co.width = CHART_W;
	co.marks = MARKS;
	co.keep_tasks = 1;
	/* Every GPU of a fleet is charted when its charts can go beside. */
	if (c->output != NULL && strcmp(c->output, "-") != 0 &&
	    !o->nocharts)
		co.maxgpus = COLLECT_MAXPAGES;
	status = chartopt_collect(&col, &co, c, &o->cfg, &cfg);
	if (col.kind == 0)
		goto out;
	page_budget(&col, o);
	if (page_write(&page, &col, o, cfg.tolerance, c->output != NULL &&
	    strcmp(c->output, "-") != 0 ? c->output : NULL) < 0) {
		status = EXIT_TROUBLE;
		goto out;
	}
	if ((f = cmd_output(c)) == NULL) {
		status = EXIT_TROUBLE;
		goto out;
	}
	c->how = ewrite_file(f, page.buf, page.len) < 0 ? CMD_WRITE_ERROR :
	    CMD_COMMIT;
	/* Said by the skeleton once the file is in place (cmd.h). */
	if (c->output != NULL) {
		sbuf_printf(&note, "%s: %zu GPU%s, %llu tasks, %llu leaked",
		    c->output, col.ng, col.ng == 1 ? "" : "s",
		    (unsigned long long)col.ntasks,
		    (unsigned long long)col.nleaked);
		c->committed_note = note.buf;	/* the skeleton frees it */
	}
out:
	sbuf_release(&page);
	collection_release(&col);
	config_release(&cfg);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o = {CFGOPTS_INIT, NULL, 0, PAGE_GPUS, 0, 0};

	cmd.ctx = &o;
	cmd.sets[0] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
