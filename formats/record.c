/* SPDX-License-Identifier: ISC */
/*
 * record.c: gpumem-record, run a command and record the GPUs with
 * nvidia-smi while it runs, and for a while after it ends (to see its
 * memory come back).
 *
 * DIR gets the two logs gpumem read wants, written by two nvidia-smi
 * loops (-lms), and a metadata file:
 *
 *	DIR/query-gpu.csv     timestamp, index, uuid, pci.bus_id,
 *	                      memory.total, memory.reserved, memory.used,
 *	                      memory.free (reserved where the driver has it)
 *	DIR/compute-apps.csv  timestamp, gpu_uuid, gpu_bus_id, pid,
 *	                      process_name, used_gpu_memory
 *	DIR/meta              command, start, end, exit status, host,
 *	                      interval, and the start and end again in ns
 *	                      since the epoch (start_ns, end_ns: what
 *	                      gpumem check judges tasks alive after the
 *	                      command ended by)
 *	DIR/procs.csv         every process under the command: pid, ppid,
 *	                      name, start and exit (ns), exit status
 *	                      (procwatch.h: we are their subreaper)
 *	DIR/holders.csv       at each device poll, the processes holding a
 *	                      GPU device file open, with their cgroup
 *	                      (holders.h)
 *
 * The command's exit status is passed through.  SIGINT and SIGTERM stop
 * the command and the loops; what was written is kept.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "esc.h"
#include "gtime.h"
#include "holders.h"
#include "procwatch.h"
#include "util.h"

#define QUERY_GPU "timestamp,index,uuid,pci.bus_id,memory.total," \
	"memory.reserved,memory.used,memory.free"
#define QUERY_GPU_OLD "timestamp,index,uuid,pci.bus_id,memory.total," \
	"memory.used,memory.free"
#define QUERY_APPS "timestamp,gpu_uuid,gpu_bus_id,pid,process_name," \
	"used_gpu_memory"
#define GRACE_MS 2000		/* for a loop to stop after SIGTERM */
#define POLL_MS 20		/* how often a bounded wait looks */
#define SCAN_NS (10 * NS_PER_MS)	/* how often new descendants are looked for */

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	if (got_signal == 0)
		got_signal = sig;
}

enum {
	OPT_IVAL = CHAR_MAX + 1,
	OPT_AFTER,
	OPT_BEFORE,
	OPT_NVSMI,
	OPT_KILL_AFTER,
	OPT_PROBE_TIMEOUT,
	OPT_DEVICES
};

static const struct cmd_opt opts[] = {
	{'o', "output", "DIR", "where to write the logs (made if missing)"},
	{OPT_IVAL, "interval", "DUR", "sampling interval (100ms)"},
	{OPT_BEFORE, "before", "DUR", "record idle samples before COMMAND "
	    "starts (1s)"},
	{OPT_AFTER, "after", "DUR", "keep recording after COMMAND ends (30s)"},
	{OPT_NVSMI, "nvidia-smi", "PATH", "the nvidia-smi to run (from PATH)"},
	{OPT_PROBE_TIMEOUT, "probe-timeout", "DUR", "how long nvidia-smi may "
	    "take to answer\nwhether it runs (10s)"},
	{OPT_KILL_AFTER, "kill-after", "DUR", "after a signal passed on, kill "
	    "COMMAND if it\nhas not ended (10s; 0: never)"},
	{OPT_DEVICES, "devices", "GLOB", "the device files whose holders are "
	    "listed\n(/dev/nvidia followed by digits)"},
	{'f', "force", NULL, "replace the logs of an earlier recording in DIR"},
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	const char *dir, *nvsmi, *devices;
	uint64_t interval, after, before, kill_after, probe_timeout;
	int force;
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case OPT_AFTER:
		if (gtime_duration(arg, &o->after) < 0)
			die("--after: '%s': expected a duration (30s, 1m)",
			    arg);
		break;
	case OPT_BEFORE:
		if (gtime_duration(arg, &o->before) < 0)
			die("--before: '%s': expected a duration (1s, 500ms)",
			    arg);
		break;
	case OPT_DEVICES:
		o->devices = arg;
		break;
	case 'f':
		o->force = 1;
		break;
	case OPT_IVAL:
		if (gtime_duration(arg, &o->interval) < 0 ||
		    o->interval < NS_PER_MS)
			die("--interval: '%s': expected a duration of 1ms or "
			    "more", arg);
		break;
	case OPT_NVSMI:
		o->nvsmi = arg;
		break;
	case OPT_PROBE_TIMEOUT:
		if (gtime_duration(arg, &o->probe_timeout) < 0 ||
		    o->probe_timeout < NS_PER_MS)
			die("--probe-timeout: '%s': expected a duration of 1ms "
			    "or more", arg);
		break;
	case OPT_KILL_AFTER:
		if (gtime_duration(arg, &o->kill_after) < 0)
			die("--kill-after: '%s': expected a duration (10s, 1m, "
			    "0)", arg);
		break;
	case 'o':
		o->dir = arg;	/* a directory: "-" is no standard output */
		break;
	default:
		return 0;
	}
	return 1;
}

