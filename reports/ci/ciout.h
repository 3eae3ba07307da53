/* SPDX-License-Identifier: ISC */
/*
 * ciout.h: the verdicts of gpumem check for people and for machines: the
 * lines of the verdict on stderr, a Markdown summary fit for a
 * pull-request comment or a CI job summary, and one JSON object.
 *
 * Markdown: a heading with the verdict (PASS, FAIL, or TROUBLE when an
 * input could not be read or nothing was judged), the summary line, a table of the checks that
 * failed (task, gpu, rule, value, limit), the changes against the
 * baseline, and every task in a collapsed table.  Long tables are cut
 * (the JSON has everything).
 *
 * JSON (docs/schema/check.json): {"version", "verdict", "summary", "checks": counts, "rules", "gpus": [...],
 * "tasks": [...], "gates": [...], "baseline": null or {"file", counts,
 * "deltas": [...]}}; times as json.h writes them (ns since the epoch and
 * RFC 3339 in UTC), delays in seconds as
 * the task table rounds them, memory in MiB.
 */
#ifndef GPUMEM_CIOUT_H
#define GPUMEM_CIOUT_H

#include <stdio.h>

#include "gates.h"
#include "util.h"

/*
 * "PASS", "FAIL", or "TROUBLE" when an input could not be read or nothing
 * was judged.
 */
const char *ciout_verdict(const struct verdicts *vs);

/*
 * "1 of 4 checks failed; 2 tasks on 1 GPU: 1 released, 1 leaked, 0
 * running; against the baseline: 2 matched, 0 appeared, 0 vanished".
 */
void ciout_summary(struct sbuf *sb, const struct verdicts *vs);

/*
 * What a verdict is about: "python3 (pid 4242)", "x (baseline pid 7)",
 * or nothing (a GPU's check, the input).
 */
void ciout_what(struct sbuf *sb, const struct verdict *v);

/* "max_leak_mib: leaked 11264 MiB, more than 0 (built-in)". */
void ciout_finding(struct sbuf *sb, const struct verdict *v);

/* "gpu 0: python3 (pid 4242): " and the finding: a line for stderr. */
void ciout_line(struct sbuf *sb, const struct verdict *v);

/* Write the Markdown summary, or the JSON, to f.  0, or -1 on a write error. */
int ciout_markdown(FILE *f, const struct verdicts *vs);
int ciout_json(FILE *f, const struct verdicts *vs);

/*
 * Write metrics in the Prometheus text exposition format (OpenMetrics
 * parsers read it too), for node_exporter's textfile collector and the
 * Pushgateway, per GPU and per run, never per task (no pid, start or
 * name label: the series are the same from run to run): per GPU with
 * tasks gpumem_tasks{status}, gpumem_leaked_bytes and the histogram
 * gpumem_release_delay_seconds of its released tasks; per GPU with
 * samples gpumem_unattributed_bytes_at_end; gpumem_check_checks{result}
 * and gpumem_check_passed (1 or 0); "# EOF".  0, or -1 on a write error.
 */
int ciout_openmetrics(FILE *f, const struct verdicts *vs);

#endif
