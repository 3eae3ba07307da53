/* SPDX-License-Identifier: ISC */
/*
 * usage.c: gpumem-usage, the record stream in, the usage curve out: per
 * whole-device sample, memory in use, the part live processes hold
 * (attributed) and the part no live process owns (unattributed), or with
 * --every, the same resampled into buckets with min, mean and max.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cfgopt.h"
#include "engine.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "json.h"
#include "readopt.h"
#include "stream.h"
#include "usagecsv.h"
#include "util.h"

static const char *const curve[3] = {"usage", "attributed", "unattributed"};

enum {
	OPT_EVERY = OPT_CFG_LAST,
	OPT_ISO
};

static const struct cmd_opt opts[] = {
	{'t', "type", "FMT", "csv (default) or json (NDJSON: one object a "
	    "line)"},
	{OPT_EVERY, "every", "DUR", "buckets of DUR (1m, 10s) with min, mean "
	    "and max"},
	{OPT_CONFIG, "config", "FILE", "settings (YAML): GPU totals where logs "
	    "lack them"},
	{OPT_ISO, "iso-times", NULL, "csv: a last column timestamp_time, "
	    "ISO 8601 in UTC"},
	{0, NULL, NULL, NULL}
};

/* One GPU's open bucket. */
struct bucket {
	char *host;
	uint32_t gpu;
	uint64_t n;
	uint32_t total;
	int has_total;
	int64_t min[3], max[3];
	double sum[3];
};

struct ctx {
	FILE *f;
	int failed;
	uint64_t every;
	uint64_t cur;		/* the open bucket's number */
	int open;
	struct hmap buckets;	/* "host\0gpu" -> struct bucket */
	struct sbuf line, key;
	int header_done;
	int json, iso;		/* -t json, --iso-times */
};

/*
 * The header goes out with the first row (or at a good end with none):
 * a run that read nothing and failed writes nothing at all.
 */
static void
header(struct ctx *c)
{
	struct sbuf h = SBUF_INIT;

	c->header_done = 1;
	if (c->json)
		json_stream_head(&h, c->every ? "usage-buckets" : "usage");
	else
		sbuf_printf(&h, "%s%s\n", c->every ? EVERY_HEADER :
		    USAGE_HEADER, c->iso ? USAGE_ISO_COLUMN : "");
	if (!c->failed && outfile_ewrite_file(c->f, h.buf, h.len) < 0)
		c->failed = 1;
	sbuf_release(&h);
}

static void
put(struct ctx *c, struct sbuf *l)
{
	if (!c->header_done)
		header(c);
	if (!c->failed && outfile_ewrite_file(c->f, l->buf, l->len) < 0)
		c->failed = 1;
}

static void
host_field(struct sbuf *l, const char *host)
{
	char *buf = emalloc(2 * strlen(host) + 3);
	size_t n = csv_field(buf, host);

	sbuf_add(l, buf, n);
	free(buf);
}

/* --iso-times: ",2026-01-01T00:00:05.000Z" before the line's end. */
static void
iso_field(struct sbuf *l, uint64_t ts)
{
	char buf[GTIME_BUFSZ];

	l->len--;
	sbuf_printf(l, ",%s\n", gtime_fmt(ts, 1, buf));
}

/* A bucket as one JSON line. */
static void
json_bucket(struct ctx *c, const struct bucket *b)
{
	size_t k;

	sbuf_reset(&c->line);
	json_row(&c->line, c->cur * c->every, b->host, b->gpu);
	sbuf_printf(&c->line, ", \"samples\": %llu",
	    (unsigned long long)b->n);
	json_count(&c->line, "memory_total_mib", b->has_total, b->total);
	for (k = 0; k < 3; k++)
		sbuf_printf(&c->line, ", \"%s_min_mib\": %lld, "
		    "\"%s_mean_mib\": %.1f, \"%s_max_mib\": %lld", curve[k],
		    (long long)b->min[k], curve[k], b->sum[k] / (double)b->n,
		    curve[k], (long long)b->max[k]);
	sbuf_adds(&c->line, "}\n");
}

