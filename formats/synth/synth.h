/* SPDX-License-Identifier: ISC */
/*
 * synth.h: the generators behind gpumem synth, for the command and each
 * other (one internal header for formats/synth/).
 *
 * out.c holds what both share: the seeded randomness (synth_rng_state,
 * set once from --seed; the same seed gives the same bytes everywhere)
 * and the writers of one device sample and one process line, to the
 * record stream (s->out, in the GMEM order with --gmem) or to the two
 * nvidia-smi logs (s->qgpu and s->apps, when open).  oneloop.c runs a
 * scenario sample by sample (synth_run), twoloop.c a two-loop scenario in
 * true time (synth_ctasks, then synth_run_loops).  Both write the truth
 * rows to s->truth when it is open.
 * Errors writing the stream die naming s->outname.
 */
#ifndef GPUMEM_SYNTH_H
#define GPUMEM_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rec.h"
#include "scenario.h"

#define MAXGPU 64
#define MAXTASK 64		/* at once per GPU */

/* --- one loop: tasks as sampled, per GPU --- */

enum tstate { T_PENDING, T_LIVE, T_WAITING, T_DONE };

struct task {
	struct tdef d;
	enum tstate state;
	uint64_t t_start, t_end, t_release;	/* sample times, 0 = none */
	uint64_t t_last;	/* last sample that listed it */
	uint32_t held, peak, cur;
	int listed;		/* listed at some emitted sample */
	int ended_seen;		/* the zero record was written */
};

struct gpu {
	struct task t[MAXTASK];
	size_t n;
	uint32_t free;		/* at the current sample */
	uint64_t leaked;	/* MiB gone for good */
	uint64_t next_rand;	/* random scenario: tick of the next task */
	uint32_t next_pid;
};

/* --- the generator: the run's state, for both loops --- */

struct synth {
	const struct scenario *sc;
	uint64_t interval, start, ticks;
	uint32_t gpus;
	const char *host;
	size_t nextdef;
	struct gpu g[MAXGPU];
	FILE *truth;
	struct recw out;
	const char *outname;	/* for messages: -o FILE, or standard output */
	FILE *qgpu, *apps;	/* --nvsmi */
#define SYNTH_APPS_HEADER "timestamp, gpu_uuid, gpu_bus_id, pid, " \
    "process_name, used_gpu_memory [MiB]"
	int noheader;		/* --noheader: compute-apps without headers */
	int gmem;		/* --gmem: records as a GMEM sender sends them */
	struct rec *pend;	/* --gmem: the records of the current sample */
	size_t npend, cappend;
	uint64_t nrec;
};

/* --- two loops: continuous time --- */

/*
 * nvidia-smi as "gpumem record" runs it is two loops: query-gpu samples the
 * devices every pd, compute-apps polls the processes every pp (stretched by
 * drift ppm), from off after the start, and each on its own.  Events
 * happen in true time, in ms; each loop only sees the instants it samples.
 */
struct loops {
	uint64_t pd, pp, off;	/* ns */
	int64_t drift;		/* ppm */
	unsigned lose_polls, lose_lines;	/* percent */
	uint64_t len;		/* ns: samples and polls before start + len */
};

/* A two-loop task as it runs, and as the process loop saw it. */
struct ctask {
	struct cdef d;
	uint64_t s, x, y;	/* ns from the start: start, exit, release */
	int ever;		/* listed at some poll */
	int listed;		/* listed at the last poll that was not lost */
	uint64_t last;		/* the time of the last poll that listed it */
	uint32_t peak, held;	/* MiB listed: the most, the last */
};

/* out.c: the random numbers, from synth_rng_state. */
extern uint64_t synth_rng_state;
uint64_t synth_rng_below(uint64_t n);
/* out.c: the writers (synth_device_rec and synth_proc_rec say what they
 * write). */
void synth_flush_gmem(struct synth *s);
void synth_device_rec(struct synth *s, uint32_t gi, uint64_t ts,
    uint64_t used);
void synth_proc_rec(struct synth *s, uint32_t gi, uint32_t pid,
    const char *name, uint64_t ts, uint32_t used);

/* oneloop.c: the scenario s->sc (tasks sorted by start), s->ticks samples. */
void synth_run(struct synth *s);

/* twoloop.c: the tasks of two-loop sc, *n of them (free them). */
struct ctask *synth_ctasks(const struct scenario *sc, size_t *n);
/* twoloop.c: the loops lp over the tasks t[0..n-1], then their truth. */
void synth_run_loops(struct synth *s, struct ctask *t, size_t n,
    const struct loops *lp);

#endif
