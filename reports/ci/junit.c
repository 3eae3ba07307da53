/* SPDX-License-Identifier: ISC */
/* junit.c: gpumem check's verdicts as JUnit XML (junit.h). */
#include <string.h>

#include "ciout.h"
#include "esc.h"
#include "gtime.h"
#include "junit.h"

static void
attr(struct obuf *o, const char *name, const char *value)
{
	sbuf_printf(&o->sb, " %s=\"", name);
	esc_xml(&o->sb, value, 1);
	sbuf_addc(&o->sb, '"');
}

static void
attr_zu(struct obuf *o, const char *name, size_t v)
{
	sbuf_printf(&o->sb, " %s=\"%zu\"", name, v);
}

/* "2026-01-01T00:00:00": the form the Ant and Jenkins schemas agree on. */
static void
attr_time(struct obuf *o, const char *name, uint64_t t)
{
	char buf[GTIME_BUFSZ];

	gtime_fmt(t, 1, buf);
	buf[19] = '\0';
	attr(o, name, buf);
}

static void
detail_task(struct sbuf *sb, const char *who, const struct task *t)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ], d[32];
	static const char *const status[] = {"released", "leaked",
	    "running"};

	sbuf_printf(sb, "%stask: %s\n", who, t->name);
	if (!t->declared)
		sbuf_printf(sb, "%sprocess_id: %u\n", who, t->pid);
	sbuf_printf(sb, "%sstart: %s\n%send: %s\n", who, gtime_fmt(t->start, 1,
	    a), who, gtime_fmt(t->end, 1, b));
	sbuf_printf(sb, "%speak_mib: %u\n%sheld_mib: %u\n", who, t->peak, who,
	    t->held);
	if (t->status == TASK_RELEASED)
		sbuf_printf(sb, "%srelease_delay_s: %s\n", who,
		    gates_delay_str(t, d));
	if (t->status == TASK_LEAKED) {
		if (t->has_leaked)
			sbuf_printf(sb, "%sleaked_mib: %u\n", who, t->leaked);
		else
			sbuf_printf(sb, "%sleaked_mib: unknown\n", who);
	}
	sbuf_printf(sb, "%sstatus: %s\n", who, status[t->status]);
}

/* The numbers behind a verdict, as the text of its failure. */
static void
details(struct sbuf *sb, const struct verdict *v)
{
	if (v->host[0] != '\0')
		sbuf_printf(sb, "host: %s\n", v->host);
	sbuf_printf(sb, "gpu: %u\n", v->gpu);
	if (v->t != NULL)
		detail_task(sb, "", v->t);
	if (v->base != NULL)
		detail_task(sb, "baseline ", v->base);
	if (v->gi != NULL && v->gi->samples > 0) {
		char a[GTIME_BUFSZ], b[GTIME_BUFSZ];

		sbuf_printf(sb, "first_sample: %s\nunattributed_mib_at_first: "
		    "%lld\nlast_sample: %s\nusage_mib_at_end: %u\n"
		    "unattributed_mib_at_end: %lld\n",
		    gtime_fmt(v->gi->first_ts, 1, a),
		    (long long)v->gi->first_unattr,
		    gtime_fmt(v->gi->last_ts, 1, b), v->gi->last_usage,
		    (long long)v->gi->last_unattr);
	}
	if (v->value[0] != '\0')
		sbuf_printf(sb, "value: %s %s\n", v->value, v->unit);
	if (v->limit[0] != '\0')
		sbuf_printf(sb, "limit: %s %s\n", v->limit, v->unit);
	if (v->src != NULL)
		sbuf_printf(sb, "rule: %s (%s)\n", gate_name(v->gate), v->src);
}

/*
 * The name of a check: "python3 #2: max_release_delay_s", the second
 * python3 on the GPU.  Not the pid: CI systems follow a test from run to
 * run by its name, and pids change every run (the messages have them).
 */
static void
test_name(struct sbuf *sb, const struct verdict *v)
{
	const struct task *t = v->t != NULL ? v->t : v->base;
	char buf[32];

	/* A task without a name is told apart by its pid alone. */
	if (t != NULL && t->name[0] == '\0')
		sbuf_printf(sb, "%s%s: ", gates_task_name(t, buf, sizeof(buf)),
		    v->t == NULL ? " (baseline)" : "");
	else if (t != NULL)
		sbuf_printf(sb, "%s #%u%s: ", t->name, v->occ, v->t == NULL ?
		    " (baseline)" : "");
	sbuf_adds(sb, gate_name(v->gate));
}

