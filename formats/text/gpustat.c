/* SPDX-License-Identifier: ISC */
/*
 * gpustat.c: gpustat's default text output, logged in a loop
 * (docs/log-formats.md section 6):
 *
 *	ml-server2              Mon Sep 14 03:31:09 2020  440.100
 *	[5] GeForce RTX 2080 Ti | 84'C,  80 % | 10972 / 11019 MB | vignesh(10961M)
 *	[6] GeForce RTX 2080 Ti | 39'C,   0 % |   309 / 11019 MB | a(153M) a(153M)
 *
 * The header line gives the host and the time (local) of the poll; each
 * GPU line its index, "used / total MB" (MiB) and its processes.  Other
 * fields (temperature in 'C or °C, power with --show-power) are passed
 * over: the memory field is the one that reads "N / M MB".  "??" is
 * gpustat's print of an unknown value.
 *
 * Processes: "user(153M)" by default; with -p "user/pid(153M)", with -c
 * "cmd(153M)" and with both "cmd/pid(153M)" (-u -c gives "user:cmd").  The
 * default prints no pid, yet a record needs one: each (GPU, user, n-th
 * entry of that user on the GPU) gets a stand-in process id above
 * 4194304, the largest pid Linux gives, numbered in order of first
 * appearance, so that it can never be taken for a real process; its name
 * is what gpustat printed (the user).  Two processes of one user on one
 * GPU are told apart by their order only: when the first ends, the second
 * takes its stand-in.  Record with -p to get real pids.
 *
 * Every poll lists every GPU and each GPU its processes: a poll is a
 * snapshot (poll mark on the gpustat channel).  Other lines (date(1)
 * lines of a cron wrapper) are counted and passed over.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "gpumap.h"
#include "gpustat.h"
#include "gtime.h"
#include "hmap.h"

#define STANDIN_BASE 4194305U	/* above Linux's PID_MAX_LIMIT, 2^22 */

struct gpustat {
	struct source *s;
	int inpoll;
	uint64_t ts;
	struct sbuf host, name, key;
	struct hmap standin;	/* "host\0gpu\0user\0n" -> stand-in pid */
	uint32_t next_standin;
	uint64_t polls, standins;
	struct gpuset gpuset;	/* the GPUs named, for the summary */
};

/* "[5] GeForce ..." : the index, or -1. */
static int64_t
gpu_index(const char *line, const char **rest)
{
	size_t d = 1;
	uint32_t v;

	if (line[0] != '[')
		return -1;
	while (isdigit((unsigned char)line[d]))
		d++;
	if (d == 1 || line[d] != ']' || num_parse_u32(line + 1, d - 1, &v) < 0)
		return -1;
	*rest = line + d + 1;
	return v;
}

/*
 * The header: "HOST  Www Mmm dd HH:MM:SS YYYY  DRIVER".  Store the time;
 * return the host's length, or 0 when the line is not a header.
 */
static size_t
header(const char *line, uint64_t *ts)
{
	size_t hl = strcspn(line, " \t"), end;
	const char *t = line + hl;

	if (hl == 0 || line[hl] == '\0')
		return 0;
	t += strspn(t, " \t");
	/* The time is the five words after the host; the driver follows. */
	end = strlen(t);
	while (end > 0 && (t[end - 1] == ' ' || t[end - 1] == '\r'))
		end--;
	if (end > 0 && gtime_ctime(t, end, ts) == 0)
		return hl;	/* an old gpustat: no driver version */
	while (end > 0 && t[end - 1] != ' ')
		end--;		/* drop the driver version */
	while (end > 0 && t[end - 1] == ' ')
		end--;
	if (end == 0 || gtime_ctime(t, end, ts) < 0)
		return 0;
	return hl;
}

static int
sniff(char *const *lines, size_t n)
{
	size_t i;
	const char *rest;
	uint64_t t;
	int head = 0;

	for (i = 0; i < n && i < 12; i++) {
		if (header(lines[i], &t) > 0)
			head = 1;
		else if (head && gpu_index(lines[i], &rest) >= 0 &&
		    strstr(rest, " MB") != NULL && strchr(rest, '|') != NULL)
			return 90;
	}
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct gpustat *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	p->next_standin = STANDIN_BASE;
	return p;
}

