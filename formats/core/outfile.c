/* SPDX-License-Identifier: ISC */
/* outfile.c: safe output: pipes, stdout, output files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/*
 * Temporary output files that must disappear if a signal ends the run.  A
 * handful at most (a report and its charts), so a fixed table is enough.
 */
#define MAXTMP 16
static char *volatile tmpfiles[MAXTMP];

/*
 * The work directory (outfile_tmpdir_make): its path, and how many file names
 * have been handed out in it.  The path has room for a file's number.
 */
static char workdir[PATH_MAX + 32];
static volatile size_t workdir_len, workdir_files;

/*
 * Remove the work directory and the files named in it.  Called from a
 * signal handler too: no allocation, no stdio, only unlink and rmdir.
 */
static void
workdir_clean(void)
{
	char path[sizeof(workdir)], digits[24];
	size_t n, len = workdir_len, i, k;

	if (len == 0)
		return;
	memcpy(path, workdir, len);
	path[len] = '/';
	for (i = 0; i < workdir_files; i++) {
		n = i;
		k = 0;
		do
			digits[k++] = (char)('0' + n % 10);
		while ((n /= 10) > 0);
		for (n = 0; n < k; n++)
			path[len + 1 + n] = digits[k - 1 - n];
		path[len + 1 + k] = '\0';
		unlink(path);
	}
	workdir[len] = '\0';
	rmdir(workdir);
	workdir_len = 0;
}

static void
tmp_cleanup_signal(int sig)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] != NULL)
			unlink(tmpfiles[i]);
	workdir_clean();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * At exit, a temporary file still registered belongs to a run that did
 * not commit it (die(), an out-of-memory exit): remove it.
 */
static void
tmp_cleanup_exit(void)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] != NULL)
			unlink(tmpfiles[i]);
	workdir_clean();
}

/* Remove what is registered at exit() and on the signals that end us. */
static void
tmp_handlers(void)
{
	static int atexit_done;

	if (!atexit_done && atexit(tmp_cleanup_exit) == 0)
		atexit_done = 1;
	signal(SIGINT, tmp_cleanup_signal);
	signal(SIGTERM, tmp_cleanup_signal);
	signal(SIGHUP, tmp_cleanup_signal);
	signal(SIGQUIT, tmp_cleanup_signal);
	/*
	 * A closed pipe ends us as quietly as before (the handler removes,
	 * then dies of SIGPIPE): "gpumem read ... | head" in passes leaves
	 * no work directory.  A SIGPIPE ignored stays ignored.
	 */
	if (signal(SIGPIPE, tmp_cleanup_signal) == SIG_IGN)
		signal(SIGPIPE, SIG_IGN);
}

static void
tmp_register(char *path)
{
	int i;

	tmp_handlers();
	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] == NULL) {
			tmpfiles[i] = path;
			break;
		}
}

const char *
outfile_tmpdir_make(void)
{
	const char *base = getenv("TMPDIR");
	int n;

	if (workdir_len != 0)
		BUG("a second work directory");
	if (base == NULL || *base == '\0')
		base = "/tmp";
	n = snprintf(workdir, sizeof(workdir) - 32, "%s/gpumem.XXXXXX", base);
	if (n < 0 || (size_t)n >= sizeof(workdir) - 32) {
		msg("%s: a temporary directory's name too long", base);
		return NULL;
	}
	tmp_handlers();
	if (mkdtemp(workdir) == NULL) {
		msg("%s: cannot make a temporary directory:", base);
		return NULL;
	}
	workdir_files = 0;
	workdir_len = strlen(workdir);
	return workdir;
}

void
outfile_tmpdir_file(struct sbuf *sb)
{
	if (workdir_len == 0)
		BUG("outfile_tmpdir_file without a work directory");
	sbuf_reset(sb);
	sbuf_printf(sb, "%s/%zu", workdir, (size_t)workdir_files);
	workdir_files++;
}

void
outfile_tmpdir_remove(void)
{
	workdir_clean();
}

static void
tmp_unregister(const char *path)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmpfiles[i] == path)
			tmpfiles[i] = NULL;
}

/*
 * A write failed: when the reader of our pipe went away (EPIPE), end the
 * way a default SIGPIPE ends us, quietly, so that "gpumem x | head" is no
 * error.  Otherwise return and let the caller say what failed.
 */
