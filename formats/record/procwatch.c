/* SPDX-License-Identifier: ISC */
/*
 * procwatch.c: the processes under a recorded command, their starts,
 * exits and statuses (procwatch.h has the contract and its limits).
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "csv.h"
#include "gtime.h"
#include "hmap.h"
#include "procwatch.h"
#include "util.h"

#define MAXPROCS 100000		/* processes listed; more are counted */
#define MAXPIDFDS 512		/* pidfds open at once; more: by scans */
#define NAMESZ 64

enum { ALIVE, EXITED, DONE };

struct proc {
	pid_t pid, ppid;
	char name[NAMESZ];
	uint64_t start, end;	/* ns since the epoch; end 0: running */
	int status;		/* a wait status; -1: unknown */
	int pidfd;		/* -1: none */
	int state;
};

struct procwatch {
	struct proc *v;
	size_t n, dropped, npidfd;
	struct hmap live;	/* pid -> index + 1, for ALIVE and EXITED */
	pid_t skip[4];
	int skip_status[4], skip_done[4];
	size_t nskip;
	uint64_t boot;		/* the epoch time of the boot, ns */
	sigset_t waitmask;	/* the mask while waiting: SIGCHLD in */
};

static void
on_child(int sig)
{
	(void)sig;
}

struct procwatch *
procwatch_new(const pid_t *skip, size_t nskip)
{
	struct procwatch *pw = ecalloc(1, sizeof(*pw));
	struct sigaction sa;
	sigset_t chld;
	size_t i;

	if (nskip > 4)
		BUG("%zu loggers", nskip);
	for (i = 0; i < nskip; i++)
		pw->skip[i] = skip[i];
	pw->nskip = nskip;
	pw->boot = gtime_clock(CLOCK_REALTIME) - gtime_clock(CLOCK_BOOTTIME);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &pw->waitmask);
	sigdelset(&pw->waitmask, SIGCHLD);
	return pw;
}

void
procwatch_child(void)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	signal(SIGCHLD, SIG_DFL);
}

/*
 * Read /proc/PID/stat: name, ppid, start (epoch ns), state letter, and
 * the exit code a zombie shows (a wait status, -1 when absent).  Return
 * -1 when it is gone.
 */
static int
read_stat(const struct procwatch *pw, pid_t pid, char *name, pid_t *ppid,
    uint64_t *start, int *state, int *code)
{
	char path[64], buf[1024], *p, *close;
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK), v;
	FILE *f;
	size_t n;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The name is between the first '(' and the last ')'. */
	if ((p = strchr(buf, '(')) == NULL ||
	    (close = strrchr(buf, ')')) == NULL || close < p)
		return -1;
	n = (size_t)(close - p - 1);
	if (n >= NAMESZ)
		n = NAMESZ - 1;
	memcpy(name, p + 1, n);
	name[n] = '\0';
	*code = -1;
	*state = close[1] == ' ' ? close[2] : '?';
	/* Field 3 is the state letter, the rest are numbers. */
	p = close[1] == ' ' && close[2] != '\0' ? close + 3 : close + 1;
	for (field = 4; *p == ' '; field++) {
		char *q;

		v = strtol(p + 1, &q, 10);
		if (q == p + 1)
			break;
		p = q;
		if (field == 4)
			*ppid = (pid_t)v;
		if (field == 22)
			ticks = (unsigned long long)v;
		if (field == 52)
			*code = (int)v;
	}
	if (*state != 'Z')
		*code = -1;
	*start = pw->boot + (hz > 0 ? ticks * (NS_PER_SEC / (uint64_t)hz) : 0);
	return 0;
}

static struct proc *
find(const struct procwatch *pw, pid_t pid)
{
	void **slot = hmap_get(&pw->live, &pid, sizeof(pid));

	return slot == NULL ? NULL : &pw->v[(size_t)(uintptr_t)*slot - 1];
}

static int
skipped(const struct procwatch *pw, pid_t pid)
{
	size_t i;

	for (i = 0; i < pw->nskip; i++)
		if (pw->skip[i] == pid)
			return (int)i;
	return -1;
}

