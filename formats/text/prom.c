/* SPDX-License-Identifier: ISC */
/*
 * prom.c: Prometheus text exposition of GPU exporters, scraped to files
 * (docs/log-formats.md sections 5 and 6):
 *
 *	# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
 *	# TYPE DCGM_FI_DEV_FB_USED gauge
 *	DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-20c5...",Hostname="424773df46e0"} 0
 *
 *	nvidia_smi_memory_used_bytes{uuid="20c5..."} 3.3934016512e+10
 *	nvidia_smi_compute_app_used_memory_bytes{pid="10291",process_name="...",uuid="..."} 2.690646016e+09
 *
 * dcgm-exporter: DCGM_FI_DEV_FB_USED, _FREE, _TOTAL and _RESERVED in MiB,
 * labels gpu (the index), UUID and Hostname (the host of the records);
 * series of a MIG instance (GPU_I_ID) are a share of their GPU and are
 * counted, not read.  With its Kubernetes mapping (labels container,
 * namespace, pod) a series whose pod is not empty is also that pod's
 * process on the GPU (pod_entry), and each scrape is a poll of the pods;
 * pods sharing a GPU get the whole GPU's memory each, so theirs is N/A
 * (pod_shares).  utkuozdemir/nvidia_gpu_exporter:
 * nvidia_smi_memory_{used,free,total,reserved}_bytes labelled by uuid
 * (without "GPU-"), the index from nvidia_smi_index or the index label of
 * nvidia_smi_gpu_info, and per-process nvidia_smi_compute_app_* series
 * (pid, process_name, uuid).  Bytes are turned into MiB rounded to the
 * nearest (the exporter multiplied MiB by 2^20, so this is exact).  Labels
 * may come in any order, with spaces after commas; values in any float
 * form; NaN and DCGM's blank sentinels are missing values.
 *
 * A file may hold many scrapes one after another.  A scrape ends where a
 * metric family comes again (an exposition lists each family once, in one
 * run), where a series comes again at the same time (a loop that kept only
 * some lines), at "# EOF", or at a line that gives a time.  The time of a sample
 * is its own timestamp (milliseconds) when it has one; else the time of a
 * comment such as "# 2024-06-01T11:27:15Z" or "# timestamp: @1717241235",
 * or of a date(1) line, before its scrape; else --start plus one
 * --interval per scrape; else the input is refused.  Each scrape lists
 * every process present, so a scrape with per-process series is a poll of
 * the exporter channel.  A scrape's values are gathered until it ends,
 * then written: memory grows with the largest scrape, not the file.
 *
 * This file is the format: the lines, each sample into the scrape being
 * gathered, where a scrape ends.  promline.c splits a sample line into
 * its parts; promscrape.c writes an ended scrape's records.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "field.h"
#include "gtime.h"
#include "hmap.h"
#include "prom.h"
#include "promstate.h"
#include "sclock.h"

#define MIB 1048576.0

enum metric {
	M_NONE, M_USED, M_FREE, M_TOTAL, M_RESERVED, M_INDEX, M_INFO,
	M_APP_USED, M_APP_INFO, M_APPS
};

static const struct {
	const char *name;
	enum metric m;
	int bytes;		/* in bytes, else MiB */
} metrics[] = {
	{"DCGM_FI_DEV_FB_USED", M_USED, 0},
	{"DCGM_FI_DEV_FB_FREE", M_FREE, 0},
	{"DCGM_FI_DEV_FB_TOTAL", M_TOTAL, 0},
	{"DCGM_FI_DEV_FB_RESERVED", M_RESERVED, 0},
	{"nvidia_smi_memory_used_bytes", M_USED, 1},
	{"nvidia_smi_memory_free_bytes", M_FREE, 1},
	{"nvidia_smi_memory_total_bytes", M_TOTAL, 1},
	{"nvidia_smi_memory_reserved_bytes", M_RESERVED, 1},
	{"nvidia_smi_index", M_INDEX, 0},
	{"nvidia_smi_gpu_info", M_INFO, 0},
	{"nvidia_smi_compute_app_used_memory_bytes", M_APP_USED, 1},
	{"nvidia_smi_compute_app_info", M_APP_INFO, 0},
	{"nvidia_smi_compute_apps", M_APPS, 0},
};