/* "10972 / 11019 MB": 1 and the values, 0 for "?? / ?? MB", -1 not it. */
static int
memory_field(const char *f, size_t n, uint32_t *used, int *hu,
    uint32_t *total, int *ht)
{
	const char *slash = memchr(f, '/', n);
	size_t a, b;
	const char *t;

	if (slash == NULL || n < 4 || memcmp(f + n - 3, " MB", 3) != 0)
		return -1;
	a = (size_t)(slash - f);
	while (a > 0 && f[a - 1] == ' ')
		a--;
	t = slash + 1;
	b = (size_t)(f + n - 3 - t);
	while (b > 0 && *t == ' ') {
		t++;
		b--;
	}
	*hu = a == 2 && memcmp(f, "??", 2) == 0 ? 0 : field_uint(f, a, used);
	*ht = b == 2 && memcmp(t, "??", 2) == 0 ? 0 : field_uint(t, b, total);
	return *hu < 0 || *ht < 0 ? -1 : 1;
}

/* The stand-in pid of the n-th entry of user on gpu (see above). */
static uint32_t
standin(struct gpustat *p, uint32_t gpu, const char *user, size_t ul,
    unsigned nth)
{
	void **v;
	int isnew;

	sbuf_reset(&p->key);
	sbuf_adds(&p->key, p->host.buf);
	sbuf_addc(&p->key, '\0');
	sbuf_add(&p->key, &gpu, sizeof(gpu));
	sbuf_add(&p->key, user, ul);
	sbuf_addc(&p->key, '\0');
	sbuf_add(&p->key, &nth, sizeof(nth));
	v = hmap_put(&p->standin, p->key.buf, p->key.len, &isnew);
	if (isnew) {
		*v = (void *)(uintptr_t)p->next_standin++;
		p->standins++;
	}
	return (uint32_t)(uintptr_t)*v;
}

/*
 * The processes of a GPU line: "a(153M) b/4242(10G?)".  Names of earlier
 * entries are needed to count the n-th entry of a user.
 */
static void
processes(struct gpustat *p, uint32_t gpu, const char *s)
{
	struct {
		const char *name;
		size_t nl;
	} seen[256];
	size_t nseen = 0, i;

	for (;;) {
		const char *tok, *open, *close, *slash;
		size_t tl, nl;
		uint32_t mib, pid = 0;
		unsigned nth = 0;
		struct rec r;

		s += strspn(s, " \t");
		if (*s == '\0')
			return;
		tok = s;
		tl = strcspn(s, " \t");
		s += tl;
		open = memchr(tok, '(', tl);
		close = tok + tl - 1;
		if (open == NULL || *close != ')' || close - open < 3 ||
		    close[-1] != 'M' || num_parse_u32(open + 1,
		    (size_t)(close - 1 - open - 1), &mib) < 0) {
			char q[48];

			source_bad(p->s, "a process entry that is not "
			    "'name(123M)': %s", field_quote(q, sizeof(q), tok,
			    tl));
			continue;
		}
		nl = (size_t)(open - tok);
		slash = memchr(tok, '/', nl);
		if (slash != NULL && num_parse_u32(slash + 1,
		    (size_t)(open - slash - 1), &pid) == 0 && pid > 0)
			nl = (size_t)(slash - tok);
		else
			pid = 0;
		if (pid == 0) {
			for (i = 0; i < nseen; i++)
				if (seen[i].nl == nl &&
				    memcmp(seen[i].name, tok, nl) == 0)
					nth++;
			if (nseen < sizeof(seen) / sizeof(seen[0])) {
				seen[nseen].name = tok;
				seen[nseen].nl = nl;
				nseen++;
			}
			pid = standin(p, gpu, tok, nl, nth);
		}
		sbuf_reset(&p->name);
		sbuf_add(&p->name, tok, nl);
		rec_init(&r);
		r.ts = p->ts;
		r.host = p->host.buf;
		r.gpu = gpu;
		r.pid = pid;
		r.used = mib;
		r.has = REC_USED;
		r.name = p->name.buf;
		r.origin = REC_SNAP_GPUSTAT;
		source_emit(p->s, &r);
	}
}

