/* SPDX-License-Identifier: ISC */
/*
 * holders.h: the processes that hold GPU device files open, for gpumem
 * record's holders.csv: what nvidia-smi cannot list (a container's
 * processes, a closed program's forked children) still holds the device.
 *
 * A scan reads every /proc/PID/fd; a link to a device file (by default
 * /dev/nvidia followed by digits: nvidiactl and nvidia-uvm are no GPU)
 * makes a row: the time, the GPU (the device's minor number; a file that
 * is no device, a stand-in named by --devices, by the digits that end its
 * name), the pid, its name and its cgroup (the path of the first line of
 * /proc/PID/cgroup, a 64-digit container id in it cut to 12 digits, and
 * that id alone in the last column).  Without root only the user's own
 * processes can be read: holders_unreadable() counts the others.
 */
#ifndef GPUMEM_HOLDERS_H
#define GPUMEM_HOLDERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct holders;

/*
 * Scan for files matching glob (fnmatch(3); NULL: the GPU devices), rows
 * to out, whose header "time_ns,gpu,pid,name,cgroup,container" is
 * written now.  The processes of skip[0..nskip-1] (record's own
 * nvidia-smi loops, which hold every GPU open) are left out.
 */
struct holders *holders_new(const char *glob, FILE *out, const pid_t *skip,
    size_t nskip);
/* One scan, its rows stamped now (ns since the epoch). */
void holders_scan(struct holders *h, uint64_t now);
/* The most processes one scan could not read the open files of. */
size_t holders_unreadable(const struct holders *h);
/* Rows written over all scans. */
size_t holders_rows(const struct holders *h);
void holders_free(struct holders *h);

/*
 * The GPU number of a GPU device path, /dev/nvidia followed by digits
 * (nvidiactl, nvidia-uvm and nvidia-caps are no GPU); -1 for any other.
 */
long holders_gpu_device(const char *path);

#define HOLDERS_IDSZ 13	/* a container id, cut to 12 digits */

/*
 * The cgroup of a first line of /proc/PID/cgroup ("0::/path"): the path
 * into cg (of size n; a container id of 64 hex digits in it cut to 12),
 * the first such id into id ("" without one).
 */
void holders_cgroup(const char *line, char *cg, size_t n,
    char id[HOLDERS_IDSZ]);

#endif
