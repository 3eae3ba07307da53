/* SPDX-License-Identifier: ISC */
/*
 * out.c: what both generators of gpumem synth share (synth.h): the seeded
 * randomness, and the writers of device samples and process lines, to
 * the record stream (in the order a GMEM capture reads back with --gmem)
 * or to the nvidia-smi logs of --nvsmi.
 */
#include <stdlib.h>
#include <time.h>

#include "gtime.h"
#include "synth.h"
#include "util.h"

/* --- randomness: splitmix64, so a seed gives the same data everywhere --- */

uint64_t synth_rng_state;

static uint64_t
rng(void)
{
	uint64_t z = (synth_rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
uint64_t
synth_rng_below(uint64_t n)
{
	return n == 0 ? 0 : rng() % n;
}

static void
put(struct synth *s, struct rec *r)
{
	if (s->gmem) {
		if (s->npend == s->cappend) {
			s->cappend = s->cappend ? 2 * s->cappend : 64;
			s->pend = ereallocarray(s->pend, s->cappend,
			    sizeof(*s->pend));
		}
		s->pend[s->npend++] = *r;
		return;
	}
	if (recw_put(&s->out, r) < 0)
		die("%s: write error:", s->outname);
	s->nrec++;
}

/*
 * A GMEM sender sends one frame per GPU and sample, so a capture reads
 * back the records of each GPU together: its device sample, then its
 * processes, then the ones that just ended.  --gmem writes them in that
 * order (stable within a GPU).
 */
void
synth_flush_gmem(struct synth *s)
{
	uint32_t gi;
	size_t i;

	for (gi = 0; gi < s->gpus; gi++)
		for (i = 0; i < s->npend; i++)
			if (s->pend[i].gpu == gi) {
				if (recw_put(&s->out, &s->pend[i]) < 0)
					die("%s: write error:", s->outname);
				s->nrec++;
			}
	s->npend = 0;
}

/*
 * GMEM frames carry no process names, and every record of a frame has the
 * device's free memory and the frame's total: --gmem writes the stream a
 * capture of this host would read back as.
 */
static void
gmem_shape(const struct synth *s, struct rec *r)
{
	if (!s->gmem)
		return;
	r->name = "";
	r->free = s->g[r->gpu].free;
	r->total = s->sc->total;
	r->has |= REC_FREE | REC_TOTAL;
}

static void
nvsmi_time(uint64_t t, char buf[64])
{
	time_t secs = (time_t)(t / NS_PER_SEC);
	struct tm tm;

	localtime_r(&secs, &tm);
	snprintf(buf, 64, "%04d/%02d/%02d %02d:%02d:%02d.%03u",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, (unsigned)(t % NS_PER_SEC / NS_PER_MS));
}

static void
gpu_ids(uint32_t gpu, char uuid[64], char bus[32])
{
	snprintf(uuid, 64, "GPU-5a1e%04x-0000-4000-8000-00000000%04x", gpu, gpu);
	snprintf(bus, 32, "00000000:%02X:00.0", 0x17 + gpu * 0x10);
}

/*
 * The device sample of GPU gi at ts, used MiB (capped to what the GPU
 * has): a query-gpu row, or a record.
 */
void
synth_device_rec(struct synth *s, uint32_t gi, uint64_t ts, uint64_t used)
{
	const struct scenario *sc = s->sc;
	char tbuf[64], uuid[64], bus[32];
	struct rec r;

	if (used > sc->total - sc->reserved)
		used = sc->total - sc->reserved;
	rec_init(&r);
	r.ts = ts;
	r.host = s->host;
	r.gpu = gi;
	r.used = (uint32_t)used;
	r.free = sc->total - sc->reserved - (uint32_t)used;
	r.total = sc->total;
	r.has = REC_USED | REC_FREE | REC_TOTAL;
	s->g[gi].free = r.free;
	if (s->qgpu != NULL) {
		nvsmi_time(ts, tbuf);
		gpu_ids(gi, uuid, bus);
		fprintf(s->qgpu, "%s, %u, %s, %s, %u MiB, %u MiB, %u MiB, "
		    "%u MiB\n", tbuf, gi, uuid, bus, sc->total, sc->reserved,
		    r.used, r.free);
	} else
		put(s, &r);
}

/*
 * A process listed at ts with used MiB (a compute-apps row, or a record),
 * or with used 0 gone since the last poll (a record; nvidia-smi just stops
 * listing it).
 */
void
synth_proc_rec(struct synth *s, uint32_t gi, uint32_t pid, const char *name,
    uint64_t ts, uint32_t used)
{
	char tbuf[64], uuid[64], bus[32];
	struct rec r;

	if (s->apps != NULL) {
		if (used == 0)
			return;
		nvsmi_time(ts, tbuf);
		gpu_ids(gi, uuid, bus);
		fprintf(s->apps, "%s, %s, %s, %u, %s, %u MiB\n", tbuf, uuid,
		    bus, pid, name, used);
		return;
	}
	rec_init(&r);
	r.ts = ts;
	r.host = s->host;
	r.gpu = gi;
	r.pid = pid;
	r.used = used;
	r.has = REC_USED;
	r.name = name;
	gmem_shape(s, &r);
	put(s, &r);
}
