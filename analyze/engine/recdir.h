/* SPDX-License-Identifier: ISC */
/*
 * recdir.h: what gpumem record writes beside the logs of a recording
 * directory and the analysis uses: the exact exits of the processes under
 * the command (procs.csv) and the processes that held the GPU device files
 * open (holders.csv).  formats/record.1 describes both files.
 *
 *   exact exit  a task whose pid exited (procs.csv) between its last
 *               listing and the poll that missed it ends at that exit:
 *               its delay is then bounded by the device samples alone.
 *   holder      memory no process listing owns (a device-only episode)
 *               is named after the process that held its GPU open during
 *               it: one that let go when the memory came back (within
 *               2 s of the release; for memory never back, any), then
 *               one that was not holding the GPU 2 s before the episode
 *               began, then the one seen in the most polls (a display
 *               server that holds the GPU all along is named only when
 *               no one else is).
 *
 * A recording directory is one host: its tables match the tasks of every
 * host.  Rows that do not read are counted and said once per file.
 */
#ifndef GPUMEM_RECDIR_H
#define GPUMEM_RECDIR_H

#include <stddef.h>
#include <stdint.h>

struct recdir;

/*
 * The tables of every directory among paths ("-" is standard input):
 * NULL when none holds procs.csv or holders.csv.  *status becomes
 * EXIT_TROUBLE when one could not be read (said).
 */
struct recdir *recdir_load(char *const *paths, size_t n, int *status);
/*
 * Whether pid exited in [last, end] (ns, a few ms of clock rounding
 * allowed before last): then *exit is that time.
 */
int recdir_exit(const struct recdir *rd, uint32_t pid, uint64_t last,
    uint64_t end, uint64_t *exit);
/*
 * The holder of gpu between from and to (the release; UINT64_MAX for
 * memory never back): "held by PID NAME", with " in container ID" when
 * it has one, into buf (size n); NULL when none was seen.
 */
const char *recdir_holder(const struct recdir *rd, uint32_t gpu,
    uint64_t from, uint64_t to, char *buf, size_t n);
/*
 * Memory left at the end of a GPU that lists processes, that no listing
 * holds: the processes holding gpu open at the last scan within iv (the
 * sampling interval) and 2 s of end, those of listed[0..nlisted-1] (the
 * pids its listings named) left out; of them only those new to the GPU
 * since the first sample (since) when there are any, so a display server
 * holding it all along is named only when no one else is.
 * "held by PID NAME[ in container ID] and ..." (RECDIR_NAMED at most, then
 * " and N more") into buf (size n), the earliest first scan of them on
 * gpu into *first; NULL when none was seen.
 */
#define RECDIR_NAMED 3
const char *recdir_at_end(const struct recdir *rd, uint32_t gpu,
    uint64_t since, uint64_t end, uint64_t iv, const uint32_t *listed,
    size_t nlisted, uint64_t *first, char *buf, size_t n);
void recdir_free(struct recdir *rd);

/*
 * The engine's hooks.  recdir_end: a task listed last at last, ended by
 * the reader at *end: its exact exit into *end; return NOTE_EXACT then,
 * else 0.  recdir_held_until: the most the delay of a task released at
 * ts can be: ts - its exit when exact, else ts - its last listing.
 * recdir_name: an episode of gpu (device-only) named after its holder
 * (in buf, size n, which must outlive t's use): return NOTE_HOLDER then,
 * else 0.
 */
struct task;
unsigned recdir_end(const struct recdir *rd, uint32_t pid, uint64_t last,
    uint64_t *end);
uint64_t recdir_held_until(int exact, uint64_t last, uint64_t end,
    uint64_t ts);
unsigned recdir_name(const struct recdir *rd, uint32_t gpu, struct task *t,
    char *buf, size_t n);

#endif
