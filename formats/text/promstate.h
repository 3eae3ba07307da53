/* SPDX-License-Identifier: ISC */
/*
 * promstate.h: the state of one Prometheus text being read, shared by
 * the modules of its parser: prom.c (the format: the lines, each sample
 * into the scrape being gathered) and promscrape.c (a scrape ended: its
 * times, GPUs and processes written as records).  Private to them;
 * prom.h is the format, promline.h the sample lines.
 */
#ifndef GPUMEM_PROMSTATE_H
#define GPUMEM_PROMSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "hmap.h"
#include "prom.h"
#include "promline.h"
#include "sclock.h"

/* A GPU of the scrape, at one time. */
struct pgpu {
	char *host, *uuid, *bus;
	int64_t index;
	uint64_t ts;
	int have_ts;
	size_t seq;		/* order of appearance, for a stable sort */
	unsigned has;		/* REC_* and HAS_RESERVED */
	uint32_t used, free, total, reserved;
};
#define HAS_RESERVED (1U << 8)

/* A process of the scrape (an exporter's, or a Kubernetes pod's). */
struct pproc {
	char *host, *uuid, *name;
	int64_t index;		/* from a gpu label, or -1 */
	uint32_t pid, used;
	int has_used;
	uint64_t ts;
	int have_ts;
	int pod;		/* a pod of dcgm-exporter's Kubernetes labels */
	unsigned bits;		/* a pod's: which FB series it had (REC_*) */
};

struct prom {
	struct source *s;

	/* The scrape being read. */
	struct hmap families;	/* names seen in it */
	struct sbuf last;	/* the family of the previous sample */
	int pending;		/* a time line came for it */
	uint64_t pending_ts;
	int procs_here;		/* it has per-process families */
	struct pgpu *gpus;
	size_t ngpus, capgpus;
	struct pproc *procs;
	size_t nprocs, capprocs;
	struct hmap gpuidx;	/* host\0id\0ts -> 1 + index in gpus */
	struct hmap uuidx;	/* host\0uuid -> 1 + GPU index (nvidia_smi_index) */

	struct sclock clock;
	int clock_said, any_mem, dcgm, nvexp, any_sample, lines;
	uint64_t scrapes, migs, nomem;
	uint64_t pods, shared;	/* pod samples; those on a shared GPU */
	struct hmap sharers;	/* host\0GPU\0pid: pods that shared a GPU */
	uint64_t nrec;		/* records written (a bundle's section: its own) */
	struct sbuf key, name;
	struct prom_line pl;
};

/* prom.c's calls into promscrape.c */

/* Forget the scrape gathered (its GPUs, processes, families). */
void prom_scrape_clear(struct prom *p);

/* The GPU index the scrape gives for uuid on host, or -1. */
int64_t prom_uuid_index(struct prom *p, const char *host, const char *uuid);

/* p->key = "host\0uuid\0", or "host\0#index\0" without a uuid. */
void prom_series_gpu_key(struct prom *p, const char *host, const char *uuid,
    int64_t index);

/* The scrape has ended: write what it gathered, and clear it. */
void prom_flush(struct prom *p);

#endif