static void
pipe_closed(void)
{
	if (errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
}

int
outfile_ewrite_file(FILE *f, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	if (fwrite(p, 1, n, f) == n)
		return 0;
	pipe_closed();
	return -1;
}

int
outfile_close_stdout(void)
{
	int failed = 0;

	if (fflush(stdout) != 0 || ferror(stdout))
		failed = 1;
	if (fclose(stdout) != 0)
		failed = 1;
	if (failed) {
		pipe_closed();
		msg("standard output: write error:");
		return EXIT_TROUBLE;
	}
	return EXIT_OK;
}

/*
 * Give the temporary file fd the mode of the file it will replace (and,
 * when we are root, its owner and group), else the mode of a new file.
 * Done before anything is written: mkstemp made it 0600, so the content
 * of a private file is never readable by others, not even for a moment.
 * The set-id bits are not kept: a report is no program.
 */
static void
keep_mode(int fd, const char *path)
{
	struct stat st;
	mode_t um;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		/* chown first: it may clear mode bits. */
		if (geteuid() == 0)
			(void)fchown(fd, st.st_uid, st.st_gid);
		(void)fchmod(fd, st.st_mode & 0777);
		return;
	}
	um = umask(0);
	umask(um);
	(void)fchmod(fd, 0666 & ~um);
}

/*
 * A file with no name (O_TMPFILE) in the folder of tmpl, to be given
 * tmpl's name by give_name() when it is complete: until then no signal,
 * not even SIGKILL, can leave it behind.  -1 where the file system or the
 * kernel has no O_TMPFILE, or no /proc to name it through: the caller
 * falls back to mkstemp().
 */
static int
open_anon(const char *tmpl)
{
#ifdef O_TMPFILE
	const char *slash = strrchr(tmpl, '/');
	char *dir;
	int fd;

	if (access("/proc/self/fd", X_OK) != 0)
		return -1;
	dir = slash != NULL ? estrndup(tmpl, (size_t)(slash - tmpl + 1)) :
	    estrdup(".");
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	free(dir);
	return fd;
#else
	(void)tmpl;
	return -1;
#endif
}

/*
 * Give the nameless file fd the name tmpl (its XXXXXX made unique), to be
 * renamed into place: link(2) cannot replace a file.  Return 0, or -1 with
 * errno set.
 */
static int
give_name(int fd, char *tmpl)
{
	char proc[64], *x = tmpl + strlen(tmpl) - 6;
	int tries, t;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (tries = 0; tries < 100; tries++) {
		/* A unique name from mkstemp(), freed for the link. */
		memcpy(x, "XXXXXX", 6);
		if ((t = mkstemp(tmpl)) < 0)
			return -1;
		close(t);
		unlink(tmpl);
		tmp_register(tmpl);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, tmpl,
		    AT_SYMLINK_FOLLOW) == 0)
			return 0;
		tmp_unregister(tmpl);
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * Whether path names an open descriptor (/dev/stdout, /dev/fd/1,
 * /proc/self/fd/1, or a link to one): its folder, or the folder of a link
 * on the way, is in /proc.  Its target, a regular file among them, is the
 * descriptor's file, which a shell opened (perhaps to append): it is
 * written in place, never replaced.
 */
static int
names_descriptor(const char *path)
{
	char *p = estrdup(path), dir[PATH_MAX], link[PATH_MAX];
	int hops, yes = 0;

	for (hops = 0; hops < 40; hops++) {
		char *slash = strrchr(p, '/'), *d;
		struct stat st;
		ssize_t n;

		d = slash == NULL ? estrdup(".") : slash == p ? estrdup("/") :
		    estrndup(p, (size_t)(slash - p));
		if (realpath(d, dir) == NULL) {
			free(d);
			break;
		}
		free(d);
		if (strncmp(dir, "/proc/", 6) == 0) {
			yes = 1;
			break;
		}
		if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode) ||
		    (n = readlink(p, link, sizeof(link) - 1)) < 0)
			break;
		link[n] = '\0';
		free(p);
		if (link[0] == '/')
			p = estrdup(link);
		else {
			struct sbuf sb = SBUF_INIT;

			sbuf_printf(&sb, "%s/%s", dir, link);
			p = sb.buf;
		}
	}
	free(p);
	return yes;
}

enum out_kind {
	OUT_REPLACE,	/* a regular file or none yet: a temporary, renamed */
	OUT_IN_PLACE,	/* a device, a fifo, a descriptor: written as it is */
	OUT_TARGET	/* a link to a regular file: replace that file */
};

/*
 * How path is written.  Nothing but a regular file is ever renamed over:
 * a device or a pipe (/dev/full, a fifo, /dev/stdout, /dev/fd/1) is
 * written in place, and so is any descriptor path; a symbolic link to a
 * regular file keeps the link, its file (real, PATH_MAX bytes) replaced.
 */
