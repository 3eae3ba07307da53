/* SPDX-License-Identifier: ISC */
/*
 * rocmsmi.c: AMD's rocm-smi memory report, logged in a loop, as text
 *
 *	============================ ROCm System Management Interface ============================
 *	================================== Memory Usage (Bytes) ==================================
 *	GPU[0]		: VRAM Total Memory (B): 34342961152
 *	GPU[0]		: VRAM Total Used Memory (B): 7028736
 *	==========================================================================================
 *	================================== End of ROCm SMI Log ===================================
 *
 * (rocm-smi --showmeminfo vram; the banners may be gone: grep Used) or as
 * JSON, one document a line (rocm-smi --showmeminfo vram --json):
 *
 *	{"card0": {"VRAM Total Memory (B)": "34342961152", "VRAM Total Used Memory (B)": "7028736"}}
 *
 * Bytes, read as MiB (rounded).  Neither form has a time: a date line
 * above a report (date(1), ISO 8601) is its time, else --start and
 * --interval place the reports (sclock.h).  A report ends at the end
 * banner, at the next report's banner or date line, at a GPU whose used
 * memory it already has (the banners grepped away), or with its JSON
 * line.  Other rocm-smi lines (other --show options) are passed over.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpumap.h"
#include "gtime.h"
#include "rocmsmi.h"
#include "sclock.h"

#define MAXGPUS 64
#define BANNER "ROCm System Management Interface"
#define END_BANNER "End of ROCm SMI Log"
#define TOTAL_KEY "VRAM Total Memory (B)"
#define USED_KEY "VRAM Total Used Memory (B)"

struct rocmsmi {
	struct source *s;
	int have_pending;	/* a date line, for the next report */
	uint64_t pending;
	struct sclock clock;
	/* The report being read: each GPU's values, if have. */
	uint64_t used[MAXGPUS], total[MAXGPUS];
	int have_used[MAXGPUS], have_total[MAXGPUS];
	int inreport;
	uint64_t reports;
	struct gpuset gpuset;	/* the GPUs named, for the summary */
};

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	/* Not the --csv form ("device,VRAM Total Memory (B),..."): --map. */
	for (i = 0; i < n; i++)
		if (strstr(lines[i], BANNER) != NULL ||
		    ((lines[i][0] == '{' || strncmp(lines[i], "GPU[", 4) == 0) &&
		    strstr(lines[i], USED_KEY) != NULL))
			return 90;
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct rocmsmi *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	sclock_init(&p->clock);
	return p;
}

/* Bytes as MiB, rounded; 0 when it does not fit (not counted). */
static int
bytes_mib(uint64_t b, uint32_t *mib)
{
	uint64_t m = b / 1048576 + (b % 1048576 >= 524288);

	if (m > UINT32_MAX)
		return -1;
	*mib = (uint32_t)m;
	return 0;
}

/* The end of a report: a sample of each GPU it gave the used memory of. */
static void
flush(struct rocmsmi *p)
{
	struct rec r;
	uint64_t ts;
	uint32_t used, total;
	size_t g;

	if (!p->inreport)
		return;
	p->inreport = 0;
	if (p->have_pending) {
		p->have_pending = 0;
		ts = p->pending;
	} else if (sclock_next(&p->clock, source_opts(p->s), &ts) < 0) {
		if (p->reports == 0)
			source_refuse(p->s, "rocm-smi prints no time and no "
			    "date line is above the report: give --start (and "
			    "--interval for a log of many reports)");
		else
			source_bad(p->s, "a report without a date line above "
			    "it, and no --interval to place it: skipped");
		memset(p->have_used, 0, sizeof(p->have_used));
		memset(p->have_total, 0, sizeof(p->have_total));
		return;
	}
	p->reports++;
	for (g = 0; g < MAXGPUS; g++) {
		if (!p->have_used[g] || bytes_mib(p->used[g], &used) < 0)
			continue;
		rec_init(&r);
		r.ts = ts;
		r.host = source_host(p->s, NULL);
		r.gpu = (uint32_t)g;
		r.used = used;
		r.has = REC_USED;
		if (p->have_total[g] && bytes_mib(p->total[g], &total) == 0) {
			r.total = total;
			r.has |= REC_TOTAL;
		}
		gpumap_set_add(&p->gpuset, r.gpu);
		source_emit(p->s, &r);
	}
	memset(p->have_used, 0, sizeof(p->have_used));
	memset(p->have_total, 0, sizeof(p->have_total));
}

