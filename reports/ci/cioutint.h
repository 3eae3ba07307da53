/* SPDX-License-Identifier: ISC */
/*
 * cioutint.h: what the writers of gpumem check's verdicts share, callers
 * do not (their contract is ciout.h): ciout.c (text, Markdown) defines
 * both, cijson.c (JSON) and cimetrics.c (OpenMetrics) use them.
 */
#ifndef GPUMEM_CIOUTINT_H
#define GPUMEM_CIOUTINT_H

#include "gates.h"

/* A task's status by enum task_status: "released", "leaked", "running". */
extern const char *const ciout_status_names[];
/* How task t differs from its baseline task b (either may be NULL). */
const char *ciout_change_of(const struct task *t, const struct task *b);

#endif