static enum out_kind
out_kind(const char *path, char *real)
{
	struct stat lst, st;

	if (lstat(path, &lst) != 0 || S_ISREG(lst.st_mode))
		return OUT_REPLACE;
	if (S_ISLNK(lst.st_mode) && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode) && !names_descriptor(path) &&
	    realpath(path, real) != NULL)
		return OUT_TARGET;
	return OUT_IN_PLACE;
}

/*
 * Open path as it is, without truncating it: a device or a pipe has
 * nothing to truncate, and a descriptor's file holds what was written
 * before us ("{ echo x; gpumem ... -o /dev/stdout; } >> log").
 */
static int
open_in_place(struct outfile *o, const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0 || (o->f = fdopen(fd, "a")) == NULL) {
		msg("%s: cannot open for writing:", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	o->path = estrdup(path);
	return 0;
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

const char *
outfile_input(const char *path, char *const *in, int n)
{
	struct stat out, dir, st;
	const char *slash, *base;
	char *d;
	int i, have_dir;

	/* A device or a fifo is written in place: nothing is replaced. */
	if (path == NULL || strcmp(path, "-") == 0 || stat(path, &out) != 0 ||
	    !S_ISREG(out.st_mode))
		return NULL;
	/* The folder the output lies in, for a directory input. */
	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	d = slash == NULL ? estrdup(".") : slash == path ? estrdup("/") :
	    estrndup(path, (size_t)(slash - path));
	have_dir = *base != '.' && stat(d, &dir) == 0;
	free(d);
	for (i = 0; i < n; i++) {
		if (strcmp(in[i], "-") == 0 || stat(in[i], &st) != 0)
			continue;
		if (same_file(&st, &out) ||
		    (have_dir && S_ISDIR(st.st_mode) && same_file(&st, &dir)))
			return in[i];
	}
	return NULL;
}

int
outfile_open(struct outfile *o, const char *path)
{
	const char *slash;
	char real[PATH_MAX];
	int fd;

	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	switch (out_kind(path, real)) {
	case OUT_IN_PLACE:
		return open_in_place(o, path);
	case OUT_TARGET:
		path = real;	/* the link stays, its file is replaced */
		break;
	default:
		break;
	}
	o->path = estrdup(path);
	slash = strrchr(path, '/');
	{
		struct sbuf sb = SBUF_INIT;

		if (slash != NULL)
			sbuf_add(&sb, path, (size_t)(slash - path + 1));
		sbuf_printf(&sb, ".%s.tmpXXXXXX",
		    slash != NULL ? slash + 1 : path);
		o->tmp = sb.buf;
	}
	if ((fd = open_anon(o->tmp)) >= 0) {
		o->anon = 1;
	} else if ((fd = mkstemp(o->tmp)) >= 0) {
		tmp_register(o->tmp);
	} else {
		msg("%s: cannot create output:", path);
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return -1;
	}
	keep_mode(fd, path);
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		msg("%s:", path);
		close(fd);
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int
outfile_commit(struct outfile *o)
{
	int failed = 0;

	if (o->path == NULL) {
		if (fflush(o->f) != 0 || ferror(o->f)) {
			pipe_closed();
			msg("standard output: write error:");
			return -1;
		}
		return 0;
	}
	if (fflush(o->f) != 0 || ferror(o->f)) {
		msg("%s: write error:", o->path);
		outfile_abort(o);
		return -1;
	}
	if (o->anon && give_name(fileno(o->f), o->tmp) < 0) {
		msg("%s: cannot link the output into its folder:", o->path);
		o->anon = 0;	/* no name given, none to remove */
		free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return -1;
	}
	o->anon = 0;
	if (fclose(o->f) != 0)
		failed = 1;
	o->f = NULL;
	if (failed) {
		msg("%s: write error:", o->path);
		outfile_abort(o);
		return -1;
	}
	if (o->tmp == NULL) {
		/* Written in place (not a regular file). */
		free(o->path);
		o->path = NULL;
		return 0;
	}
	if (rename(o->tmp, o->path) != 0) {
		msg("%s: cannot rename %s into place:", o->path, o->tmp);
		outfile_abort(o);
		return -1;
	}
	tmp_unregister(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void
outfile_abort(struct outfile *o)
{
	if (o->f != NULL && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp != NULL && !o->anon) {
		unlink(o->tmp);
		tmp_unregister(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	o->anon = 0;
}