/* List pid (not yet known); NULL past the cap. */
static struct proc *
add(struct procwatch *pw, pid_t pid, pid_t ppid, const char *name,
    uint64_t start)
{
	struct proc *p;
	int isnew;

	if (pw->n >= MAXPROCS) {
		pw->dropped++;
		return NULL;
	}
	pw->v = egrow(pw->v, pw->n, sizeof(*pw->v));
	p = &pw->v[pw->n++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->start = start;
	p->status = -1;
	p->pidfd = -1;
	p->state = ALIVE;
	if (pw->npidfd < MAXPIDFDS &&
	    (p->pidfd = pidfd_open(pid, 0)) >= 0)
		pw->npidfd++;
	*hmap_put(&pw->live, &pid, sizeof(pid), &isnew) =
	    (void *)(uintptr_t)pw->n;
	return p;
}

static void
drop_pidfd(struct procwatch *pw, struct proc *p)
{
	if (p->pidfd < 0)
		return;
	close(p->pidfd);
	p->pidfd = -1;
	pw->npidfd--;
}

/* p has ended at now: note it, with the status a zombie shows. */
static void
ended(struct procwatch *pw, struct proc *p, uint64_t now)
{
	char name[NAMESZ];
	pid_t ppid;
	uint64_t start;
	int state, code;

	drop_pidfd(pw, p);
	if (p->state != ALIVE)
		return;
	p->end = now;
	if (read_stat(pw, p->pid, name, &ppid, &start, &state, &code) == 0 &&
	    state == 'Z') {
		p->status = code;
		snprintf(p->name, sizeof(p->name), "%s", name);
		p->state = EXITED;
		return;
	}
	/* Reaped by its parent already: the status is lost. */
	p->state = DONE;
	hmap_del(&pw->live, &p->pid, sizeof(p->pid));
}

void
procwatch_add(struct procwatch *pw, pid_t pid, uint64_t start)
{
	char name[NAMESZ] = "?";
	pid_t ppid;
	uint64_t t;
	int state, code;

	(void)read_stat(pw, pid, name, &ppid, &t, &state, &code);
	(void)add(pw, pid, getpid(), name, start);
}

struct scanctx {
	struct procwatch *pw;
	pid_t parent;
};

static void
scan_child(void *ctx, pid_t child)
{
	struct scanctx *c = ctx;
	char name[NAMESZ];
	pid_t ppid;
	uint64_t start;
	int state, code;

	struct proc *p;

	if (skipped(c->pw, child) >= 0)
		return;
	if (read_stat(c->pw, child, name, &ppid, &start, &state, &code) < 0)
		return;
	if ((p = find(c->pw, child)) != NULL) {
		if (p->state == ALIVE || state == 'Z')
			return;
		/* An exit seen as a zombie, its pid taken again since. */
		p->state = DONE;
		hmap_del(&c->pw->live, &child, sizeof(child));
	}
	/* The kernel's start is to the clock tick: not before the parent's. */
	if ((p = find(c->pw, c->parent)) != NULL && start < p->start)
		start = p->start;
	(void)add(c->pw, child, c->parent, name, start);
}

void
procwatch_scan(struct procwatch *pw)
{
	struct scanctx c = {pw, getpid()};
	uint64_t now = gtime_clock(CLOCK_REALTIME);
	size_t i, n = pw->n;

	(void)procwatch_children(c.parent, scan_child, &c);
	for (i = 0; i < n; i++) {
		struct proc *p = &pw->v[i];
		char name[NAMESZ];
		pid_t ppid;
		uint64_t start;
		int state, code;

		if (p->state != ALIVE)
			continue;
		/* The name as last seen: a child forked by sh execs later. */
		if (read_stat(pw, p->pid, name, &ppid, &start, &state,
		    &code) == 0 && state != 'Z')
			snprintf(p->name, sizeof(p->name), "%s", name);
		else if (p->pidfd < 0) {
			ended(pw, p, now);
			continue;
		}
		c.parent = p->pid;
		(void)procwatch_children(p->pid, scan_child, &c);
		p = &pw->v[i];		/* v may have moved */
	}
}

/* Reap every child of ours that has ended. */
static void
reap(struct procwatch *pw, uint64_t now)
{
	for (;;) {
		siginfo_t si;
		struct proc *p;
		char name[NAMESZ] = "?";
		pid_t pid, ppid = getpid();
		uint64_t start = 0;
		int status, k, state, code;

		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
		    si.si_pid == 0)
			return;
		pid = si.si_pid;
		if ((k = skipped(pw, pid)) < 0 && (p = find(pw, pid)) == NULL) {
			/* An orphan no scan saw: its zombie says who. */
			(void)read_stat(pw, pid, name, &ppid, &start, &state,
			    &code);
			(void)add(pw, pid, ppid, name, start);
		}
		if (waitpid(pid, &status, WNOHANG) != pid)
			return;
		if (k >= 0) {
			pw->skip_status[k] = status;
			pw->skip_done[k] = 1;
			continue;
		}
		if ((p = find(pw, pid)) == NULL)
			continue;		/* past the cap */
		drop_pidfd(pw, p);
		if (p->state == ALIVE)
			p->end = now;
		p->status = status;
		p->state = DONE;
		hmap_del(&pw->live, &pid, sizeof(pid));
	}
}

