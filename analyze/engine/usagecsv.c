/* SPDX-License-Identifier: ISC */
/* usagecsv.c: gpumem usage's curve read back by column name (usagecsv.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "format.h"
#include "gtime.h"
#include "input.h"
#include "usagecsv.h"
#include "util.h"

#define MAXCOLS 32

/*
 * The columns by name: the one place that knows what gpumem usage calls
 * them.  A bucket row has the min, mean and max of each curve; a sample
 * row its value.
 */
enum col {
	C_TS, C_HOST, C_GPU, C_SAMPLES, C_TOTAL,
	C_VAL,				/* usage, attributed, unattributed */
	C_MIN = C_VAL + UC_NCURVES,	/* their _min, _mean, _max */
	C_MEAN = C_MIN + UC_NCURVES,
	C_MAX = C_MEAN + UC_NCURVES,
	C_N = C_MAX + UC_NCURVES
};

static const char *const colname[C_N] = {
	"timestamp", "host", "gpu", "samples", "memory_total",
	"usage", "attributed", "unattributed",
	"usage_min", "attributed_min", "unattributed_min",
	"usage_mean", "attributed_mean", "unattributed_mean",
	"usage_max", "attributed_max", "unattributed_max"
};

/* Where each column is in the current part: index + 1, 0 absent. */
struct layout {
	int at[C_N];
	int nf;
	int bucket;
};

/* Whether s names column c: as it is, or with its unit (usage_mib). */
static int
named(const char *s, const char *c)
{
	size_t n = strlen(c);

	return strncmp(s, c, n) == 0 && (s[n] == '\0' ||
	    strcmp(s + n, "_mib") == 0);
}

/*
 * Whether line (split into f) is a header of gpumem usage: then l says
 * where the columns are.
 */
static int
header(char **f, int nf, struct layout *l)
{
	int i, c, k;

	memset(l, 0, sizeof(*l));
	/* csv_split's MAXCOLS + 1: more columns than f holds or usage has. */
	if (nf > MAXCOLS)
		return 0;
	for (i = 0; i < nf; i++)
		for (c = 0; c < C_N; c++)
			if (named(f[i], colname[c]))
				l->at[c] = i + 1;
	if (l->at[C_TS] != 1 || !l->at[C_HOST] || !l->at[C_GPU])
		return 0;
	l->bucket = l->at[C_SAMPLES] != 0;
	for (k = 0; k < UC_NCURVES; k++)
		if (l->bucket ? !l->at[C_MIN + k] || !l->at[C_MEAN + k] ||
		    !l->at[C_MAX + k] : !l->at[C_VAL + k])
			return 0;
	l->nf = nf;
	return 1;
}

int
usagecsv_sniff(const unsigned char *p, size_t n)
{
	char buf[1024], *f[MAXCOLS];
	size_t len[MAXCOLS], k;
	struct layout l;
	int nf;

	for (k = 0; k < n && k < sizeof(buf) - 1 && p[k] != '\n' &&
	    p[k] != '\r'; k++)
		buf[k] = (char)p[k];
	if (k == sizeof(buf) - 1)
		return 0;
	buf[k] = '\0';
	nf = csv_split(buf, f, len, MAXCOLS, 0);
	return nf > 0 && header(f, nf, &l);
}

int
usagecsv_is_curve(const char *path)
{
	return input_looks(path, 1024, usagecsv_sniff);
}

/* A number in MiB ("12", "9260.0"); 1 present, 0 empty, -1 bad. */
static int
num(const char *s, int64_t *v)
{
	char *end;
	double d;

	if (*s == '\0')
		return 0;
	d = strtod(s, &end);
	if (*end != '\0' || !(d > -1e15 && d < 1e15))
		return -1;
	*v = (int64_t)llround(d);
	return 1;
}

static const char *
field(char **f, const struct layout *l, enum col c)
{
	return f[l->at[c] - 1];
}