/*
 * A value of GPU g: KEY's digits after it in s (text: "KEY: N", JSON:
 * "KEY": "N").  Return 0, or -1 when s holds no such value.
 */
static int
value_of(const char *s, const char *key, uint64_t *v)
{
	const char *k = strstr(s, key);
	uint64_t x = 0;

	if (k == NULL)
		return -1;
	k += strlen(key);
	k += strspn(k, "\": ");
	if (!isdigit((unsigned char)*k))
		return -1;
	for (; isdigit((unsigned char)*k); k++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*k - '0');
	}
	*v = x;
	return 0;
}

/* Take GPU g's used and total memory from s (one GPU's text). */
static void
gpu_values(struct rocmsmi *p, uint32_t g, const char *s)
{
	uint64_t v;

	if (g >= MAXGPUS) {
		source_bad(p->s, "GPU %u: more GPUs than %d", g, MAXGPUS);
		return;
	}
	if (value_of(s, USED_KEY, &v) == 0) {
		if (p->have_used[g])
			flush(p);	/* a report without its banners */
		p->used[g] = v;
		p->have_used[g] = 1;
		p->inreport = 1;
	}
	if (value_of(s, TOTAL_KEY, &v) == 0) {
		p->total[g] = v;
		p->have_total[g] = 1;
		p->inreport = 1;
	}
}

/* {"card0": {...}, "card1": {...}}: one report. */
static void
json_line(struct rocmsmi *p, char *line)
{
	char *c = line, *end;
	uint32_t g;

	while ((c = strstr(c, "\"card")) != NULL) {
		c += 5;
		if (!isdigit((unsigned char)*c))
			continue;
		g = (uint32_t)strtoul(c, &end, 10);
		/* The card's object ends at its '}'. */
		c = strchr(end, '}');
		if (c != NULL)
			*c = '\0';
		gpu_values(p, g, end);
		if (c == NULL)
			break;
		c++;
	}
	flush(p);
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct rocmsmi *p = st;
	uint64_t t;
	uint32_t g;
	char *end;

	if (source_refused(p->s) || len == 0)
		return;
	if (strstr(line, BANNER) != NULL || strstr(line, END_BANNER) !=
	    NULL) {
		flush(p);
		return;
	}
	if (line[0] == '=')
		return;		/* rules, section titles */
	if (gtime_ctime(line, len, &t) == 0 || (len >= 10 && line[4] == '-' &&
	    gtime_iso(line, len, &t) == 0)) {
		flush(p);
		p->pending = t;
		p->have_pending = 1;
		return;
	}
	if (line[0] == '{') {
		json_line(p, line);
		return;
	}
	if (strncmp(line, "GPU[", 4) == 0 && isdigit((unsigned char)line[4])) {
		g = (uint32_t)strtoul(line + 4, &end, 10);
		if (*end == ']' && (strstr(end, USED_KEY) != NULL ||
		    strstr(end, TOTAL_KEY) != NULL)) {
			gpu_values(p, g, end);
			return;
		}
	}
	source_skip(p->s, "other lines");
}

static void
end_fn(void *st)
{
	struct rocmsmi *p = st;

	if (!source_refused(p->s))
		flush(p);
}

static void
summary(void *st, struct sbuf *sb)
{
	struct rocmsmi *p = st;

	gpumap_set_say_of(&p->gpuset, p->reports, "report", sb);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct rocmsmi *p = st;

	gpumap_set_release(&p->gpuset);
	free(p);
}

const struct format rocmsmi_format = {
	.name = "rocm-smi",
	.what = "rocm-smi --showmeminfo vram",
	.device_only = 1,
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
