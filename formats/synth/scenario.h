/* SPDX-License-Identifier: ISC */
/*
 * scenario.h: the scenarios of gpumem synth, as data: what each task of a
 * scenario does, in samples (one loop) or in true time (two loops), and
 * the table of them all, which --scenario and --list read.
 *
 * scenario_list[0..scenario_count-1] are in the order --list prints
 * them; a one-loop scenario's tasks need not be in start order (the
 * command sorts a copy).  Nothing here changes at run time.
 */
#ifndef GPUMEM_SCENARIO_H
#define GPUMEM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

/* A task as a scenario defines it, in samples (ticks) from the start. */
struct tdef {
	uint32_t gpu, pid;
	const char *name;
	uint64_t start, end;	/* ticks: first listed, first missing */
	uint32_t mem;		/* MiB held */
	uint64_t delay;		/* ticks after end until the memory is back */
	uint32_t leak;		/* MiB that never come back */
};

/*
 * A task of a two-loop scenario, in true time (ms from the start): the
 * process exists in [start, exit), and what it holds comes back at exit +
 * delay, but for leak MiB, which never come back (and then its context
 * with them).
 */
struct cdef {
	uint32_t gpu, pid;
	const char *name;
	uint64_t start, exit;	/* ms */
	uint32_t delay;		/* ms */
	uint32_t mem;		/* MiB compute-apps lists once ramped up */
	uint32_t leak;		/* MiB of mem that never come back */
	uint32_t ctx;		/* MiB the device holds for it on top of mem */
	unsigned lose;		/* process polls lost just before its exit */
	int notfound;		/* killed before its context was torn down:
				   listed "[Not Found]" from its exit until its
				   memory is back (to the end when leaked) */
};

/* Processes one after another on GPU 0, drawn from the seed. */
struct seqgen {
	size_t count;
	uint32_t pid;		/* of the first; +1 each */
	const char *name;
	uint32_t first;		/* ms: start of the first */
	uint32_t run[2], gap[2], mem[2], delay[2];	/* ms, MiB: [min, max] */
};

/*
 * A two-loop scenario: true times in ms, tasks from ct or made by seq, and
 * the loops' defaults, which the options override.
 */
struct twoloop {
	const struct cdef *ct;
	size_t nct;
	const struct seqgen *seq;
	uint64_t len;		/* ms; 0 = until the last release and 5 s */
	uint32_t pd, pp, off;	/* ms: device and process intervals, offset */
	int32_t drift;		/* ppm of the process loop's interval */
	unsigned lose_polls, lose_lines;	/* percent */
	uint32_t ramp;		/* ms per step of a task's ramp; 0 = none */
	uint64_t dip_at;	/* ms: GPU 0's first sample from then dips */
	uint32_t dip;		/* MiB by which it dips */
	uint32_t desk;		/* MiB on GPU 0 no process lists (graphics) */
	uint64_t desk_from, desk_to;	/* ms: when the device holds it */
	uint64_t pstop;		/* ms: the process loop dies then; 0 never */
	uint64_t restart;	/* ms: the process loop is restarted then, */
	uint32_t pp2;		/* polling every pp2 ms from then on */
};

struct scenario {
	const char *name;
	const char *what;
	uint32_t gpus;
	uint64_t ticks;		/* how long, in samples */
	uint32_t total, reserved, base;
	int jitter, noise, drop;	/* percent of interval, MiB, percent */
	const struct tdef *tasks;	/* sorted by start; NULL = random */
	size_t ntasks;
	const struct twoloop *tl;	/* two loops (then ticks is 0) */
};

/* Every scenario, and how many. */
extern const struct scenario scenario_list[];
extern const size_t scenario_count;

#endif
