/*
 * physgpu: one logged GPU index that is several physical GPUs over time.
 *
 * A job's log appended to on other nodes (or logs of other machines joined
 * with cat) shows "GPU 0" with another bus id or UUID; a card swapped in
 * its slot, another UUID (or memory.total) on the same bus id.  Each
 * identity is read as a GPU of its own: the first identity under an index
 * keeps the index; a new one takes the first number no GPU of the host
 * has, said once per log with the line, with -q too.  A row without an
 * identity keeps its index.
 * Shared by the table reader (table.c) and the query-gpu CSV reader
 * (nvsmi.c) so both split, and say it, the same way.
 */
#ifndef PHYSGPU_H
#define PHYSGPU_H

#include <stdint.h>

#include "format.h"
#include "hmap.h"
#include "util.h"

#define PHYSGPU_MAX 64		/* logged indexes followed */

struct physgpu {
	struct hmap idnum;	/* host, id -> number read as (+ 1) */
	struct hmap used;	/* host, number -> taken */
	uint32_t cur[PHYSGPU_MAX];	/* each index's number, latest row */
	/* Each index's latest key (host NUL id), whose number is cur[]: a
	   log names the same GPUs row after row. */
	struct sbuf last[PHYSGPU_MAX];
	struct sbuf k;		/* scratch */
	int said;
};

void physgpu_init(struct physgpu *g);

/*
 * The number logged index idx of identity id (what: "bus id" or "UUID")
 * on host is read as.  id "" or idx beyond PHYSGPU_MAX: idx.
 */
uint32_t physgpu_of(struct physgpu *g, struct source *s, const char *host,
    const char *what, const char *id, uint32_t idx);

/*
 * Whether the latest identity under idx on host is id: then *n is the
 * number physgpu_of gives it, and nothing of g changes (a fork of a
 * parser may ask; physgpu_of would change g).
 */
int physgpu_last(struct physgpu *g, const char *host, const char *id,
    uint32_t idx, uint32_t *n);

/* The number idx was last read as, for rows that name only the index. */
uint32_t physgpu_cur(const struct physgpu *g, uint32_t idx);

/*
 * g becomes a copy of from for a fork of its parser: the latest identity
 * and number of each index (physgpu_last), no maps (physgpu_of must not
 * be called on it).
 */
void physgpu_copy(struct physgpu *g, const struct physgpu *from);

void physgpu_release(struct physgpu *g);

#endif
