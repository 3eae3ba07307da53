/* SPDX-License-Identifier: ISC */
/*
 * colguess.h: the columns of a header-less nvidia-smi --query-gpu log
 * (--format=csv,noheader[,nounits]) told from their values.
 *
 * A column is a timestamp when every value is a time (nvidia-smi's, ISO
 * 8601, or epoch seconds in the first column); a uuid ("GPU-..."); a
 * pci.bus_id ("00000000:3B:00.0"); a name ("NVIDIA A100-SXM4-40GB");
 * an index when its values are integers 0..n-1; memory when its values
 * are MiB.  Among the memory columns, memory.total is the one that stays
 * the same on every row of a GPU and is at least every other; used and
 * free are told apart by the rows of an idle GPU: used near 0 (at most a
 * 32nd of the total), free near the total.  Without units (nounits), a
 * pair of integer columns that add up to the total (within a 16th: R510
 * and later reserve some) is taken as used and free, by the same rule.
 * Other columns are named colN (N counted from 1): ignored.
 */
#ifndef GPUMEM_COLGUESS_H
#define GPUMEM_COLGUESS_H

#include <stddef.h>

#include "sbuf.h"

enum colguess {
	COLGUESS_NONE,		/* no rows to judge, or no memory column */
	COLGUESS_OK,		/* *fields is the list, *why what told it */
	COLGUESS_AMBIGUOUS	/* *why says what is unclear; *fields a
				   list to start from */
};

/*
 * Judge the sample lines (NUL-terminated, without line ends; lines
 * without a comma are passed over).  Fill fields with a --fields list and
 * why with a phrase for people.  The lines are not modified.
 */
enum colguess colguess(char *const *lines, size_t n, struct sbuf *fields,
    struct sbuf *why);

#endif