static int run(struct cmd *c);

/* The command skeleton (cmd.h); "cmd" is the recorded command's pid. */
static struct cmd skel = {
	.synopsis = "[-fqv] [--interval DUR] [--before DUR] [--after DUR]\n"
	    "[--nvidia-smi PATH] [--probe-timeout DUR] [--devices GLOB]\n"
	    "-o DIR -- COMMAND [ARGS ...]",
	.about = "Run COMMAND and record the GPUs with nvidia-smi while it "
	    "runs and for a while\nafter, into DIR: query-gpu.csv, "
	    "compute-apps.csv, meta, procs.csv (every\nprocess under COMMAND, "
	    "its exact exit) and holders.csv (who holds the GPU\ndevices open).  "
	    "Then 'gpumem read DIR' reads them.  COMMAND's exit status\n"
	    "is passed through.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, no nvidia-smi, DIR not "
	    "writable);\notherwise COMMAND's own status (128 + N when signal "
	    "N ended it)",
	.flags = CMD_INORDER,
	.option = option,
	.run = run,
};

/*
 * Run nvidia-smi with args, its stdout into fd (-1: /dev/null, and its
 * stderr too: a quiet question).
 */
static pid_t
spawn(const char *nvsmi, char *const args[], int fd)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		die("fork:");
	if (pid == 0) {
		int nul;

		/*
		 * It ends with us, however we end (SIGKILL too): a logger
		 * left behind would write forever.  We may have ended
		 * before the request was made: then end now.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 ||
		    getppid() != parent)
			_exit(127);
		nul = open("/dev/null", O_RDWR);

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);	/* util_init() ignored it */
		/* Keep the terminal's Ctrl-C from the loops: we stop them. */
		setpgid(0, 0);
		if (dup2(fd >= 0 ? fd : nul, STDOUT_FILENO) < 0)
			_exit(127);
		if (fd < 0)
			dup2(nul, STDERR_FILENO);
		dup2(nul, STDIN_FILENO);
		execvp(nvsmi, args);
		fprintf(stderr, "%s: cannot run %s: %s\n", progname, nvsmi,
		    strerror(errno));
		_exit(127);
	}
	return pid;
}

/*
 * Wait for pid at most ms milliseconds: return 0 with its status, -1 at a
 * signal (got_signal) when signals cut it short, -3 when it has not ended
 * by then.
 */
static int
wait_until(pid_t pid, int *status, uint64_t ms, int signals)
{
	struct timespec ts = {0, POLL_MS * 1000 * 1000};
	uint64_t waited;

	for (waited = 0;; waited += POLL_MS) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -2;
		if (signals && got_signal)
			return -1;
		if (waited >= ms)
			return -3;
		nanosleep(&ts, NULL);
	}
}

/*
 * Kill pid (SIGKILL) and reap it, waiting GRACE_MS at most: a process
 * stuck in the kernel (a wedged driver) ends only when the kernel lets
 * it.  Return 0, or -1 after saying it was left behind.
 */