static enum metric
metric_of(const char *name, size_t n, int *bytes)
{
	size_t i;

	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (strlen(metrics[i].name) == n &&
		    memcmp(metrics[i].name, name, n) == 0) {
			*bytes = metrics[i].bytes;
			return metrics[i].m;
		}
	return M_NONE;
}

static int
sniff(char *const *lines, size_t n)
{
	size_t i;
	int help = 0;

	for (i = 0; i < n; i++) {
		if (strncmp(lines[i], "# HELP ", 7) == 0 ||
		    strncmp(lines[i], "# TYPE ", 7) == 0)
			help = 1;
		if (strncmp(lines[i], "DCGM_FI_", 8) == 0 ||
		    strncmp(lines[i], "nvidia_smi_", 11) == 0 ||
		    strncmp(lines[i], "# HELP DCGM_FI_", 15) == 0 ||
		    strncmp(lines[i], "# HELP nvidia_smi_", 18) == 0)
			return 90;
	}
	/* Some other exporter: ours to refuse with a reason. */
	return help ? 40 : 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct prom *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	sclock_init(&p->clock);
	return p;
}

/* A new family: a repeated one ends the scrape. */
static void
family(struct prom *p, const char *name, size_t n)
{
	int isnew;

	/* n may be 0 ("# UNIT " alone) while last.buf is still NULL. */
	if (p->last.len == n && (n == 0 || memcmp(p->last.buf, name, n) == 0))
		return;
	if (hmap_get(&p->families, name, n) != NULL)
		prom_flush(p);
	hmap_put(&p->families, name, n, &isnew);
	sbuf_reset(&p->last);
	sbuf_add(&p->last, name, n);
}

static struct pgpu *
gpu_entry(struct prom *p, const char *host, const char *uuid, int64_t index,
    int have_ts, uint64_t ts)
{
	void **v;
	int isnew;
	struct pgpu *g;

	prom_series_gpu_key(p, host, uuid, index);
	if (have_ts)
		sbuf_add(&p->key, &ts, sizeof(ts));
	v = hmap_put(&p->gpuidx, p->key.buf, p->key.len, &isnew);
	if (!isnew)
		return &p->gpus[(uintptr_t)*v - 1];
	if (p->ngpus == p->capgpus) {
		p->capgpus = p->capgpus ? 2 * p->capgpus : 8;
		p->gpus = ereallocarray(p->gpus, p->capgpus, sizeof(*p->gpus));
	}
	g = &p->gpus[p->ngpus++];
	memset(g, 0, sizeof(*g));
	*v = (void *)(uintptr_t)p->ngpus;
	g->host = estrdup(host);
	g->uuid = uuid != NULL ? estrdup(uuid) : NULL;
	g->index = index;
	g->have_ts = have_ts;
	g->ts = ts;
	g->seq = p->ngpus;
	return g;
}

/* The index nvidia_smi_index or nvidia_smi_gpu_info gives a uuid. */
static void
learn_index(struct prom *p, const char *host, const char *uuid, int64_t idx,
    const char *bus)
{
	void **v;
	size_t i;

	sbuf_reset(&p->key);
	sbuf_adds(&p->key, host);
	sbuf_addc(&p->key, '\0');
	sbuf_adds(&p->key, uuid);
	v = hmap_put(&p->uuidx, p->key.buf, p->key.len, NULL);
	*v = (void *)(uintptr_t)(idx + 1);
	for (i = 0; i < p->ngpus; i++)
		if (p->gpus[i].uuid != NULL && strcmp(p->gpus[i].uuid, uuid) ==
		    0 && strcmp(p->gpus[i].host, host) == 0) {
			p->gpus[i].index = idx;
			if (bus != NULL && p->gpus[i].bus == NULL)
				p->gpus[i].bus = estrdup(bus);
		}
}

/* The process pid of the scrape at (host, uuid, ts), or NULL. */
static struct pproc *
proc_find(struct prom *p, const char *host, const char *uuid, uint32_t pid,
    int have_ts, uint64_t ts)
{
	size_t i;

	for (i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid && p->procs[i].have_ts == have_ts &&
		    p->procs[i].ts == ts &&
		    strcmp(p->procs[i].host, host) == 0 &&
		    (p->procs[i].uuid == NULL) == (uuid == NULL) &&
		    (uuid == NULL || strcmp(p->procs[i].uuid, uuid) == 0))
			return &p->procs[i];
	return NULL;
}

