/* SPDX-License-Identifier: ISC */
/*
 * gatesint.h: what the files of gpumem check's rules share, callers do
 * not (their contract is gates.h and run.h): gates.c judges a run and
 * holds the verdict helpers, baseline.c compares it with a baseline,
 * run.c collects it.
 */
#ifndef GPUMEM_GATESINT_H
#define GPUMEM_GATESINT_H

#include <stddef.h>
#include <stdint.h>

#include "gates.h"

/* run.c: room for element n of *p, doubling *cap (from 16). */
void *run_grow(void *p, size_t n, size_t *cap, size_t size);

/* gates.c: a new verdict of vs, zeroed but for these. */
struct verdict *gates_add(struct verdicts *vs, enum gate g, const char *host,
    uint32_t gpu, const struct task *t, const struct task *base);
/* gates.c: the verdict's result and its message (printf). */
void gates_set_msg(struct verdict *v, enum result res, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* gates.c: MiB as a verdict's value or limit (32 bytes). */
void gates_mib_value(char *buf, int64_t v);
/* gates.c: the message of a task still running at the last sample. */
extern const char gates_running_msg[];

/* baseline.c: whether every GPU of r is on one host (or r has none). */
int gates_one_host(const struct run *r);
/* baseline.c: the occurrence of each task of l on its GPU, from 1. */
void gates_occurrences(const struct tasklist *l, uint32_t *occ);
/* baseline.c: vs->match, used[] and bocc[] (match says how). */
void gates_match(struct verdicts *vs, int hosts, unsigned char *used,
    uint32_t *bocc);
/* baseline.c: the baseline rules on t and its match b (NULL: none). */
void gates_base_leak(struct verdicts *vs, const struct task *t,
    const struct task *b);
void gates_base_delay(struct verdicts *vs, const struct task *t,
    const struct task *b);
/* baseline.c: the verdict on baseline task b, which has no match. */
void gates_vanished(struct verdicts *vs, const char *host, const struct task *b,
    uint32_t occ);

#endif