static void
testcase(struct obuf *o, const struct verdict *v)
{
	struct sbuf sb = SBUF_INIT;
	char g[256];

	sbuf_adds(&o->sb, "    <testcase");
	if (v->gate == GATE_INPUT) {
		attr(o, "classname", "input");
		attr(o, "name", "read the inputs");
	} else {
		attr(o, "classname", gates_gpu_label(v->host, v->gpu, g,
		    sizeof(g)));
		test_name(&sb, v);
		attr(o, "name", sb.buf);
	}
	sbuf_adds(&o->sb, " time=\"0\">\n");
	/* The message: the task with its pid, and the finding. */
	sbuf_reset(&sb);
	ciout_what(&sb, v);
	if (sb.len > 0)
		sbuf_adds(&sb, ": ");
	ciout_finding(&sb, v);
	switch (v->res) {
	case RES_FAIL:
	case RES_ERROR:
		sbuf_printf(&o->sb, "      <%s", v->res == RES_FAIL ? "failure" :
		    "error");
		attr(o, "message", sb.buf);
		attr(o, "type", gate_name(v->gate));
		sbuf_adds(&o->sb, ">");
		sbuf_reset(&sb);
		if (v->gate != GATE_INPUT)
			details(&sb, v);
		esc_xml(&o->sb, sb.buf, 0);
		sbuf_printf(&o->sb, "</%s>\n", v->res == RES_FAIL ? "failure" :
		    "error");
		break;
	case RES_SKIP:
		sbuf_adds(&o->sb, "      <skipped");
		attr(o, "message", sb.buf);
		sbuf_adds(&o->sb, "/>\n");
		break;
	case RES_PASS:
		sbuf_adds(&o->sb, "      <system-out>");
		esc_xml(&o->sb, sb.buf, 0);
		sbuf_adds(&o->sb, "</system-out>\n");
		break;
	}
	sbuf_adds(&o->sb, "    </testcase>\n");
	sbuf_release(&sb);
}

static int
same_gpu(const struct verdict *a, const struct verdict *b)
{
	return a->gate != GATE_INPUT && b->gate != GATE_INPUT &&
	    a->gpu == b->gpu && strcmp(a->host, b->host) == 0;
}

/*
 * The testsuite of verdicts v[0..n), all of one GPU.  Its timestamp: the
 * GPU's first device sample, else the start of its first task.
 */
static void
testsuite(struct obuf *o, const struct verdicts *vs, const struct verdict *v,
    size_t n)
{
	size_t cnt[4] = {0, 0, 0, 0}, i;
	uint64_t t0 = 0;
	int have_t0 = 0;
	char g[256];

	for (i = 0; i < vs->now->ngpu; i++) {
		const struct gpuinfo *gi = &vs->now->gpu[i];

		if (gi->samples > 0 && gi->gpu == v[0].gpu &&
		    strcmp(gi->host, v[0].host) == 0) {
			t0 = gi->first_ts;
			have_t0 = 1;
		}
	}
	for (i = 0; i < n; i++) {
		cnt[v[i].res]++;
		if (v[i].t != NULL && (!have_t0 || v[i].t->start < t0)) {
			t0 = v[i].t->start;
			have_t0 = 1;
		}
	}
	sbuf_adds(&o->sb, "  <testsuite");
	attr(o, "name", v[0].gate == GATE_INPUT ? "input" :
	    gates_gpu_label(v[0].host, v[0].gpu, g, sizeof(g)));
	attr_zu(o, "tests", n);
	attr_zu(o, "failures", cnt[RES_FAIL]);
	attr_zu(o, "errors", cnt[RES_ERROR]);
	attr_zu(o, "skipped", cnt[RES_SKIP]);
	sbuf_adds(&o->sb, " time=\"0\"");
	if (have_t0)
		attr_time(o, "timestamp", t0);
	if (v[0].host[0] != '\0')
		attr(o, "hostname", v[0].host);
	sbuf_adds(&o->sb, ">\n");
	for (i = 0; i < n; i++) {
		testcase(o, &v[i]);
		esc_obuf_flush(o, 0);
	}
	sbuf_adds(&o->sb, "  </testsuite>\n");
}

int
junit_write(FILE *f, const struct verdicts *vs)
{
	struct obuf o = {f, SBUF_INIT, 0};
	size_t i, j;

	sbuf_adds(&o.sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"gpumem check\"");
	attr_zu(&o, "tests", vs->nv);
	attr_zu(&o, "failures", vs->count[RES_FAIL]);
	attr_zu(&o, "errors", vs->count[RES_ERROR]);
	sbuf_adds(&o.sb, " time=\"0\">\n");
	for (i = 0; i < vs->nv; i = j) {
		for (j = i + 1; j < vs->nv && same_gpu(&vs->v[i], &vs->v[j]);
		    j++)
			;
		testsuite(&o, vs, &vs->v[i], j - i);
	}
	sbuf_adds(&o.sb, "</testsuites>\n");
	return esc_obuf_end(&o);
}
