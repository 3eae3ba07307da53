/* SPDX-License-Identifier: ISC */
/*
 * baseline.c: gpumem check against a baseline run (gates.h): tasks
 * matched by host, GPU, name and order of start; the leak and delay
 * regressions; the baseline tasks that vanished.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatesint.h"
#include "gtime.h"
#include "hmap.h"
#include "util.h"

/* A double as uint64_t, clamped to [0, UINT64_MAX] (a cast would be UB). */
static uint64_t
sat_u64(double d)
{
	if (!(d > 0))
		return 0;
	if (d >= 18446744073709551616.0)	/* 2^64 */
		return UINT64_MAX;
	return (uint64_t)d;
}

int
gates_one_host(const struct run *r)
{
	size_t i;

	for (i = 1; i < r->ngpu; i++)
		if (strcmp(r->gpu[i].host, r->gpu[0].host) != 0)
			return 0;
	return 1;
}

/* The key of a task for matching: host (unless ignored), gpu, name, k. */
static void
match_key(struct sbuf *sb, const struct task *t, int hosts, uint64_t k,
    int with_k)
{
	sbuf_reset(sb);
	if (hosts)
		sbuf_adds(sb, t->host);
	sbuf_addc(sb, '\0');
	sbuf_add(sb, &t->gpu, sizeof(t->gpu));
	sbuf_adds(sb, t->name);
	sbuf_addc(sb, '\0');
	if (with_k)
		sbuf_add(sb, &k, sizeof(k));
}

/* The occurrence of t's key so far, counted in seen. */
static uint64_t
occurrence(struct hmap *seen, struct sbuf *sb, const struct task *t,
    int hosts)
{
	void **slot;
	uint64_t k;

	match_key(sb, t, hosts, 0, 0);
	slot = hmap_put(seen, sb->buf, sb->len, NULL);
	k = (uint64_t)(uintptr_t)*slot;
	*slot = (void *)(uintptr_t)(k + 1);
	return k;
}

/*
 * The occurrence of each task of l among the tasks of its GPU and name,
 * in order of start, from 1: "the second python3 on GPU 0".
 */
void
gates_occurrences(const struct tasklist *l, uint32_t *occ)
{
	struct hmap seen = HMAP_INIT;
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < l->n; i++)
		occ[i] = (uint32_t)occurrence(&seen, &sb, &l->t[i], 1) + 1;
	hmap_release(&seen, NULL);
	sbuf_release(&sb);
}

/*
 * Fill vs->match: each task of now with its baseline task, or NULL; mark
 * the baseline tasks matched in used, and store the occurrence of each
 * in bocc.
 */
void
gates_match(struct verdicts *vs, int hosts, unsigned char *used, uint32_t *bocc)
{
	const struct tasklist *b = &vs->base->tl, *n = &vs->now->tl;
	struct hmap seen = HMAP_INIT, idx = HMAP_INIT;
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < b->n; i++) {
		uint64_t k = occurrence(&seen, &sb, &b->t[i], hosts);

		bocc[i] = (uint32_t)k + 1;
		match_key(&sb, &b->t[i], hosts, k, 1);
		*hmap_put(&idx, sb.buf, sb.len, NULL) = (void *)(uintptr_t)
		    (i + 1);
	}
	hmap_release(&seen, NULL);
	for (i = 0; i < n->n; i++) {
		uint64_t k = occurrence(&seen, &sb, &n->t[i], hosts);
		void **slot;

		match_key(&sb, &n->t[i], hosts, k, 1);
		slot = hmap_get(&idx, sb.buf, sb.len);
		if (slot != NULL) {
			size_t j = (size_t)(uintptr_t)*slot - 1;

			vs->match[i] = &b->t[j];
			used[j] = 1;
			vs->matched++;
		} else
			vs->appeared++;
	}
	vs->vanished = b->n - vs->matched;
	hmap_release(&seen, NULL);
	hmap_release(&idx, NULL);
	sbuf_release(&sb);
}

/* line: of the rule's key in the configuration, 0 when not there. */
static void
base_src(struct verdicts *vs, struct verdict *v, unsigned line)
{
	struct sbuf sb = SBUF_INIT;

	if (line != 0)
		sbuf_printf(&sb, "baseline, %s:%u", vs->lim->cfg->path, line);
	else
		sbuf_adds(&sb, "built-in");
	v->src = sb.buf;
}