static struct pproc *
proc_add(struct prom *p, const char *host, const char *uuid, int64_t index,
    uint32_t pid, const char *name, int have_ts, uint64_t ts)
{
	struct pproc *x;

	if (p->nprocs == p->capprocs) {
		p->capprocs = p->capprocs ? 2 * p->capprocs : 16;
		p->procs = ereallocarray(p->procs, p->capprocs,
		    sizeof(*p->procs));
	}
	x = &p->procs[p->nprocs++];
	memset(x, 0, sizeof(*x));
	x->host = estrdup(host);
	x->uuid = uuid != NULL ? estrdup(uuid) : NULL;
	x->index = index;
	x->pid = pid;
	x->ts = ts;
	x->have_ts = have_ts;
	x->name = estrdup(name);
	return x;
}

/*
 * The label `name' of dcgm-exporter's Kubernetes mapping (pod, namespace,
 * container), or NULL.  Stored by a Prometheus server, the exporter's own
 * pod, namespace and container take those names and the mapping's become
 * exported_pod, ...: where there is an exported_pod label, the
 * exported_ ones are the mapping's.
 */
static const char *
k8s_label(const struct prom_line *pl, const char *name)
{
	char ex[32];

	if (prom_label(pl, "exported_pod") == NULL)
		return prom_label(pl, name);
	snprintf(ex, sizeof(ex), "exported_%s", name);
	return prom_label(pl, ex);
}

/*
 * A series of dcgm-exporter's Kubernetes mapping, its pod label not
 * empty: the pod "namespace/pod/container" (the container when there is
 * one) on the series' GPU, as a process of the scrape.  Its pid is the
 * name's (rec_name_pid), its memory the series' FB_USED.
 */
static struct pproc *
pod_entry(struct prom *p, const char *host, const char *uuid, int64_t index,
    int have_ts, uint64_t ts, const char *pod)
{
	const struct prom_line *pl = &p->pl;
	const char *ns = k8s_label(pl, "namespace");
	const char *ctr = k8s_label(pl, "container");
	struct pproc *x;
	uint32_t pid;

	sbuf_reset(&p->name);
	sbuf_printf(&p->name, "%s/%s", ns != NULL ? ns : "", pod);
	if (ctr != NULL && *ctr != '\0')
		sbuf_printf(&p->name, "/%s", ctr);
	pid = rec_name_pid(p->name.buf, p->name.len);
	x = proc_find(p, host, uuid, pid, have_ts, ts);
	if (x == NULL) {
		x = proc_add(p, host, uuid, index, pid, p->name.buf, have_ts,
		    ts);
		x->pod = 1;
	}
	return x;
}

