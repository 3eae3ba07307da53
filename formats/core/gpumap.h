/* SPDX-License-Identifier: ISC */
/*
 * gpumap.h: GPU identities (UUID, PCI bus id) to GPU indexes, per host.
 *
 * nvidia-smi's per-process logs name a GPU by UUID or bus id, never by
 * index; device logs may carry all three.  Every input of one run shares a
 * map: device logs teach it, and records that name a GPU by UUID or bus id
 * are resolved through it as they leave the reader.  A GPU whose index no
 * log gives is numbered: in PCI bus order among those known when the first
 * one is asked for (nvidia-smi's own order), then in order of appearance.
 *
 * A bus id or UUID is a GPU's identity across every input: a GPU a log
 * gives an index another GPU (named apart) has already is a GPU of its
 * own, read as the first number free on its host (two machines' "GPU 0"
 * read without hosts; a card swapped in a slot, which has a new UUID).
 * The records of that input that carry the logged index are read as that
 * number (gpumap_local).
 *
 * A run keeps at most GPUMAP_MAX identities (hostile logs name millions):
 * beyond, what device logs teach is forgotten and a GPU named by a new
 * key gets no index (GPUMAP_FULL), so the reader skips its records.
 */
#ifndef GPUMEM_GPUMAP_H
#define GPUMEM_GPUMAP_H

#include <stdint.h>

#include "hmap.h"
#include "util.h"

#define GPUMAP_MAX 65536	/* GPU identities a run keeps */

struct gpumap;

enum gpumap_how {
	GPUMAP_LOGGED,		/* a log gave the index */
	GPUMAP_BUSORDER,	/* in a log without indexes: PCI bus order */
	GPUMAP_LOGORDER,	/* in a log without indexes or bus ids: order seen */
	GPUMAP_APPEARANCE,	/* named by no device log: order of appearance */
	GPUMAP_FULL		/* new, and GPUMAP_MAX are known: no index */
};

struct gpumap *gpumap_new(void);
void gpumap_free(struct gpumap *m);

/*
 * Input src (its position; name, its name for messages, or NULL) saw a
 * GPU on host in a device log.  uuid and bus may be NULL or "" when the
 * log lacks them; index is negative when it has no index.  Return 1 when
 * src's index is read as another number for the first time, with why (if
 * not NULL) told which and why, else 0.
 */
int gpumap_learn(struct gpumap *m, unsigned src, const char *name,
    const char *host, const char *uuid, const char *bus, int64_t index,
    struct sbuf *why);

/*
 * The number a record of input src that carries logged index gpu of host
 * is read as: gpu itself unless gpumap_learn said otherwise.
 */
uint32_t gpumap_local(const struct gpumap *m, unsigned src,
    const char *host, uint32_t gpu);

/*
 * How many times a key has come to name another GPU than before (a card
 * swapped in a slot): answers of gpumap_index() kept by a caller are
 * stale when this changes.
 */
uint64_t gpumap_gen(const struct gpumap *m);

/*
 * The index of the GPU named key (a UUID or bus id) on host, numbering it
 * if no log gave one; *how says which way the index was found.  With
 * GPUMAP_FULL the return value means nothing.
 */
uint32_t gpumap_index(struct gpumap *m, const char *host, const char *key,
    enum gpumap_how *how);

/*
 * The hash key of a GPU: host, a NUL, the index.  GPU 0 of one host is not
 * GPU 0 of another, so every table of GPUs is keyed so.
 */
static inline void
gpu_key(struct sbuf *k, const char *host, uint32_t gpu)
{
	sbuf_reset(k);
	sbuf_adds(k, host);
	sbuf_addc(k, '\0');
	sbuf_add(k, &gpu, sizeof(gpu));
}

/*
 * The GPU numbers one input names, counted for its summary line: a hash
 * set that keeps at most GPUMAP_MAX of them (a hostile log may name a new
 * one on every row) and then only says there were more.  Zeroed = empty.
 */
#define GPUSET_LOW 256	/* GPUs below: a bit each, before the map */
struct gpuset {
	struct hmap seen;
	uint64_t low[GPUSET_LOW / 64];	/* in seen already */
	uint32_t n;
	int more;		/* numbers beyond GPUMAP_MAX came */
};
void gpumap_set_add(struct gpuset *s, uint32_t gpu);
/* Append "1 GPU", "8 GPUs" or "more than 65536 GPUs" to sb. */
void gpumap_set_say(const struct gpuset *s, struct sbuf *sb);
/*
 * Append a summary's count of what of s: ", 3 samples of 1 GPU" (n what,
 * made plural unless 1, then gpumap_set_say).
 */
void gpumap_set_say_of(const struct gpuset *s, uint64_t n, const char *what,
    struct sbuf *sb);
void gpumap_set_release(struct gpuset *s);

/*
 * The one order of GPUs: by host name (bytes, as strcmp), then by index
 * as a number (GPU 2 before GPU 10).  <0, 0 or >0 as strcmp.
 */
int gpumap_hostgpu_cmp(const char *h1, uint32_t g1, const char *h2,
    uint32_t g2);


/* Whether s looks like a PCI bus id ("00000000:01:00.0", "0000:00:03.0"). */
int gpumap_is_bus(const char *s);

#endif
