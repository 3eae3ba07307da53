/* SPDX-License-Identifier: ISC */
/*
 * engstate.h: the engine's private state, shared by the files of the
 * engine (engine.h is its contract): the tunables, the state of a GPU
 * and of its processes, and the functions the files call in one another.
 * engine.c feeds records in and ends the stream; engclock.c keeps the
 * cadence of the loops and the judged samples' history; englife.c
 * follows the lives of processes; engsample.c judges device samples;
 * engrelease.c tells which waiting task gave memory back; engemit.c
 * writes tasks out and ends a GPU; engstats.c says the counts.  Private
 * to analyze/engine/.
 */
#ifndef GPUMEM_ENGSTATE_H
#define GPUMEM_ENGSTATE_H

#include <stdint.h>

#include "declared.h"
#include "engine.h"
#include "episode.h"
#include "gtime.h"
#include "hmap.h"
#include "util.h"

#define NGAPS 31		/* gaps kept per cadence, for the median */
#define SUBSET_MAX 16		/* waiting tasks searched exhaustively */
#define NGCACHE 64		/* GPUs remembered by index, per host */
#define TIE_SCORE 0.05		/* sets within 5% of the likeliest tie */
#define RECENCY_S 60.0		/* a release is this likely within a minute */
#define PARTIAL 0.2		/* a part given back, against a whole */
#define NHIST 64		/* judged samples remembered per GPU */
#define NEVT 64			/* times of a GPU's latest starts and ends */
#define CTX_MAX 4096		/* context memory believed, MiB */
#define CTX_SLACK 1024		/* context memory assumed where not seen */
#define RESUME_POLLS 8		/* polls a process may be missing from */
#define LAG_MAX (600 * NS_PER_SEC)	/* poll intervals believed */
#define SAME_POLL NS_PER_MS	/* a listing this soon after: one poll */
#define LOG_STOP 20		/* process intervals of silence to the end */
#define LOG_STOP_MIN (10 * NS_PER_SEC)	/* and at least this */

/* The usual gap between the times of a series: its median, kept current. */
struct cadence {
	uint64_t gaps[NGAPS];
	size_t ngaps, gnext;
	uint64_t n;
	int have;		/* a time was seen */
	uint64_t last;		/* the latest time */
	uint64_t prev;		/* the one before it, 0 when none */
	uint64_t median;	/* 0 while unknown */
};

/* Why a process's identity is in question (struct ptask.suspect). */
enum { SUS_NONE, SUS_RESUMED, SUS_DROP };

/* A process's life on a GPU: live, then waiting for its memory. */
struct ptask {
	uint32_t pid;
	char *name;
	uint64_t start, last, end;
	uint64_t pprev;		/* the poll before its first listing */
	uint32_t peak, held, cur;
	uint32_t prev;		/* cur before its latest change */
	uint64_t curts;		/* the listing that changed cur */
	uint64_t chgprev;	/* the listing before that one */
	uint32_t ctx;		/* device memory it held beyond its listing */
	int ctx_based;		/* ctx was taken out of the GPU's base */
	int have_before;
	int64_t ubefore;	/* unattributed level before it started */
	int have_early, early_done;
	int64_t uearly;		/* the unattributed level at the first judged
				   sample its listing held still around */
	uint64_t nev;		/* the GPU's starts and ends, at its start */
	uint32_t remaining;	/* waiting: MiB not yet back */
	uint64_t after;		/* device samples judged since the end */
	uint64_t lastnot;	/* the latest sample that showed it not back */
	int dipped;		/* its memory may have come back at a dip */
	unsigned notes;		/* enum task_note */
	size_t ridx;		/* 1 + its index on gpu.recent, 0 when off */
	int cand;		/* scratch: may give memory back at the sample */
	/* Its identity in question: the life before sus_ts. */
	int suspect;
	uint64_t sus_ts, o_start, o_last, o_end;
	uint32_t o_peak, o_held, o_ctx;
	int64_t sus_u0;		/* unattributed level were it one process */
	uint64_t sus_u0ts;	/* the sample of that level */
	uint64_t sus_gone;	/* a device sample between its two listings
				   at the level without it, 0 when none */
};

/* A judged device sample, remembered for the levels before a change. */
struct hist {
	uint64_t ts;
	int64_t unattr;
	uint64_t nev;
};

struct gpu {
	char *host;
	uint32_t gpu;
	struct hmap live;	/* pid -> struct ptask */
	struct ptask *hot;	/* of live, the one found last (live_get) */
	int64_t attributed;	/* the live tasks' latest listings */
	struct ptask **wait;	/* in order of their ends */
	size_t nwait, capwait;
	struct ptask **recent;	/* live tasks whose listing changed lately */
	size_t nrecent;
	struct ptask **sus;	/* live tasks whose identity is in question */
	size_t nsus;
	int have_base;
	int64_t base;		/* unattributed level with nothing waiting */
	uint64_t base_ts;	/* when base was taken */
	int have_sample;
	int64_t unattr;		/* at the latest judged sample */
	struct cadence dev;	/* device samples */
	struct cadence proc;	/* process polls */
	struct cadence cont;	/* a process's listings in a row (gaps) */
	struct hist hist[NHIST];
	size_t nhist, hnext;
	uint64_t nev;		/* tasks started and ended so far */
	uint64_t evt[NEVT];	/* when the latest of them happened (eng_ev_add) */
	int tent;		/* a drop seen once, awaiting the next sample */
	uint64_t tent_ts;
	int64_t tent_r;
	struct dgpu *decl;	/* declared tasks (declared.h) */
	int procs;		/* a process record was seen */
	int have_first;
	int64_t first_unattr;	/* at the first judged sample */
	uint64_t first_ts;	/* that sample's time */
	uint64_t leaked_mib;	/* what its leaked tasks left */
	struct episodes *ep;	/* its usage's episodes, while !procs */
	int64_t unowned;	/* memory that rose amid live tasks, MiB */
	uint64_t unowned_nev;	/* nev at the judged sample before */
};