static void
sample(struct prom *p, char *line)
{
	struct prom_line *pl = &p->pl;
	const char *why = NULL, *host, *uuid, *v, *name;
	size_t nl;
	enum metric m;
	int bytes = 0, have_ts, rc;
	double d = 0;
	uint64_t ts;
	int64_t index = -1;
	uint32_t mib = 0, u;
	char q[48];

	if (prom_parse(line, pl, &why) < 0) {
		source_bad(p->s, "not a sample line: expected %s", why);
		return;
	}
	name = pl->name;
	nl = pl->nl;
	p->any_sample = 1;
	family(p, name, nl);
	m = metric_of(name, nl, &bytes);
	if (m == M_NONE)
		return;		/* another metric: not ours */
	have_ts = pl->has_ts;
	ts = pl->ts_ms * NS_PER_MS;
	rc = field_double(pl->value, pl->vl, &d);
	if (rc < 0) {
		source_bad(p->s, "%.*s: expected a number, got %s", (int)nl,
		    name, field_quote(q, sizeof(q), pl->value, pl->vl));
		return;
	}
	if (rc == 0)
		return;		/* NaN, a blank: missing */
	if (prom_label(pl, "GPU_I_ID") != NULL) {
		p->migs++;	/* a MIG instance's share of its GPU */
		return;
	}
	if (bytes)
		d = floor(d / MIB + 0.5);
	if (m != M_INFO && m != M_APP_INFO && m != M_APPS) {
		if (d > UINT32_MAX) {
			source_bad(p->s, "%.*s: %s is out of range", (int)nl,
			    name, field_quote(q, sizeof(q), pl->value,
			    pl->vl));
			return;
		}
		mib = (uint32_t)d;
	}
	host = prom_label(pl, "Hostname");
	if (host == NULL)
		host = prom_label(pl, "hostname");
	host = source_host(p->s, host);
	uuid = prom_label(pl, "UUID");
	if (uuid == NULL)
		uuid = prom_label(pl, "uuid");
	if (uuid != NULL && *uuid == '\0')
		uuid = NULL;
	if ((v = prom_label(pl, "gpu")) != NULL &&
	    num_parse_u32(v, strlen(v), &u) == 0)
		index = u;

	switch (m) {
	case M_USED: case M_FREE: case M_TOTAL: case M_RESERVED: {
		struct pgpu *g;
		struct pproc *x = NULL;
		unsigned bit = m == M_USED ? REC_USED : m == M_FREE ?
		    REC_FREE : m == M_TOTAL ? REC_TOTAL : HAS_RESERVED;
		const char *pod = k8s_label(pl, "pod");

		if (uuid == NULL && index < 0) {
			source_bad(p->s, "%.*s: no gpu or UUID label", (int)nl,
			    name);
			return;
		}
		p->any_mem = 1;
		if (bytes)
			p->nvexp = 1;
		else
			p->dcgm = 1;
		/*
		 * A pod label, even empty (a GPU no pod has): the exporter
		 * maps its GPUs to pods, and each scrape lists every pod.
		 */
		if (pod != NULL)
			p->procs_here = 1;
		if (pod != NULL && *pod != '\0') {
			source_set_device_only(p->s, 0);
			x = pod_entry(p, host, uuid, index, have_ts, ts, pod);
			if (x->bits & bit) {
				prom_flush(p);	/* the series again */
				family(p, name, nl);
				p->procs_here = 1;
				x = pod_entry(p, host, uuid, index, have_ts,
				    ts, pod);
			}
			x->bits |= bit;
			if (m == M_USED) {
				x->used = mib;
				x->has_used = 1;
			}
		}
		g = gpu_entry(p, host, uuid, index, have_ts, ts);
		/* Another pod on the GPU gives the GPU's value again. */
		if ((g->has & bit) && x == NULL) {
			/*
			 * The series again, at the same time: a new scrape
			 * (a loop that keeps only these lines never repeats
			 * a family apart).
			 */
			prom_flush(p);
			family(p, name, nl);
			g = gpu_entry(p, host, uuid, index, have_ts, ts);
		}
		if (g->index < 0)
			g->index = index >= 0 ? index : prom_uuid_index(p, host,
			    uuid);
		if (m == M_USED) {
			g->used = mib;
			g->has |= REC_USED;
		} else if (m == M_FREE) {
			g->free = mib;
			g->has |= REC_FREE;
		} else if (m == M_TOTAL) {
			g->total = mib;
			g->has |= REC_TOTAL;
		} else {
			g->reserved = mib;
			g->has |= HAS_RESERVED;
		}
		return;
	}
	case M_INDEX:
		if (uuid != NULL && d <= UINT32_MAX)
			learn_index(p, host, uuid, (int64_t)mib, NULL);
		return;
	case M_INFO:
		if (uuid != NULL && (v = prom_label(pl, "index")) != NULL &&
		    num_parse_u32(v, strlen(v), &u) == 0)
			learn_index(p, host, uuid, u, prom_label(pl, "pci_bus_id"));
		return;
	case M_APPS:
		p->procs_here = 1;
		source_set_device_only(p->s, 0);
		return;
	case M_APP_USED:
	case M_APP_INFO: {
		struct pproc *x;

		p->procs_here = 1;
		source_set_device_only(p->s, 0);
		if ((v = prom_label(pl, "pid")) == NULL ||
		    num_parse_u32(v, strlen(v), &u) < 0 || u == 0) {
			source_bad(p->s, "%.*s: no pid label", (int)nl, name);
			return;
		}
		x = proc_find(p, host, uuid, u, have_ts, ts);
		if (x != NULL && m == M_APP_USED && x->has_used) {
			prom_flush(p);	/* the series again: a new scrape */
			family(p, name, nl);
			p->procs_here = 1;
			x = NULL;
		}
		if (x == NULL) {
			v = prom_label(pl, "process_name");
			x = proc_add(p, host, uuid, index, u, v != NULL ? v :
			    "", have_ts, ts);
		}
		if (m == M_APP_USED) {
			x->used = mib;
			x->has_used = 1;
			p->any_mem = 1;
			p->nvexp = 1;
		}
		return;
	}
	default:
		return;
	}
}