/* A sample as one JSON line. */
static void
json_sample(struct ctx *c, const struct sample *s, uint64_t unattr)
{
	sbuf_reset(&c->line);
	json_row(&c->line, s->ts, s->host, s->gpu);
	json_count(&c->line, "memory_total_mib", s->has_total, s->total);
	json_count(&c->line, "memory_free_mib", s->has_free, s->free);
	json_count(&c->line, "usage_mib", 1, s->usage);
	json_count(&c->line, "attributed_mib", 1, s->attributed);
	json_count(&c->line, "unattributed_mib", 1, unattr);
	sbuf_adds(&c->line, "}\n");
}

static int
by_key(const void *a, const void *b)
{
	const struct bucket *x = *(struct bucket *const *)a;
	const struct bucket *y = *(struct bucket *const *)b;
	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

/* Write every open bucket (in host, GPU order) and start afresh. */
static void
close_buckets(struct ctx *c)
{
	struct bucket **v = NULL;
	struct hent *h;
	size_t it = 0, n = 0, i, k;

	while ((h = hmap_next(&c->buckets, &it)) != NULL)
		if (((struct bucket *)h->val)->n > 0) {
			v = egrow(v, n, sizeof(*v));
			v[n++] = h->val;
		}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_key);
	for (i = 0; i < n; i++) {
		struct bucket *b = v[i];

		if (c->json) {
			json_bucket(c, b);
			put(c, &c->line);
			b->n = 0;
			continue;
		}
		sbuf_reset(&c->line);
		sbuf_printf(&c->line, "%llu,",
		    (unsigned long long)(c->cur * c->every));
		host_field(&c->line, b->host);
		sbuf_printf(&c->line, ",%u,%llu,", b->gpu,
		    (unsigned long long)b->n);
		if (b->has_total)
			sbuf_printf(&c->line, "%u", b->total);
		for (k = 0; k < 3; k++)
			sbuf_printf(&c->line, ",%lld,%.1f,%lld",
			    (long long)b->min[k], b->sum[k] / (double)b->n,
			    (long long)b->max[k]);
		sbuf_addc(&c->line, '\n');
		if (c->iso)
			iso_field(&c->line, c->cur * c->every);
		put(c, &c->line);
		b->n = 0;
	}
	free(v);
}

static void
on_sample(void *p, const struct sample *s)
{
	struct ctx *c = p;
	int64_t unattr = s->unattributed < 0 ? 0 : s->unattributed;

	if (c->every == 0 && c->json) {
		json_sample(c, s, (uint64_t)unattr);
		put(c, &c->line);
		return;
	}
	if (c->every == 0) {
		/* One row per sample: formatted by hand, this is the hot path. */
		char *w;

		sbuf_reset(&c->line);
		sbuf_grow(&c->line, 2 * strlen(s->host) + 128);
		w = c->line.buf;
		w += num_fmt_u64(w, s->ts);
		*w++ = ',';
		w += csv_field(w, s->host);
		*w++ = ',';
		w += num_fmt_u64(w, s->gpu);
		*w++ = ',';
		if (s->has_total)
			w += num_fmt_u64(w, s->total);
		*w++ = ',';
		if (s->has_free)
			w += num_fmt_u64(w, s->free);
		*w++ = ',';
		w += num_fmt_u64(w, s->usage);
		*w++ = ',';
		w += num_fmt_u64(w, s->attributed);
		*w++ = ',';
		w += num_fmt_u64(w, (uint64_t)unattr);
		*w++ = '\n';
		c->line.len = (size_t)(w - c->line.buf);
		if (c->iso)
			iso_field(&c->line, s->ts);
		put(c, &c->line);
		return;
	}
	{
		uint64_t b = s->ts / c->every;
		struct bucket *bk;
		int64_t v[3];
		void **slot;
		size_t k;

		if (c->open && b != c->cur)
			close_buckets(c);
		c->cur = b;
		c->open = 1;
		gpu_key(&c->key, s->host, s->gpu);
		slot = hmap_put(&c->buckets, c->key.buf, c->key.len, NULL);
		if (*slot == NULL) {
			bk = ecalloc(1, sizeof(*bk));
			bk->host = estrdup(s->host);
			bk->gpu = s->gpu;
			*slot = bk;
		}
		bk = *slot;
		v[0] = s->usage;
		v[1] = s->attributed;
		v[2] = unattr;
		for (k = 0; k < 3; k++) {
			if (bk->n == 0 || v[k] < bk->min[k])
				bk->min[k] = v[k];
			if (bk->n == 0 || v[k] > bk->max[k])
				bk->max[k] = v[k];
			if (bk->n == 0)
				bk->sum[k] = 0;
			bk->sum[k] += (double)v[k];
		}
		if (s->has_total) {
			bk->total = s->total;
			bk->has_total = 1;
		}
		bk->n++;
	}
}

