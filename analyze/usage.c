/* SPDX-License-Identifier: ISC */
/*
 * usage.c: gpumem-usage, the record stream in, the usage curve out: per
 * whole-device sample, memory in use, the part live processes hold
 * (attributed) and the part no live process owns (unattributed), or with
 * --every, the same resampled into buckets with min, mean and max.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "engine.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "readopt.h"
#include "stream.h"
#include "util.h"

#define USAGE_HEADER \
	"timestamp,host,gpu,memory_total,memory_free,usage,attributed," \
	"unattributed"
#define EVERY_HEADER \
	"timestamp,host,gpu,samples,memory_total,usage_min,usage_mean," \
	"usage_max,attributed_min,attributed_mean,attributed_max," \
	"unattributed_min,unattributed_mean,unattributed_max"

enum {
	OPT_CONFIG = OPT_READ_LAST,
	OPT_EVERY
};

static const struct option longopts[] = {
	READOPT_LONGOPTS,
	{"config", required_argument, NULL, OPT_CONFIG},
	{"every", required_argument, NULL, OPT_EVERY},
	{"output", required_argument, NULL, 'o'},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0}
};

static void
usage(FILE *f, int status)
{
	fprintf(f, "usage: %s [-qv] [--every DUR] [--config FILE] [-o FILE] "
	    "[read options] [FILE ...]\n", progname);
	if (status != EXIT_OK) {
		fprintf(f, "Try '%s --help' for more information.\n",
		    progname);
		exit(status);
	}
	fprintf(f, "\nWrite the usage curve of a record stream (or of anything "
	    "gpumem read reads):\nper whole-device sample, usage = total - "
	    "free, the memory live processes\nhold (attributed) and the memory "
	    "no live process owns (unattributed).  With\nno FILE, or when FILE "
	    "is -, read standard input.\n\n"
	    "      --every DUR     buckets of DUR (1m, 10s) with min, mean "
	    "and max\n"
	    "      --config FILE   settings (YAML): GPU totals where logs lack "
	    "them\n"
	    "  -o, --output FILE   write to FILE (replaced only when all went "
	    "well)\n"
	    "  -q, --quiet         print only problems on stderr\n"
	    "  -v, --verbose       say more\n"
	    "  -h, --help          print this help and exit\n"
	    "  -V, --version       print the version and exit\n"
	    "\nRead options (see gpumem read --help): --format, --fields, "
	    "--interval,\n--start, --tz, --host, --gpu, --pid, --since, "
	    "--until, --window, --strict.\n\n"
	    "Exit status: 0 success, 2 trouble (usage, unreadable input, "
	    "bad configuration).\n");
	exit(close_stdout());
}

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
};

static void
put(struct ctx *c, struct sbuf *l)
{
	if (!c->failed && ewrite_file(c->f, l->buf, l->len) < 0)
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

static int
by_key(const void *a, const void *b)
{
	const struct bucket *x = *(struct bucket *const *)a;
	const struct bucket *y = *(struct bucket *const *)b;
	return hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
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

	if (c->every == 0) {
		/* One row per sample: formatted by hand, this is the hot path. */
		char *w;

		sbuf_reset(&c->line);
		sbuf_grow(&c->line, 2 * strlen(s->host) + 128);
		w = c->line.buf;
		w += fmt_u64(w, s->ts);
		*w++ = ',';
		w += csv_field(w, s->host);
		*w++ = ',';
		w += fmt_u64(w, s->gpu);
		*w++ = ',';
		if (s->has_total)
			w += fmt_u64(w, s->total);
		*w++ = ',';
		if (s->has_free)
			w += fmt_u64(w, s->free);
		*w++ = ',';
		w += fmt_u64(w, s->usage);
		*w++ = ',';
		w += fmt_u64(w, s->attributed);
		*w++ = ',';
		w += fmt_u64(w, (uint64_t)unattr);
		*w++ = '\n';
		c->line.len = (size_t)(w - c->line.buf);
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

int
main(int argc, char *argv[])
{
	struct readopts opt;
	struct config cfg;
	struct outfile out;
	struct engine_cb cb;
	struct engine *e;
	struct stream *st;
	struct ctx c;
	const struct rec *r;
	const char *output = NULL, *cfgpath = NULL;
	int ch, status;

	util_init(argv[0]);
	readopts_init(&opt);
	config_init(&cfg);
	memset(&c, 0, sizeof(c));
	while ((ch = getopt_long(argc, argv, "ho:qvV", longopts, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(stdout, EXIT_OK);
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			verbosity = 0;
			break;
		case 'v':
			verbosity = 2;
			opt.summaries = 1;
			break;
		case 'V':
			print_version();
			break;
		case OPT_CONFIG:
			cfgpath = optarg;
			break;
		case OPT_EVERY:
			if (gtime_duration(optarg, &c.every) < 0 ||
			    c.every == 0)
				die("--every: '%s': expected a duration above "
				    "0 (10s, 1m, 1h)", optarg);
			break;
		default:
			if (!readopt_parse(&opt, ch, optarg))
				usage(stderr, EXIT_TROUBLE);
		}
	argc -= optind;
	argv += optind;
	status = EXIT_TROUBLE;
	if (cfgpath != NULL && config_load(&cfg, cfgpath) < 0)
		goto out;
	if (outfile_open(&out, output) < 0)
		goto out;
	c.f = out.f;
	sbuf_adds(&c.line, c.every ? EVERY_HEADER "\n" : USAGE_HEADER "\n");
	put(&c, &c.line);
	cb.sample = on_sample;
	cb.task = NULL;
	cb.ctx = &c;
	e = engine_new(&cfg, &cb);
	st = stream_open(argv, (size_t)argc, &opt);
	while ((r = stream_next(st)) != NULL)
		engine_put(e, r);
	engine_end(e);
	if (c.open)
		close_buckets(&c);
	status = stream_close(st);
	engine_warnings(e);
	engine_free(e);
	if (c.failed) {
		msg("%s: write error:", output != NULL ? output :
		    "standard output");
		outfile_abort(&out);
		status = EXIT_TROUBLE;
	} else if (outfile_commit(&out) < 0)
		status = EXIT_TROUBLE;
	else if (output == NULL)
		status = exit_worst(status, close_stdout());
out:
	hmap_release(&c.buckets, bucket_free);
	sbuf_release(&c.line);
	sbuf_release(&c.key);
	config_release(&cfg);
	idset_release(&opt.gpus);
	idset_release(&opt.pids);
	return status;
}