void
procwatch_wait(struct procwatch *pw, uint64_t timeout)
{
	struct pollfd *fds = NULL;
	struct timespec ts;
	size_t *idx = NULL, n = 0, i;
	uint64_t now;

	for (i = 0; i < pw->n; i++)
		if (pw->v[i].state == ALIVE && pw->v[i].pidfd >= 0) {
			fds = egrow(fds, n, sizeof(*fds));
			idx = egrow(idx, n, sizeof(*idx));
			fds[n].fd = pw->v[i].pidfd;
			fds[n].events = POLLIN;
			fds[n].revents = 0;
			idx[n++] = i;
		}
	ts.tv_sec = (time_t)(timeout / NS_PER_SEC);
	ts.tv_nsec = (long)(timeout % NS_PER_SEC);
	(void)ppoll(fds, n, &ts, &pw->waitmask);
	now = gtime_clock(CLOCK_REALTIME);
	for (i = 0; i < n; i++)
		if (fds[i].revents != 0)
			ended(pw, &pw->v[idx[i]], now);
	reap(pw, now);
	free(fds);
	free(idx);
}

int
procwatch_reaped(const struct procwatch *pw, pid_t pid, int *status)
{
	size_t i;
	int k = skipped(pw, pid);

	if (k >= 0) {
		*status = pw->skip_status[k];
		return pw->skip_done[k];
	}
	for (i = 0; i < pw->n; i++)
		if (pw->v[i].pid == pid && pw->v[i].state == DONE &&
		    pw->v[i].status != -1) {
			*status = pw->v[i].status;
			return 1;
		}
	return 0;
}

size_t
procwatch_seen(const struct procwatch *pw)
{
	return pw->n + pw->dropped;
}

size_t
procwatch_running(const struct procwatch *pw, struct sbuf *sb, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < pw->n; i++) {
		if (pw->v[i].state != ALIVE)
			continue;
		if (n < max)
			sbuf_printf(sb, "%s%ld %s", n > 0 ? ", " : "",
			    (long)pw->v[i].pid, pw->v[i].name);
		n++;
	}
	if (n > max)
		sbuf_printf(sb, " and %zu more", n - max);
	return n;
}

int
procwatch_write(const struct procwatch *pw, FILE *f)
{
	char field[2 * NAMESZ + 2], end[24];
	size_t i;

	fprintf(f, "pid,ppid,name,start_ns,exit_ns,exit\n");
	for (i = 0; i < pw->n; i++) {
		const struct proc *p = &pw->v[i];
		char how[32];

		field[csv_field(field, p->name)] = '\0';
		end[0] = '\0';
		if (p->state != ALIVE)
			snprintf(end, sizeof(end), "%llu",
			    (unsigned long long)p->end);
		if (p->state == ALIVE)
			snprintf(how, sizeof(how), "running");
		else if (p->status == -1)
			snprintf(how, sizeof(how), "unknown");
		else if (WIFSIGNALED(p->status))
			snprintf(how, sizeof(how), "signal %d",
			    WTERMSIG(p->status));
		else
			snprintf(how, sizeof(how), "status %d",
			    WEXITSTATUS(p->status));
		fprintf(f, "%ld,%ld,%s,%llu,%s,%s\n", (long)p->pid,
		    (long)p->ppid, field, (unsigned long long)p->start, end,
		    how);
	}
	return ferror(f) ? -1 : 0;
}

void
procwatch_free(struct procwatch *pw)
{
	size_t i;

	if (pw == NULL)
		return;
	for (i = 0; i < pw->n; i++)
		if (pw->v[i].pidfd >= 0)
			close(pw->v[i].pidfd);
	hmap_release(&pw->live, NULL);
	free(pw->v);
	free(pw);
}

int
procwatch_children(pid_t pid, void (*fn)(void *ctx, pid_t child), void *ctx)
{
	char path[320];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		FILE *f;
		long c;

		if (e->d_name[0] == '.' || strlen(e->d_name) > 20)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%.20s/children",
		    (long)pid, e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fscanf(f, "%ld", &c) == 1)
			fn(ctx, (pid_t)c);
		fclose(f);
	}
	closedir(d);
	return 0;
}
