/* SPDX-License-Identifier: ISC */
/*
 * fuzz_charts.c: what gpumem plot, gantt and report draw: an input read
 * as they read it (a record stream through the engine, a usage curve or
 * a task table: reports/chart/collect.c), reduced to curves (series.c), then
 * the usage chart's and the Gantt chart's gnuplot scripts (usechart.c,
 * ganttchart.c) and the text Gantt (textgantt.c).  No gnuplot runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "collect.h"
#include "config.h"
#include "fuzz.h"
#include "textgantt.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct collect_opts co;
	struct collection c;
	struct readopts opt;
	struct config cfg;
	struct chart ch;
	struct sbuf sb = SBUF_INIT;
	const struct task **rows = NULL;
	size_t n, hidden = 0;
	char *path;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		fuzz_fail("/dev/null: %s", strerror(errno));
	readopts_init(&opt);
	config_init(&cfg);
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_USAGE | COLLECT_TASKTAB;
	co.needs = "anything";
	co.width = 120;
	co.marks = 12;
	co.keep_tasks = 1;
	co.ro = &opt;
	co.cfg = &cfg;
	path = (char *)fuzz_file(data, size);
	collect_read(&c, &path, 1, &co);
	if (c.kind != 0) {
		memset(&ch, 0, sizeof(ch));
		ch.term = TERM_SVG;
		ch.utc = 1;
		ch.prog = "fuzz";
		chart_default_size(&ch, 0, c.ng);
		chart_usage(&sb, &ch, c.g, c.ng, c.first, c.last, c.nhosts);
		n = chart_gantt_rows(&c.tasks, 0, NULL, 0, 50, &rows, &hidden);
		chart_default_size(&ch, 1, n);
		chart_gantt(&sb, &ch, rows, n, hidden, c.first, c.last,
		    c.nhosts);
		if (textgantt_write(devnull, rows, n, hidden, c.first, c.last,
		    80, 1, c.nhosts, ch.tolerance) < 0)
			fuzz_fail("textgantt_write: %s", strerror(errno));
		free(rows);
	}
	fuzz_sink = sb.len;
	sbuf_release(&sb);
	collection_release(&c);
	config_release(&cfg);
	return 0;
}
