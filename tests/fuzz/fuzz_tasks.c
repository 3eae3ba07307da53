/* SPDX-License-Identifier: ISC */
/*
 * fuzz_tasks.c: the analysis, from a record stream to verdicts: the
 * engine (analyze/engine/eng*.c) finds the tasks, the task table is written in
 * every format (analyze/engine/tasktab.c, tab*.c), and gpumem check's gates
 * judge the run against its own table read back as the baseline
 * (reports/ci/: gates, baseline, junit, ciout, cijson, cimetrics), as
 * `gpumem tasks` and `gpumem check` do.
 *
 * Invariants: the CSV task table gpumem writes reads back, strictly, with
 * as many tasks, and writes again the same.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ciout.h"
#include "config.h"
#include "engine.h"
#include "fuzz.h"
#include "gates.h"
#include "junit.h"
#include "stream.h"
#include "tasktab.h"

struct ctx {
	struct run *run;
	struct tasktab_w *w[4];
	uint64_t ntasks;
};

static void
on_task(void *p, const struct task *t)
{
	struct ctx *c = p;
	int i;

	run_task(c->run, t);
	for (i = 0; i < 4; i++)
		if (tasktab_put(c->w[i], t) < 0)
			fuzz_fail("tasktab_put: %s", strerror(errno));
	c->ntasks++;
}

static void
on_sample(void *p, const struct sample *s)
{
	struct ctx *c = p;

	run_sample(c->run, s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct config cfg;
	struct engine_cb cb = {on_sample, on_task, NULL};
	struct engine *e;
	struct readopts opt;
	struct stream *st;
	const struct rec *r;
	struct run now, base;
	struct limits lim;
	struct verdicts vs;
	struct tasklist l;
	struct ctx c;
	char *path, *csv = NULL, *csv2 = NULL;
	size_t csvlen = 0, csv2len = 0;
	FILE *f;
	int i;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		fuzz_fail("/dev/null: %s", strerror(errno));
	config_init(&cfg);
	run_init(&now);
	run_init(&base);
	memset(&c, 0, sizeof(c));
	c.run = &now;
	cb.ctx = &c;
	if ((f = open_memstream(&csv, &csvlen)) == NULL)
		fuzz_fail("open_memstream: %s", strerror(errno));
	c.w[0] = tasktab_open(f, TT_CSV, 1);
	c.w[1] = tasktab_open(devnull, TT_TEXT, 1);
	c.w[2] = tasktab_open(devnull, TT_MD, 0);
	c.w[3] = tasktab_open(devnull, TT_JSON, 1);
	e = engine_new(&cfg, &cb);

	readopts_init(&opt);
	opt.format = "stream";
	path = (char *)fuzz_file(data, size);
	st = stream_open(&path, 1, &opt);
	while ((r = stream_next(st)) != NULL)
		engine_put(e, r);
	engine_end(e);
	stream_close(st);
	engine_warnings(e);
	for (i = 0; i < 4; i++)
		if (tasktab_close(c.w[i]) < 0)
			fuzz_fail("tasktab_close: %s", strerror(errno));
	if (fclose(f) != 0)
		fuzz_fail("fclose: %s", strerror(errno));
	run_done(&now);

	/* The table read back, strictly, as gpumem check --baseline does. */
	path = (char *)fuzz_file((const uint8_t *)csv, csvlen);
	if (tasktab_read(path, &l, 1) < 0)
		fuzz_fail("the task table written does not read back:\n%s",
		    csv);
	if (l.n != c.ntasks)
		fuzz_fail("%llu tasks written, %zu read back:\n%s",
		    (unsigned long long)c.ntasks, l.n, csv);
	fuzz_tasks_csv(&l, &csv2, &csv2len);
	if (csv2len != csvlen || memcmp(csv, csv2, csvlen) != 0)
		fuzz_fail("the task table does not write back the same:\n"
		    "--- written\n%s--- read back and written\n%s", csv, csv2);
	for (i = 0; i < (int)l.n; i++)
		run_task(&base, &l.t[i]);
	tasktab_list_release(&l);
	base.table = 1;
	run_done(&base);

	memset(&lim, 0, sizeof(lim));
	lim.cfg = &cfg;
	lim.until = UINT64_MAX;
	lim.has_delay = 1;
	lim.delay = 5000000000ULL;
	memset(&vs, 0, sizeof(vs));
	vs.now = &now;
	vs.base = &base;
	vs.basepath = "baseline.csv";
	vs.lim = &lim;
	gates_eval(&vs);
	if (junit_write(devnull, &vs) < 0 || ciout_markdown(devnull, &vs) < 0 ||
	    ciout_json(devnull, &vs) < 0)
		fuzz_fail("writing the reports: %s", strerror(errno));
	gates_verdicts_release(&vs);
	run_release(&now);
	run_release(&base);
	engine_free(e);
	config_release(&cfg);
	free(csv);
	free(csv2);
	return 0;
}
