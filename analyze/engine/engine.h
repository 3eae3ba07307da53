/* SPDX-License-Identifier: ISC */
/*
 * engine.h: from the record stream to usage samples and tasks, in one pass
 * and in memory bounded by the GPUs and the live or waiting tasks.
 *
 * Definitions (docs/analysis.md has them with a picture):
 *
 *   usage        memory_total - memory_free of a whole-device sample (or
 *                memory_used when the log has no free; a configured total
 *                stands in for a missing one).
 *   attributed   the memory held by the processes alive at that instant
 *                (as they were listed around the sample).
 *   unattributed usage - attributed: memory no live process owns.
 *
 *   A task is one life of a process on a GPU of a host.  start: its first
 *   listing with memory_used > 0.  end: its record with memory_used = 0
 *   (the first poll that missed it), or its last listing when there is
 *   none (then it is "running").  held: its last listing; peak: the most
 *   it listed.
 *
 *   release: the first judged device sample at which the memory the task
 *   held (with the context memory measured over its life) has come back
 *   within the tolerance of the level before its end, and still is at the
 *   next judged sample (a one-sample dip gives nothing back).  delay =
 *   release - end, 0 when the memory came back before the poll that
 *   missed the process; delay_lo and delay_hi bound it by the samples
 *   around the end and the release.  When several tasks wait at once, a
 *   drop goes to the likeliest set of them (recency; sizes within the
 *   tolerance, or up to a quarter short for contexts not seen), or in part
 *   to one larger task.  What has not come back by the last sample is
 *   leaked.
 *
 *   Tasks declared from outside (--tasks, for device-only logs) have no
 *   process records: they are judged from usage alone (declared.h).  A
 *   GPU with neither process records nor declared tasks gets the episodes
 *   of its usage curve as tasks (episode.h: pid 0, "(unlisted)", note
 *   "device-only"), emitted at the end of the data, when a task callback
 *   is given (a tool that draws curves alone has no use for them).
 *
 * Device samples and process polls come from two loops out of step: a
 * device sample is judged once the poll after it is in (1.5 poll
 * intervals later), with every process as it was listed around it; a
 * task last listed before the sample and gone later may have given its
 * memory back there, and a sample between the two polls around a change
 * of a process's memory is not judged.  A process listed again soon after
 * an end made up from missing polls lives on; a pid whose listing falls
 * while the device keeps its memory is two lives.  docs/analysis.md has
 * every rule with an example.
 *
 * Memory is bounded on hostile input too: at most ENGINE_MAXGPUS GPUs
 * (the records of GPUs beyond are not analysed), ENGINE_MAXLIVE processes
 * alive at once (the records of processes beyond are not tracked), and
 * ENGINE_MAXWAIT tasks waiting for their memory on one GPU (beyond, the
 * earliest ended is given up as leaked at once) and as many declared on
 * one GPU (those beyond are left out).  Each is counted in the
 * stats and said by engine_warnings().  Device samples waiting for their
 * poll's process records are judged early beyond ENGINE_MAXPENDING.
 */
#ifndef GPUMEM_ENGINE_H
#define GPUMEM_ENGINE_H

#include <stdint.h>

#include "config.h"
#include "rec.h"

enum task_status { TASK_RELEASED, TASK_LEAKED, TASK_RUNNING };

/*
 * What the data could not decide about a task, or had to mend (struct
 * task.notes; tasktab.h names them).
 */
enum task_note {
	NOTE_GAP = 1 << 0,	/* the release fell in a hole of the data */
	NOTE_AMBIGUOUS = 1 << 1,	/* another set of tasks fitted as well */
	NOTE_PIDREUSE = 1 << 2,	/* its pid went on with a new process */
	NOTE_RESUMED = 1 << 3,	/* missing from polls, then listed again */
	NOTE_LASTSAMPLE = 1 << 4,	/* back only in the last sample */
	NOTE_ESTIMATED = 1 << 5,	/* memory never listed (N/A): judged from
				   its life and the device's usage */
	NOTE_DEVONLY = 1 << 6,	/* no process listed on its GPU: an episode
				   of the usage curve (episode.h) */
	NOTE_EXACT = 1 << 7,	/* its end is its exit, from gpumem record's
				   procs.csv (recdir.h) */
	NOTE_HOLDER = 1 << 8,	/* named after the process that held its GPU
				   open (holders.csv, recdir.h) */
	NOTE_LOGSTOP = 1 << 9,	/* listed at the process log's last poll,
				   long before the device log's end: it may
				   have lived on (engemit.c, log_stopped) */
	NOTE_NOTFOUND = 1 << 10	/* listed "[Not Found]" after its death,
				   its memory still held (englife.c) */
};