void
gates_base_leak(struct verdicts *vs, const struct task *t,
    const struct task *b)
{
	const struct config *c = vs->lim->cfg;
	uint32_t allow = c->has_leak_regression ? c->leak_regression_mib : 0;
	struct verdict *v = gates_add(vs, GATE_BASE_LEAK, t->host, t->gpu, t,
	    b);
	int bleak = b != NULL && b->status == TASK_LEAKED;

	base_src(vs, v, c->has_leak_regression ? c->leak_regression_line : 0);
	v->unit = "MiB";
	if (t->status == TASK_RUNNING) {
		gates_set_msg(v, RES_SKIP, "%s", gates_running_msg);
		return;
	}
	if (t->status != TASK_LEAKED) {
		gates_mib_value(v->value, 0);
		if (bleak && b->has_leaked)
			gates_set_msg(v, RES_PASS, "nothing leaked (%u MiB in "
			    "the baseline)", b->leaked);
		else if (bleak)
			gates_set_msg(v, RES_PASS, "nothing leaked (an unknown "
			    "amount in the baseline)");
		else
			gates_set_msg(v, RES_PASS, "nothing leaked%s",
			    b == NULL ? " (not in the baseline)" : "");
		return;
	}
	if (t->has_leaked)
		gates_mib_value(v->value, t->leaked);
	if (!bleak) {
		/* From no leak to a leak: new, whatever its size. */
		gates_mib_value(v->limit, 0);
		if (t->has_leaked)
			gates_set_msg(v, RES_FAIL,
			    "leaked %u MiB, a new leak: %s", t->leaked,
			    b == NULL ? "the task is not in the "
			    "baseline" : "none in the baseline");
		else
			gates_set_msg(v, RES_FAIL, "leaked an unknown amount, "
			    "a new leak: %s", b == NULL ? "the task is not in "
			    "the baseline" : "none in the baseline");
		return;
	}
	if (!t->has_leaked || !b->has_leaked) {
		gates_set_msg(v, RES_SKIP, "leaked in both runs, %s unknown: "
		    "cannot compare", !t->has_leaked ? "how much now" :
		    "how much in the baseline");
		return;
	}
	gates_mib_value(v->limit, (int64_t)b->leaked + allow);
	if (t->leaked > (uint64_t)b->leaked + allow)
		gates_set_msg(v, RES_FAIL, "leaked %u MiB, %u MiB in the "
		    "baseline: %+lld MiB, more than %u", t->leaked, b->leaked,
		    (long long)t->leaked - b->leaked, allow);
	else
		gates_set_msg(v, RES_PASS, "leaked %u MiB, %u MiB in the "
		    "baseline: %+lld MiB, within %u", t->leaked, b->leaked,
		    (long long)t->leaked - b->leaked, allow);
}

void
gates_base_delay(struct verdicts *vs, const struct task *t,
    const struct task *b)
{
	const struct config *c = vs->lim->cfg;
	double r = c->has_delay_regression ? c->delay_regression :
	    BUILTIN_DELAY_REGRESSION;
	struct verdict *v;
	uint64_t now, was, iv, limit, rel;
	char dn[32], db[32], dl[32], pct[48], ivs[32];

	if (b == NULL || t->status != TASK_RELEASED ||
	    b->status != TASK_RELEASED)
		return;
	v = gates_add(vs, GATE_BASE_DELAY, t->host, t->gpu, t, b);
	base_src(vs, v, c->has_delay_regression ? c->delay_regression_line :
	    0);
	v->unit = "s";
	now = gates_delay_rounded(t);
	was = gates_delay_rounded(b);
	iv = t->interval > b->interval ? t->interval : b->interval;
	/* Delays from hostile times reach 2^64 ns: saturate, never wrap. */
	rel = sat_u64((double)was * (1 + r) + 0.5);
	limit = was > UINT64_MAX - iv ? UINT64_MAX : was + iv;
	if (rel > limit)
		limit = rel;
	snprintf(v->value, sizeof(v->value), "%s", gates_delay_str(t, dn));
	gates_delay_str(b, db);
	gtime_fmt_secs(limit, dl);
	snprintf(v->limit, sizeof(v->limit), "%s", dl);
	if (was > 0)
		snprintf(pct, sizeof(pct), " (%+.0f%%)",
		    ((double)now - (double)was) * 100 / (double)was);
	else
		pct[0] = '\0';
	if (rel == limit)
		snprintf(ivs, sizeof(ivs), "%g%%", r * 100);
	else
		snprintf(ivs, sizeof(ivs), "one sampling interval");
	gates_set_msg(v, now > limit ? RES_FAIL : RES_PASS, "released after %s "
	    "s, %s s in the baseline%s: %s %s s, the baseline + %s", dn, db,
	    pct, now > limit ? "more than" : "within", dl, ivs);
}

void
gates_vanished(struct verdicts *vs, const char *host, const struct task *b,
    uint32_t occ)
{
	struct verdict *v = gates_add(vs, GATE_VANISHED, host, b->gpu, NULL, b);
	char d[32];

	v->occ = occ;
	if (b->status == TASK_RELEASED)
		gates_set_msg(v, RES_SKIP, "in the baseline (pid %u, released "
		    "after %s s), not in this run", b->pid,
		    gates_delay_str(b, d));
	else
		gates_set_msg(v, RES_SKIP, "in the baseline (pid %u, %s), not "
		    "in this run", b->pid, b->status == TASK_LEAKED ? "leaked" :
		    "running");
}