static int
kill_reap(pid_t pid, const char *what)
{
	int status;

	kill(pid, SIGKILL);
	if (wait_until(pid, &status, GRACE_MS, 0) == 0)
		return 0;
	msg("%s (pid %ld) did not end at SIGKILL in %d s (stuck in the "
	    "kernel?): left behind", what, (long)pid, GRACE_MS / 1000);
	return -1;
}

/*
 * Ask nvidia-smi args[1], quietly: return its wait status.  One that has
 * not answered in timeout (a wedged driver), or a signal meanwhile, ends
 * it and us, saying which.
 */
static int
ask(char *const args[], uint64_t timeout)
{
	char t[GTIME_BUFSZ];
	pid_t pid = spawn(args[0], args, -1);
	int status, rc = wait_until(pid, &status, timeout / NS_PER_MS, 1);

	if (rc == 0)
		return status;
	(void)kill_reap(pid, args[0]);
	if (rc == -1)
		die("stopped by a signal while %s %s ran", args[0], args[1]);
	if (rc == -3)
		die("%s %s did not answer in %s s (a wedged driver?): killed; "
		    "nothing recorded", args[0], args[1],
		    gtime_fmt_secs(timeout, t));
	die("%s: cannot wait for it:", args[0]);
}

/*
 * Whether this nvidia-smi runs and knows memory.reserved (R510 and
 * later): ask once, quietly, for timeout at most.
 */
static int
probe(const char *nvsmi, int *reserved, uint64_t timeout)
{
	static char q[] = "--query-gpu=index,memory.reserved";
	static char q2[] = "--query-gpu=index";
	static char fmt[] = "--format=csv,noheader";
	char *args[4];
	int status;

	args[0] = (char *)nvsmi;
	args[1] = q;
	args[2] = fmt;
	args[3] = NULL;
	status = ask(args, timeout);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		*reserved = 1;
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -1;
	args[1] = q2;
	status = ask(args, timeout);
	*reserved = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -2;
}

static int
open_log(const char *dir, const char *name, int force)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    (force ? 0 : O_EXCL), 0666);
	if (fd < 0 && errno == EEXIST)
		die("%s: exists: an earlier recording? (--force replaces it)",
		    path);
	if (fd < 0)
		die("%s: cannot create:", path);
	return fd;
}

/*
 * Stop a loop: SIGTERM, then SIGKILL after a grace period (a second
 * signal to us does not cut it short), reaped within another.
 */
static void
stop(pid_t pid)
{
	struct timespec ts = {0, POLL_MS * 1000 * 1000};
	int status, waited;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	for (waited = 0; waited < GRACE_MS; waited += POLL_MS) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return;
		nanosleep(&ts, NULL);
	}
	(void)kill_reap(pid, "an nvidia-smi logger");
}