/*
 * A comment or a line that gives the time of the next scrape:
 * "# 2024-06-01T11:27:15Z", "# timestamp: @1717241235", a date(1) line.
 */
static int
time_line(const char *s, uint64_t *ts)
{
	static const char *const words[] = {
		"timestamp", "time", "scrape_time", "scraped at", "scraped",
		NULL
	};
	size_t i, n;

	if (*s == '#') {
		s++;
		s += strspn(s, " \t");
		for (i = 0; words[i] != NULL; i++) {
			n = strlen(words[i]);
			if (strncasecmp(s, words[i], n) == 0 &&
			    (s[n] == ' ' || s[n] == ':' || s[n] == '=')) {
				s += n;
				s += strspn(s, " \t:=");
				break;
			}
		}
	}
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n == 0)
		return 0;
	if (gtime_ctime(s, n, ts) == 0 || gtime_iso(s, n, ts) == 0 ||
	    gtime_nvsmi(s, n, ts) == 0)
		return 1;
	if (s[0] == '@' || isdigit((unsigned char)s[0])) {
		char buf[64];

		if (n + 2 > sizeof(buf))
			return 0;	/* no room for '@', the number, NUL */
		memcpy(buf, s, n);
		buf[n] = '\0';
		/* A bare number is seconds here, as date +%s prints. */
		if (s[0] != '@' && strspn(buf, "0123456789.") == n) {
			memmove(buf + 1, buf, n + 1);
			buf[0] = '@';
		}
		return gtime_parse(buf, ts) == 0;
	}
	return 0;
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct prom *p = st;
	uint64_t t;

	if (source_refused(p->s))
		return;
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	if (len == 0)
		return;
	p->lines = 1;
	if (strncmp(line, "# HELP ", 7) == 0 ||
	    strncmp(line, "# TYPE ", 7) == 0 ||
	    strncmp(line, "# UNIT ", 7) == 0) {
		const char *n = line + 7;

		family(p, n, strcspn(n, " \t"));
		return;
	}
	if (strcmp(line, "# EOF") == 0) {
		prom_flush(p);
		return;
	}
	if (time_line(line, &t)) {
		prom_flush(p);
		p->pending = 1;
		p->pending_ts = t;
		return;
	}
	if (line[0] == '#') {
		source_skip(p->s, "comment lines");
		return;
	}
	sample(p, line);
}

static void
end_fn(void *st)
{
	struct prom *p = st;

	if (source_refused(p->s))
		return;
	prom_flush(p);
	if (source_refused(p->s))
		return;
	if (!p->lines)
		return;		/* empty */
	if (!p->any_sample && source_nbad(p->s) > 0)
		source_refuse(p->s, "no Prometheus sample line: not Prometheus "
		    "text");
	else if (!p->any_mem && p->nrec == 0)
		source_refuse(p->s, "no GPU memory metrics (DCGM_FI_DEV_FB_USED, "
		    "_FREE, nvidia_smi_memory_used_bytes, ...): this "
		    "Prometheus text holds no memory data");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct prom *p = st;

	sbuf_printf(sb, "%s, %llu scrape%s", p->dcgm && !p->nvexp ?
	    " of dcgm-exporter" : p->nvexp && !p->dcgm ?
	    " of nvidia_gpu_exporter" : "", (unsigned long long)p->scrapes,
	    p->scrapes == 1 ? "" : "s");
	if (p->migs > 0)
		sbuf_printf(sb, ", %llu MIG instance samples (their memory "
		    "counted in their GPU)", (unsigned long long)p->migs);
	if (p->pods > 0)
		sbuf_printf(sb, ", %llu Kubernetes pod samples", (unsigned long
		    long)p->pods);
	if (p->shared > 0)
		sbuf_printf(sb, ", %llu of them on a GPU shared by pods "
		    "(memory N/A: the exporter gives each the whole GPU's)",
		    (unsigned long long)p->shared);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct prom *p = st;

	prom_scrape_clear(p);
	hmap_release(&p->sharers, NULL);
	free(p->gpus);
	free(p->procs);
	sbuf_release(&p->last);
	sbuf_release(&p->key);
	sbuf_release(&p->pl.vals);
	sbuf_release(&p->name);
	free(p);
}

const struct format prom_format = {
	.name = "prom",
	.what = "Prometheus text",
	.device_only = 1,
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