/* A device sample waiting for the process records around it. */
struct pending {
	struct gpu *g;
	uint64_t ts;
	unsigned has;
	uint32_t used, free, total;
};

struct engine {
	const struct config *cfg;
	struct engine_cb cb;
	struct hmap gpus;	/* "host\0gpu" -> struct gpu */
	struct pending *pend;	/* a ring */
	size_t phead, pcount, pcap;
	size_t nlive;
	struct engine_stats st;
	const struct recdir *rd;	/* gpumem record's procs and holders */
	char *held1;		/* the first episode named after a holder */
	uint64_t negative;	/* samples with attributed > usage */
	struct sbuf key;
	struct hmap hosts;	/* host -> struct hostgpus */
	struct hostgpus *chost;	/* the host looked up last */
	struct declared *decl;	/* NULL: no task declared */
	/* Processes listed with their memory N/A (WDDM): their lives. */
	struct nalife *na;
	size_t nna;
	struct hmap nalive;	/* "host\0gpu pid" -> index + 1 in na */
};

/*
 * The GPUs of one host by index, found without building and hashing a
 * key: the merged stream gives a host's records in runs (a node's GPUs at
 * one time, then the next node's), so with hundreds of hosts a cache by
 * index alone missed on nearly every record.
 */
struct hostgpus {
	char *host;
	struct gpu *g[NGCACHE];	/* NULL: not looked up yet */
};

/* A life of a process whose memory was never listed. */
struct nalife {
	char *host, *name;
	uint32_t gpu, pid;
	uint64_t start, end;	/* end 0: listed until the end */
	uint64_t last;		/* its last listing */
	uint64_t iv;		/* the process log's poll interval, 0: unknown */
};

/* engclock.c: the cadence of the loops, the lag, the judged samples. */
void eng_cadence_gap(struct cadence *c, uint64_t gap);
void eng_cadence_add(struct cadence *c, uint64_t ts);
uint64_t eng_plus(uint64_t a, uint64_t b);
uint64_t eng_proc_iv(const struct gpu *g);
uint64_t eng_lag(const struct gpu *g);
uint64_t eng_same_poll(const struct gpu *g);
int eng_level_before(const struct gpu *g, uint64_t t, int64_t *u, uint64_t *nev);
const struct hist *eng_hist_before(const struct gpu *g, uint64_t t);
void eng_ev_add(struct gpu *g, uint64_t t);
void eng_hist_add(struct gpu *g, uint64_t ts, int64_t unattr);

/* englife.c: the lives of processes. */
void eng_ptask_free(void *p);
void eng_list_del(struct ptask **v, size_t *n, const struct ptask *t);
void eng_recent_del(struct gpu *g, struct ptask *t);
uint64_t eng_na_last(struct engine *e, const char *host, uint32_t gpu,
    uint32_t pid);
void eng_settle_suspect(struct engine *e, struct gpu *g, struct ptask *t);
void eng_process(struct engine *e, struct gpu *g, const struct rec *r);

/* engrelease.c: the waiting tasks, and who gave memory back. */
int eng_silence_end(const struct gpu *g, const struct ptask *p);
void eng_release_waiting(struct engine *e, struct gpu *g, struct ptask *p,
    uint64_t ts, unsigned notes);
void eng_wait_add(struct engine *e, struct gpu *g, struct ptask *p);
void eng_wait_ended(struct engine *e, struct gpu *g, struct ptask *t,
    int64_t level);
void eng_wait_emptied(struct gpu *g);
int eng_gone_by(const struct ptask *t, uint64_t ts);
void eng_give_back(struct engine *e, struct gpu *g, int64_t r, uint64_t ts);
int64_t eng_pending_at(const struct gpu *g, uint64_t ts);
void eng_judge(struct engine *e, struct gpu *g, uint64_t ts);

/* engsample.c: device samples, held until their polls are in. */
void eng_flush(struct engine *e, uint64_t now, int all);
void eng_push_pending(struct engine *e, struct gpu *g, const struct rec *r);

/* engemit.c: tasks written out; the end of a GPU. */
void eng_emit(struct engine *e, struct gpu *g, struct task *t);
void eng_task_init(struct task *t, const char *name, uint32_t pid, uint64_t start,
    uint64_t end, uint32_t peak, uint32_t held, enum task_status status);
void eng_emit_ptask(struct engine *e, struct gpu *g, const struct ptask *p,
    enum task_status status);
void eng_emit_declared(void *ctx, void *gp, const struct declared_task *d);
void eng_finish_gpu(struct engine *e, struct gpu *g);

#endif