/* Sleep ns, or less when a signal comes. */
static void
nap(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS_PER_SEC);
	ts.tv_nsec = (long)(ns % NS_PER_SEC);
	while (!got_signal && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * What record watches while the command runs and after it: the processes
 * under it (procs.csv) and the holders of the GPU devices (holders.csv).
 * Times to come are CLOCK_MONOTONIC.
 */
struct watch {
	struct procwatch *pw;
	struct holders *h;
	FILE *procs, *holders;
	uint64_t interval, next_scan, next_poll;
};

/*
 * One step: the scans that are due, then a wait until the next one, an
 * exit (reaped then) or a signal.
 */
static void
watch_step(struct watch *w)
{
	uint64_t now = gtime_clock(CLOCK_MONOTONIC), next;

	if (now >= w->next_scan) {
		procwatch_scan(w->pw);
		w->next_scan = now + SCAN_NS;
	}
	if (now >= w->next_poll) {
		holders_scan(w->h, gtime_clock(CLOCK_REALTIME));
		w->next_poll = now + w->interval;
	}
	next = w->next_scan < w->next_poll ? w->next_scan : w->next_poll;
	now = gtime_clock(CLOCK_MONOTONIC);
	procwatch_wait(w->pw, next > now ? next - now : 0);
}

/* Watch for ns, or less when a signal comes. */
static void
watch_for(struct watch *w, uint64_t ns)
{
	uint64_t end = gtime_clock(CLOCK_MONOTONIC) + ns;

	while (!got_signal && gtime_clock(CLOCK_MONOTONIC) < end)
		watch_step(w);
}

/* Stop the loggers (those the watch reaped have stopped already). */
static void
stop_loggers(const struct watch *w, pid_t logger[2])
{
	int i, status;

	for (i = 0; i < 2; i++) {
		if (procwatch_reaped(w->pw, logger[i], &status))
			logger[i] = 0;
		stop(logger[i]);
	}
}

/*
 * The end of the watch: name what still runs under the command (left as
 * it is), write procs.csv, close holders.csv and say what could not be
 * read.
 */
static void
watch_end(struct watch *w, const char *dir)
{
	struct sbuf sb = SBUF_INIT;
	size_t n;

	procwatch_scan(w->pw);
	procwatch_wait(w->pw, 0);
	if ((n = procwatch_running(w->pw, &sb, 10)) > 0)
		warnmsg("%zu process%s under the command still running at the "
		    "end, left as %s: %s", n, n == 1 ? "" : "es",
		    n == 1 ? "it is" : "they are", sb.buf);
	sbuf_release(&sb);
	note("%zu processes seen under the command (one that lives less "
	    "than %d ms under a parent that reaps it may be missed)",
	    procwatch_seen(w->pw), (int)(SCAN_NS / NS_PER_MS));
	if (procwatch_write(w->pw, w->procs) < 0 || fclose(w->procs) != 0)
		die("%s/procs.csv: cannot write:", dir);
	if (ferror(w->holders) || fclose(w->holders) != 0)
		die("%s/holders.csv: cannot write:", dir);
	if ((n = holders_unreadable(w->h)) > 0)
		warnmsg("%s/holders.csv: the open files of %zu process%s could "
		    "not be read (other users': root sees them)", dir, n,
		    n == 1 ? "" : "es");
	procwatch_free(w->pw);
	holders_free(w->h);
}

static void
write_meta(const char *dir, char **cmd, uint64_t start, uint64_t end,
    const char *how, int code, uint64_t interval, int force)
{
	char path[PATH_MAX], host[256], t[GTIME_BUFSZ];
	struct outfile o;
	struct sbuf line = SBUF_INIT;
	int i;

	snprintf(path, sizeof(path), "%s/meta", dir);
	if (!force && access(path, F_OK) == 0)
		die("%s: exists: an earlier recording? (--force replaces it)",
		    path);
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	if (outfile_open(&o, path) < 0)
		exit(EXIT_TROUBLE);
	/* One line whatever the arguments hold (esc_word). */
	for (i = 0; cmd[i] != NULL; i++) {
		sbuf_addc(&line, ' ');
		esc_word(&line, cmd[i]);
	}
	fprintf(o.f, "# gpumem record: what ran while the logs beside "
	    "this file were written\ncommand:%s", line.buf);
	sbuf_release(&line);
	fprintf(o.f, "\nstart: %s\n", gtime_fmt(start, 1, t));
	fprintf(o.f, "end: %s\n", gtime_fmt(end, 1, t));
	fprintf(o.f, "exit: %s %d\n", how, code);
	fprintf(o.f, "host: %s\n", host);
	fprintf(o.f, "interval_ms: %llu\n",
	    (unsigned long long)(interval / NS_PER_MS));
	/*
	 * Exact times last: the lines above stay as older readers know them,
	 * and these give gpumem check the end to the nanosecond.
	 */
	fprintf(o.f, "start_ns: %llu\nend_ns: %llu\n",
	    (unsigned long long)start, (unsigned long long)end);
	if (outfile_commit(&o) < 0)
		exit(EXIT_TROUBLE);
}

/*
 * Start the two loggers into dir, with SIGINT, SIGTERM and SIGHUP caught
 * from here on (got_signal).  lms: the interval in ms, as nvidia-smi
 * takes it.
 */
static void
start_loggers(const struct opts *o, pid_t *gpu, pid_t *apps, char *lms,
    size_t lmscap, struct watch *w)
{
	char qgpu[160], qapps[160];
	static char fmt[] = "--format=csv", lmsopt[] = "-lms";
	char *args[6];
	int reserved = 0, fd_gpu, fd_apps, rc;

	/* Caught before the probe: a signal then ends it too. */
	msg_trap_stops(on_signal);
	rc = probe(o->nvsmi, &reserved, o->probe_timeout);
	if (rc == -1)
		die("%s: not found: install the NVIDIA driver's nvidia-smi "
		    "(or give --nvidia-smi PATH)", o->nvsmi);
	if (rc < 0)
		die("%s does not answer (no GPU, or no driver loaded?)",
		    o->nvsmi);
	if (mkdir(o->dir, 0777) < 0 && errno != EEXIST)
		die("%s: cannot create directory:", o->dir);
	fd_gpu = open_log(o->dir, "query-gpu.csv", o->force);
	fd_apps = open_log(o->dir, "compute-apps.csv", o->force);
	if ((w->procs = fdopen(open_log(o->dir, "procs.csv", o->force),
	    "w")) == NULL || (w->holders = fdopen(open_log(o->dir,
	    "holders.csv", o->force), "w")) == NULL)
		die("%s: cannot open:", o->dir);
	snprintf(lms, lmscap, "%llu",
	    (unsigned long long)(o->interval / NS_PER_MS));
	snprintf(qgpu, sizeof(qgpu), "--query-gpu=%s", reserved ? QUERY_GPU :
	    QUERY_GPU_OLD);
	snprintf(qapps, sizeof(qapps), "--query-compute-apps=%s", QUERY_APPS);
	args[0] = (char *)o->nvsmi;
	args[2] = fmt;
	args[3] = lmsopt;
	args[4] = lms;
	args[5] = NULL;
	args[1] = qgpu;
	*gpu = spawn(o->nvsmi, args, fd_gpu);
	args[1] = qapps;
	*apps = spawn(o->nvsmi, args, fd_apps);
	close(fd_gpu);
	close(fd_apps);
	w->pw = procwatch_new((pid_t[]){*gpu, *apps}, 2);
	w->h = holders_new(o->devices, w->holders, (pid_t[]){*gpu, *apps}, 2);
	w->interval = o->interval;
	w->next_scan = w->next_poll = 0;	/* the first step does both */
}

/*
 * Send sig to everything under us but the loggers (gpu, apps): the
 * command, its children and theirs, and those whose parent has ended
 * (main made us their subreaper), so that a shell's children and a
 * daemon that left the command's process group get it too.  The tree is
 * read whole first (/proc/PID/task/TID/children), then signalled: a
 * parent ending meanwhile cannot hide its children.  Where the kernel has
 * no children files, the command alone gets it.
 */
struct tree {
	pid_t *v, skip[2];
	size_t n;
};

static void
tree_add(void *ctx, pid_t child)
{
	struct tree *t = ctx;

	if (child == t->skip[0] || child == t->skip[1] || t->n >= 100000)
		return;
	t->v = egrow(t->v, t->n, sizeof(*t->v));
	t->v[t->n++] = child;
}

static void
signal_tree(pid_t cmd, pid_t gpu, pid_t apps, int sig)
{
	struct tree t = {NULL, {gpu, apps}, 0};
	size_t i, k;

	for (i = 0; i <= t.n; i++)
		(void)procwatch_children(i == 0 ? getpid() : t.v[i - 1],
		    tree_add, &t);
	for (k = 0; k < t.n && t.v[k] != cmd; k++)
		;
	if (k == t.n)
		kill(cmd, sig);		/* no children files */
	for (k = 0; k < t.n; k++)
		kill(t.v[k], sig);
	free(t.v);
}

/*
 * Run the command, passing a signal on to it, until it ends: return 0
 * with its wait status, or what wait_for returned else; *stopped is the
 * first signal passed on (0: none).  A command that has not ended
 * kill_after (0: never) after that signal, or when a second signal
 * comes, is killed (SIGKILL), and that is said: a command that ignores
 * SIGTERM cannot keep the recording going.
 */
static void
run_command(char **argv, uint64_t kill_after, const pid_t logger[2],
    struct watch *w, uint64_t start, int *status, int *stopped)
{
	struct sigaction sa;
	pid_t cmd;
	int killed = 0;

	cmd = fork();
	if (cmd < 0)
		die("fork:");
	if (cmd == 0) {
		procwatch_child();
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);	/* util_init() ignored it */
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", progname, argv[0],
		    strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	procwatch_add(w->pw, cmd, start);
	while (!procwatch_reaped(w->pw, cmd, status)) {
		int sig;

		watch_step(w);
		if ((sig = got_signal) == 0)
			continue;
		got_signal = 0;
		if (*stopped == 0 && sig != SIGALRM) {
			signal_tree(cmd, logger[0], logger[1], sig);
			*stopped = sig;
			if (kill_after > 0)
				alarm((unsigned)((kill_after + NS_PER_SEC - 1) /
				    NS_PER_SEC));
		} else if (!killed && *stopped != 0) {
			alarm(0);
			signal_tree(cmd, logger[0], logger[1], SIGKILL);
			killed = 1;
			msg("%s %s: killed (SIGKILL)", argv[0], sig == SIGALRM ?
			    "did not end after the signal passed on" :
			    "had not ended at a second signal");
		}
	}
	alarm(0);
}

/*
 * Record while the command runs (the skeleton, cmd.h, calls it): return
 * the command's exit status.
 */
static int
run(struct cmd *c)
{
	const struct opts *o = c->ctx;
	char **argv = c->argv;
	uint64_t start, end;
	char lms[32], t[GTIME_BUFSZ];
	pid_t logger[2];
	struct watch w;
	int status = 0, code = EXIT_TROUBLE, stopped = 0;
	const char *how = "status";

	if (o->dir == NULL || c->argc == 0)
		cmd_usage(c, EXIT_TROUBLE);
	start_loggers(o, &logger[0], &logger[1], lms, sizeof(lms), &w);
	note("recording into %s every %s ms", o->dir, lms);
	/* Idle samples first: the baseline memory comes back to. */
	if (o->before > 0)
		nap(o->before);
	if (got_signal) {
		stop_loggers(&w, logger);
		die("stopped by a signal before %s started", argv[0]);
	}
	/* What the command leaves when its parent ends is still ours. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	start = gtime_clock(CLOCK_REALTIME);
	run_command(argv, o->kill_after, logger, &w, start, &status, &stopped);
	end = gtime_clock(CLOCK_REALTIME);
	if (WIFEXITED(status)) {
		code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		code = 128 + WTERMSIG(status);
		how = "signal";
	}
	if (!stopped && !got_signal && o->after > 0) {
		/* Said once, by default: a silent wait looks like a hang. */
		warnmsg("%s ended; recording %s s more to see memory come "
		    "back", argv[0], gtime_fmt_secs(o->after, t));
		watch_for(&w, o->after);
	}
	stop_loggers(&w, logger);
	watch_end(&w, o->dir);
	write_meta(o->dir, argv, start, end, how, strcmp(how, "signal") == 0 ?
	    code - 128 : code, o->interval, o->force);
	if (stopped || got_signal)
		warnmsg("stopped by a signal: %s ended %s; the logs in %s "
		    "hold what was recorded until then", argv[0],
		    gtime_fmt(end, 1, t), o->dir);
	return code;
}

int
main(int argc, char *argv[])
{
	struct opts o = {NULL, "nvidia-smi", NULL, 100 * NS_PER_MS,
	    30 * NS_PER_SEC, NS_PER_SEC, 10 * NS_PER_SEC, 10 * NS_PER_SEC, 0};

	skel.ctx = &o;
	return cmd_main(&skel, argc, argv);
}