struct task {
	const char *host;
	uint32_t gpu, pid;	/* pid 0 for a declared task */
	const char *name;
	uint64_t start, end;
	uint32_t peak, held;
	uint64_t release;	/* 0: not released */
	uint64_t delay;		/* release - end, ns, when released */
	uint64_t delay_lo, delay_hi;	/* what the data allows of delay */
	int has_leaked;		/* leaked known (0: no device samples) */
	uint32_t leaked;
	enum task_status status;
	uint64_t interval;	/* the GPU's sampling interval, 0 unknown */
	int declared;
	unsigned notes;		/* enum task_note */
};

struct sample {
	uint64_t ts;
	const char *host;
	uint32_t gpu;
	int has_total, has_free;
	uint32_t total, free;
	uint32_t usage;
	uint32_t attributed;
	int64_t unattributed;	/* may be < 0 when logs disagree in time */
};

struct engine_cb {
	void (*sample)(void *ctx, const struct sample *s);	/* may be NULL */
	void (*task)(void *ctx, const struct task *t);		/* may be NULL */
	void *ctx;
};

#define ENGINE_MAXGPUS 65536	/* GPUs analysed, all hosts */
#define ENGINE_MAXLIVE 65536	/* processes alive at once, all GPUs */
#define ENGINE_MAXWAIT 4096	/* tasks waiting for their memory, one GPU */
#define ENGINE_MAXPENDING 65536	/* device samples awaiting their poll */

struct engine_stats {
	uint64_t records, samples, nousage, tasks;
	uint64_t released, leaked, running, unknown;
	uint64_t leaked_mib;
	uint64_t capped;	/* records of processes not tracked (cap) */
	uint64_t gpucapped;	/* records of GPUs not analysed (cap) */
	uint64_t waitcapped;	/* tasks given up as leaked early (cap) */
	uint64_t declcapped;	/* declared tasks left out (cap) */
	uint64_t early;		/* device samples judged early (cap) */
	uint64_t ambiguous;	/* samples amid a change: not judged */
	uint64_t dips;		/* drops seen in one sample only */
	uint64_t resumed;	/* ends undone: listed again */
	uint64_t splits;	/* pids found reused: two tasks */
	uint64_t episodes;	/* tasks of GPUs no process was listed on */
	uint64_t episode_gpus;	/* those GPUs */
	uint64_t episode_mib;	/* the memory of their leaked episodes */
	uint64_t episode_held;	/* of them, named after a holder */
	uint64_t episode_merged;	/* episodes merged for lack of room */
	uint64_t unowned_gpus;	/* GPUs with processes and memory left at
				   the end that no task holds */
	uint64_t unowned_mib;	/* that memory */
	uint64_t unowned_drops;	/* drops taken as memory no task held */
};

struct engine;

/* cfg and cb must outlive the engine. */
struct engine *engine_new(const struct config *cfg, const struct engine_cb *cb);

/*
 * A task declared from outside (device-only logs): judged on (host, gpu)
 * between start and end.  Declare before the first record.
 */
void engine_declare(struct engine *e, const char *host, uint32_t gpu,
    const char *name, uint64_t start, uint64_t end);

/*
 * A task estimated from a process whose memory was never listed
 * (nvidia-smi prints N/A on Windows WDDM): declared like the tasks of
 * engine_declare(), with its pid, and noted NOTE_ESTIMATED.  end is 0 for
 * a process still listed at the end of the data (a running task).  The
 * process started in [from, start] and ended in [until, end] (the two
 * loops are out of step): its start level is the usage before from, its
 * held what the usage is just before until (declared.h).
 */
void engine_declare_estimated(struct engine *e, const char *host,
    uint32_t gpu, uint32_t pid, const char *name, uint64_t start,
    uint64_t end, uint64_t from, uint64_t until);

/*
 * The lives of processes listed with their memory N/A (WDDM) seen so far:
 * fn (unless NULL) is called for each, in order of start, with end 0 for
 * one still listed at the end.  start is its first listing, from just
 * after the poll before it (one poll interval of the process log earlier:
 * it started after that poll); end is the first poll that missed it,
 * until just after its last listing (0 while listed at the end).  Return
 * their number.  A tool that finds any reads its inputs again, declaring
 * them (engine_declare_estimated()).
 */
typedef void engine_life_fn(void *ctx, const char *host, uint32_t gpu,
    uint32_t pid, const char *name, uint64_t start, uint64_t end,
    uint64_t from, uint64_t until);
size_t engine_unlisted(const struct engine *e, engine_life_fn *fn,
    void *ctx);

struct recdir;
/*
 * The exact exits and device holders of the recording directories among
 * the inputs (recdir.h; NULL: none), used from now on: rd must outlive
 * the engine.
 */
void engine_recdir(struct engine *e, const struct recdir *rd);

/* The next record of the stream (in time order). */
void engine_put(struct engine *e, const struct rec *r);

/* The stream has ended: judge what is left. */
void engine_end(struct engine *e);

const struct engine_stats *engine_stats(const struct engine *e);

/* Say on stderr what the data could not tell (once, at the end). */
void engine_warnings(const struct engine *e);

void engine_free(struct engine *e);

#endif