static void
bucket_free(void *p)
{
	struct bucket *b = p;

	free(b->host);
	free(b);
}

/* What the options ask for: --config; --every goes to the context. */
struct opts {
	struct cfgopts cfg;
	struct ctx *c;
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case OPT_EVERY:
		if (gtime_duration(arg, &o->c->every) < 0 || o->c->every == 0)
			die("--every: '%s': expected a duration above 0 (10s, "
			    "1m, 1h)", arg);
		break;
	case 't':
		if (strcmp(arg, "csv") != 0 && strcmp(arg, "json") != 0)
			die("--type: '%s': expected csv or json", arg);
		o->c->json = strcmp(arg, "json") == 0;
		break;
	case OPT_ISO:
		o->c->iso = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

static int run(struct cmd *skel);

static struct cmd cmd = {
	.synopsis = "[-qv] [-t csv|json] [--every DUR] [--iso-times] "
	    "[--config FILE]\n[-o FILE] [read options] [FILE ...]",
	.about = "Write the usage curve of a record stream (or of anything "
	    "gpumem read reads):\nper whole-device sample, usage = total - "
	    "free, the memory live processes\nhold (attributed) and the "
	    "memory no live process owns (unattributed).  With\nno FILE, or "
	    "when FILE is -, read standard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, bad "
	    "configuration)",
	.flags = CMD_OUTPUT | CMD_CSV | CMD_READ,
	.option = option,
	.run = run,
};

/* The usage curve of the inputs (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *skel)
{
	struct opts *o = skel->ctx;
	struct ctx *c = o->c;
	struct config cfg;
	struct engine_cb cb;
	struct engine *e;
	struct stream *st;
	const struct rec *r;
	int status = EXIT_TROUBLE;

	if (cfgopt_load(&o->cfg, &cfg) < 0)
		goto out;
	if ((c->f = cmd_output(skel)) == NULL)
		goto out;
	cb.sample = on_sample;
	cb.task = NULL;
	cb.ctx = c;
	e = engine_new(&cfg, &cb);
	st = stream_open(skel->argv, (size_t)skel->argc, &skel->ro);
	while ((r = stream_next(st)) != NULL)
		engine_put(e, r);
	engine_end(e);
	if (c->open)
		close_buckets(c);
	status = stream_close(st);
	engine_warnings(e);
	engine_free(e);
	if (!c->header_done && status != EXIT_TROUBLE)
		header(c);
out:
	hmap_release(&c->buckets, bucket_free);
	sbuf_release(&c->line);
	sbuf_release(&c->key);
	config_release(&cfg);
	skel->how = c->failed ? CMD_WRITE_ERROR : c->header_done ? CMD_COMMIT :
	    CMD_DISCARD;
	return status;
}

int
main(int argc, char *argv[])
{
	struct ctx c;
	struct opts o;

	memset(&c, 0, sizeof(c));
	o.cfg = (struct cfgopts)CFGOPTS_INIT;
	o.c = &c;
	cmd.ctx = &o;
	cmd.sets[0] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