/* One data row into r; NULL, or why it is bad. */
static const char *
parse(char **f, int nf, const struct layout *l, struct usagerow *r)
{
	int k, rc;

	if (nf != l->nf)
		return "not as many fields as the header";
	memset(r, 0, sizeof(*r));
	if (num_parse_u64(field(f, l, C_TS), strlen(field(f, l, C_TS)),
	    &r->ts) < 0 || num_parse_u32(field(f, l, C_GPU),
	    strlen(field(f, l, C_GPU)), &r->gpu) < 0)
		return "expected a timestamp and a GPU index";
	r->host = field(f, l, C_HOST);
	r->bucket = l->bucket;
	r->samples = 1;
	if (l->bucket && num_parse_u64(field(f, l, C_SAMPLES),
	    strlen(field(f, l, C_SAMPLES)), &r->samples) < 0)
		return "samples: expected a count";
	for (k = 0; k < UC_NCURVES; k++) {
		if (!l->bucket) {
			if (num(field(f, l, C_VAL + k), &r->lo[k]) != 1)
				return "expected usage, attributed and "
				    "unattributed in MiB";
			r->mean[k] = r->hi[k] = r->lo[k];
		} else if (num(field(f, l, C_MIN + k), &r->lo[k]) != 1 ||
		    num(field(f, l, C_MEAN + k), &r->mean[k]) != 1 ||
		    num(field(f, l, C_MAX + k), &r->hi[k]) != 1)
			return "expected min, mean and max in MiB";
	}
	if (l->at[C_TOTAL] != 0) {
		if ((rc = num(field(f, l, C_TOTAL), &r->total)) < 0)
			return "memory_total: expected MiB";
		r->has_total = rc == 1;
	}
	return NULL;
}

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int
usagecsv_read(const char *path, int strict,
    void (*row)(void *ctx, const struct usagerow *r), void *ctx,
    uint64_t *every)
{
	struct input *in = input_open(path);
	struct sbuf line = SBUF_INIT;
	struct layout l;
	struct usagerow r;
	uint64_t bad = 0, g = 0;
	char *s, *f[MAXCOLS];
	size_t len, flen[MAXCOLS];
	int rc, nf, status = 0, have = 0, single = 0, whole = 1;

	*every = 0;
	if (in == NULL) {
		msg("%s: cannot open:", path);
		return -1;
	}
	memset(&l, 0, sizeof(l));
	while ((rc = input_getline(in, &s, &len)) > 0) {
		const char *why = NULL;

		if (whole)
			sbuf_reset(&line);
		whole = 1;
		if (rc == 2) {
			why = "line too long";
			goto bad;
		}
		/* A quoted host holding a line break spans lines: join them. */
		if (line.len > 0)
			sbuf_addc(&line, '\n');
		sbuf_add(&line, s, len);
		if (csv_line_open(line.buf, line.len)) {
			if (line.len > INPUT_MAXLINE) {
				why = "quoted field never closes";
				goto bad;
			}
			whole = 0;
			continue;
		}
		nf = csv_split(line.buf, f, flen, MAXCOLS, 0);
		if (nf > 0 && strcmp(f[0], colname[C_TS]) == 0) {
			if (!header(f, nf, &l))
				why = "not a header of gpumem usage";
			have = why == NULL;
			if (why == NULL)
				continue;
			goto bad;
		}
		if (!have)
			why = "no header of gpumem usage before it";
		else
			why = parse(f, nf, &l, &r);
		if (why != NULL)
			goto bad;
		if (r.bucket)
			g = gcd(g, r.ts);
		else
			single = 1;
		row(ctx, &r);
		continue;
bad:
		if (bad++ < SOURCE_MAXSHOWN)
			msg("%s:%llu: %s", input_name(in),
			    (unsigned long long)input_lineno(in), why);
		if (strict) {
			status = -1;
			break;
		}
	}
	if (rc < 0) {
		msg("%s: %s", input_name(in), input_error(in));
		status = -1;
	}
	if (!whole && rc == 0) {
		msg("%s: quoted field never closes", input_name(in));
		bad++;
	}
	if (bad > SOURCE_MAXSHOWN)
		msg("%s: %llu bad lines in all", input_name(in),
		    (unsigned long long)bad);
	*every = single && g != 0 ? UINT64_MAX : g;
	sbuf_release(&line);
	input_close(in);
	return status;
}

char *
usagecsv_every_str(uint64_t every, char *buf)
{
	char d[GTIME_BUFSZ];

	if (every == 0)
		snprintf(buf, 48, "single samples");
	else if (every == UINT64_MAX)
		snprintf(buf, 48, "single samples and buckets");
	else
		snprintf(buf, 48, "buckets of %.24s s", gtime_fmt_secs(every,
		    d));
	return buf;
}
