/* SPDX-License-Identifier: ISC */
/*
 * textgantt.h: a Gantt chart in Unicode text, for terminals and CI logs;
 * no gnuplot needed.
 *
 *	2 tasks, 2026-01-01 00:00:05 to 00:02:47 UTC; one column = 2 s
 *	                     00:00:05                              00:02:47
 *	gpu0 4300 python3   │          █                                   │ 0 s ±1 s
 *	gpu0 4242 launch.py │██████████░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│ LEAKED 11.0 GiB
 *	█ alive  ▒ memory held after the end  ░ leaked: never came back
 *
 * One line per task, a fixed width; a cell shows the most important of
 * what happened in its time (alive over held over leaked), so a task that
 * lived for a moment still gets one cell.
 */
#ifndef GPUMEM_TEXTGANTT_H
#define GPUMEM_TEXTGANTT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/*
 * Write rows[0..n) (top to bottom) to f, width characters wide (at least
 * 40 are used), the time axis from first to last (the end of the log);
 * hidden tasks are counted in a note; a leak says what came back late of
 * it (chart_back_late, by tolerance).  Return 0, or -1 on a write error.
 */
int textgantt_write(FILE *f, const struct task *const *rows, size_t n,
    size_t hidden, uint64_t first, uint64_t last, unsigned width, int utc,
    int nhosts, uint32_t tolerance);

#endif