static void
gpu_line(struct gpustat *p, const char *line)
{
	const char *rest, *f, *bar;
	int64_t idx = gpu_index(line, &rest);
	uint32_t used = 0, total = 0;
	int hu = 0, ht = 0, found = 0;
	struct rec r;

	if (!p->inpoll) {
		source_bad(p->s, "a GPU line before any header line (host and "
		    "time)");
		return;
	}
	/* Fields are separated by '|': find the memory one. */
	for (f = rest; (bar = strchr(f, '|')) != NULL; f = bar + 1) {
		const char *next = strchr(bar + 1, '|');
		const char *g = bar + 1;
		size_t n = next != NULL ? (size_t)(next - g) : strlen(g);
		char *t = (char *)g;

		t = field_trim(t, &n);
		if (memory_field(t, n, &used, &hu, &total, &ht) == 1) {
			found = 1;
			gpumap_set_add(&p->gpuset, (uint32_t)idx);
			rec_init(&r);
			r.ts = p->ts;
			r.host = p->host.buf;
			r.gpu = (uint32_t)idx;
			if (hu) {
				r.used = used;
				r.has |= REC_USED;
			}
			if (ht) {
				r.total = total;
				r.has |= REC_TOTAL;
			}
			if (hu)
				source_emit(p->s, &r);
			else
				source_skip(p->s, "GPU lines with unknown "
				    "memory ('?\?')");
			if (next != NULL)
				processes(p, (uint32_t)idx, next + 1);
			break;
		}
	}
	if (!found)
		source_bad(p->s, "a GPU line without 'used / total MB'");
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct gpustat *p = st;
	const char *rest;
	uint64_t ts, t2;
	size_t hl;

	if (len == 0 || strspn(line, " \t") == len)
		return;
	if (gpu_index(line, &rest) >= 0) {
		gpu_line(p, line);
		return;
	}
	/* A header, not a date(1) line of a wrapper (also a date). */
	if ((hl = header(line, &ts)) > 0 && gtime_ctime(line, len, &t2) < 0) {
		struct rec m;

		/* The host is the header's, unless --host says otherwise. */
		sbuf_reset(&p->host);
		sbuf_add(&p->host, "", 0);
		if (source_opts(p->s)->host != NULL)
			sbuf_adds(&p->host, source_opts(p->s)->host);
		else
			sbuf_add(&p->host, line, hl);
		p->ts = ts;
		p->inpoll = 1;
		p->polls++;
		rec_init(&m);
		m.ts = p->ts;
		m.host = p->host.buf;
		m.origin = REC_SNAP_GPUSTAT;
		source_emit(p->s, &m);		/* the poll mark */
		return;
	}
	if (gtime_ctime(line, len, &ts) == 0) {
		source_skip(p->s, "date lines");
		return;
	}
	source_bad(p->s, "not a gpustat line");
}

static void
end_fn(void *st)
{
	struct gpustat *p = st;

	if (p->polls == 0 && source_nbad(p->s) > 0)
		source_refuse(p->s, "no gpustat header line (host, date, "
		    "driver): not gpustat's text");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct gpustat *p = st;

	gpumap_set_say_of(&p->gpuset, p->polls, "poll", sb);
	if (p->standins > 0)
		sbuf_printf(sb, ", %llu processes without a pid given stand-in "
		    "ids from %u", (unsigned long long)p->standins,
		    STANDIN_BASE);
}

static void
free_fn(void *st)
{
	struct gpustat *p = st;

	sbuf_release(&p->host);
	sbuf_release(&p->name);
	sbuf_release(&p->key);
	hmap_release(&p->standin, NULL);
	gpumap_set_release(&p->gpuset);
	free(p);
}

const struct format gpustat_format = {
	.name = "gpustat",
	.what = "gpustat text",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
