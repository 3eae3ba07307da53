/* SPDX-License-Identifier: ISC */
/*
 * procwatch.h: every process under a recorded command, with its start,
 * its exit and its exit status, for gpumem record's procs.csv.
 *
 * The caller is the command's parent and the subreaper of what it starts
 * (PR_SET_CHILD_SUBREAPER): a process whose parent ends is reparented to
 * it and reaped here, with its exact status.  The others are found by
 * procwatch_scan() (the children files of every process known alive) and
 * watched through a pidfd: their exit time is the moment the kernel says
 * they ended, their status the one /proc/PID/stat shows while they are a
 * zombie (unknown when their own parent reaped them first).  A process
 * that starts and ends between two scans under a parent that reaps it is
 * missed: procwatch_seen() says how many were seen.  A name is the one
 * last seen (a shell's child execs its program after the fork).
 *
 * procwatch_new() blocks SIGCHLD (procwatch_wait() lets it in): call it
 * before forking the command, and unblock SIGCHLD in the child
 * (procwatch_child()).
 */
#ifndef GPUMEM_PROCWATCH_H
#define GPUMEM_PROCWATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "sbuf.h"

struct procwatch;

/*
 * A watch of our descendants; skip[0..nskip-1] are children of ours that
 * are not the command's (the loggers): reaped when they end (their
 * status kept for procwatch_reaped()), never listed.
 */
struct procwatch *procwatch_new(const pid_t *skip, size_t nskip);
/* In the command's child, before exec: SIGCHLD as it was. */
void procwatch_child(void);
/* The command, started (forked) at start (ns since the epoch). */
void procwatch_add(struct procwatch *pw, pid_t pid, uint64_t start);
/* Look for new descendants, and for the exits no pidfd reports. */
void procwatch_scan(struct procwatch *pw);
/*
 * Sleep until a watched process ends, a signal comes, or timeout ns
 * pass; then note the exits and reap what is ours to reap.
 */
void procwatch_wait(struct procwatch *pw, uint64_t timeout);
/*
 * Whether pid (the command) was reaped: 1 with its wait status in
 * *status, else 0.  A pid of skip: whether it was reaped here.
 */
int procwatch_reaped(const struct procwatch *pw, pid_t pid, int *status);
/* Processes seen (the command included). */
size_t procwatch_seen(const struct procwatch *pw);
/*
 * Append "PID NAME" of each descendant still running, comma-separated, to
 * sb (at most max, then "and N more"); return how many run.
 */
size_t procwatch_running(const struct procwatch *pw, struct sbuf *sb,
    size_t max);
/*
 * Write procs.csv: pid,ppid,name,start_ns,exit_ns,exit; exit is "status
 * N", "signal N", "unknown" (reaped by its parent before we read it) or
 * "running" (exit_ns empty).  Return -1 on a write error.
 */
int procwatch_write(const struct procwatch *pw, FILE *f);
void procwatch_free(struct procwatch *pw);

/*
 * Call fn(ctx, child) for each child of pid (every thread's children
 * file).  Return -1 when pid's task folder cannot be read.
 */
int procwatch_children(pid_t pid, void (*fn)(void *ctx, pid_t child),
    void *ctx);

#endif
