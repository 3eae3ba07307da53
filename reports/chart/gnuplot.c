/* SPDX-License-Identifier: ISC */
/* gnuplot.c: start gnuplot, feed it a script, collect what it draws. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "util.h"

#define ERRMAX (64U * 1024)	/* gnuplot's stderr kept for the user */

/* The pipes of one child: [0] read end, [1] write end. */
struct child {
	pid_t pid;
	int in, out, err;	/* our ends */
};

static void
close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/*
 * Fork and exec gnuplot with its three standard streams on pipes.  A
 * close-on-exec pipe tells us whether the exec worked (git's
 * child_notifier): on success it closes with nothing written, else the
 * child writes its errno.  Return 0, or -1 with errno set (ENOENT: there
 * is no gnuplot).
 */
static int
start(struct child *c)
{
	static char prog[] = "gnuplot", script[] = "/dev/stdin";
	/*
	 * The script as a file gnuplot opens: from its standard input it
	 * reads a byte a read(2), a system call a byte of a large script.
	 */
	char *argv[] = {prog, script, NULL};
	int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
	int note[2] = {-1, -1}, e = 0;
	ssize_t r;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
	    pipe2(err, O_CLOEXEC) < 0 || pipe2(note, O_CLOEXEC) < 0)
		goto fail;
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0)
		goto fail;
	if (c->pid == 0) {
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 ||
		    dup2(err[1], 2) < 0)
			e = errno;
		else {
			/*
			 * Our scripts are UTF-8 with C numbers, whatever the
			 * user's locale: gnuplot must read them so (in the C
			 * locale it warns about UTF-8 it cannot convert).
			 */
			setenv("LC_ALL", "C.UTF-8", 1);
			signal(SIGPIPE, SIG_DFL);
			execvp(prog, argv);
			e = errno;
		}
		while (write(note[1], &e, sizeof(e)) < 0 && errno == EINTR)
			;
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	close(note[1]);
	do
		r = read(note[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(note[0]);
	if (r == (ssize_t)sizeof(e)) {
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(in[1]);
		close(out[0]);
		close(err[0]);
		errno = e;
		return -1;
	}
	c->in = in[1];
	c->out = out[0];
	c->err = err[0];
	return 0;
fail:
	e = errno;
	close_pair(in);
	close_pair(out);
	close_pair(err);
	close_pair(note);
	errno = e;
	return -1;
}

/*
 * Write to the child with SIGPIPE ignored, so that a gnuplot which died
 * gives us EPIPE instead of killing us; the default action comes back at
 * once, for our own output.
 */
static ssize_t
write_child(int fd, const char *p, size_t n)
{
	struct sigaction ign, old;
	ssize_t r;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	r = write(fd, p, n);
	sigaction(SIGPIPE, &old, NULL);
	return r;
}

/*
 * gnuplot's own words, in the user's terms: the user never saw our
 * script, so its line numbers and the script lines gnuplot quotes (with
 * a "^" under them) are left out, and each message is said as ours,
 * "prog: gnuplot: what" (through msg(), which makes a name from the input
 * safe for the terminal).  Another line (a script line gnuplot quotes)
 * goes out only when gnuplot failed, or with -v.
 */
static void
pass_errors(struct sbuf *errs, int failed)
{
	char *line = errs->buf, *end = errs->buf + errs->len, *nl, *p, *q;

	while (line < end) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) != NULL)
			*nl = '\0';
		p = line + strspn(line, " \t");
		if (strncmp(p, "gnuplot: ", 9) == 0)
			p += 9;
		/*
		 * "\"-\", line 12: what", "\"/dev/stdin\" line 12: what" or
		 * "line 0: what"
		 */
		if (*p == '"' && (q = strstr(p, "\", line ")) != NULL)
			p = q + 3;
		else if (*p == '"' && (q = strstr(p, "\" line ")) != NULL)
			p = q + 2;
		if (strncmp(p, "line ", 5) == 0 &&
		    (q = strstr(p, ": ")) != NULL &&
		    strspn(p + 5, "0123456789") == (size_t)(q - p - 5))
			msg("gnuplot: %s", q + 2);
		else if (strncmp(p, "Warning: ", 9) == 0)
			msg("gnuplot: warning: %s", p + 9);
		else if (*p != '\0' && strspn(p, "^ \t") != strlen(p) &&
		    (failed || verbosity > 1))
			msg("gnuplot: %s", p);
		if (nl == NULL)
			break;
		line = nl + 1;
	}
}

int
gnuplot_available(void)
{
	const char *path = getenv("PATH"), *p;
	struct sbuf sb = SBUF_INIT;
	int found = 0;

	if (path == NULL)
		path = "/usr/bin:/bin";
	for (p = path; !found;) {
		size_t n = strcspn(p, ":");

		sbuf_reset(&sb);
		/* An empty element is the current directory, as execvp takes it. */
		sbuf_printf(&sb, "%.*s/gnuplot", (int)n, n > 0 ? p : ".");
		found = access(sb.buf, X_OK) == 0;
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
	sbuf_release(&sb);
	return found;
}

int
gnuplot_run(const char *script, size_t len, FILE *out, const char *outname,
    struct sbuf *buf)
{
	struct child c;
	struct sbuf errs = SBUF_INIT;
	char chunk[65536];
	size_t off = 0;
	int status, werr = 0, errcut = 0, rc = 0;

	if (start(&c) < 0) {
		if (errno == ENOENT)
			msg("%s", GNUPLOT_MISSING);
		else
			msg("cannot run gnuplot:");
		return -1;
	}
	if (len == 0) {
		close(c.in);
		c.in = -1;
	} else
		fcntl(c.in, F_SETFL, fcntl(c.in, F_GETFL) | O_NONBLOCK);
	while (c.out >= 0 || c.err >= 0) {
		struct pollfd pf[3];
		nfds_t n = 0;
		int iin = -1, iout = -1, ierr = -1;

		if (c.in >= 0) {
			pf[n].fd = c.in;
			pf[n].events = POLLOUT;
			iin = (int)n++;
		}
		if (c.out >= 0) {
			pf[n].fd = c.out;
			pf[n].events = POLLIN;
			iout = (int)n++;
		}
		if (c.err >= 0) {
			pf[n].fd = c.err;
			pf[n].events = POLLIN;
			ierr = (int)n++;
		}
		if (poll(pf, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll:");
		}
		if (iin >= 0 && pf[iin].revents != 0) {
			ssize_t w = write_child(c.in, script + off, len - off);

			if (w > 0)
				off += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				off = len;	/* it died: its status says why */
			if (off == len) {
				close(c.in);
				c.in = -1;
			}
		}
		if (iout >= 0 && pf[iout].revents != 0) {
			ssize_t r = read(c.out, chunk, sizeof(chunk));

			if (r > 0 && !werr) {
				if (out != NULL) {
					if (outfile_ewrite_file(out, chunk,
					    (size_t)r) < 0)
						werr = errno != 0 ? errno : EIO;
				} else
					sbuf_add(buf, chunk, (size_t)r);
			} else if (r == 0 || (r < 0 && errno != EINTR &&
			    errno != EAGAIN)) {
				close(c.out);
				c.out = -1;
			}
		}
		if (ierr >= 0 && pf[ierr].revents != 0) {
			ssize_t r = read(c.err, chunk, sizeof(chunk));

			if (r > 0) {
				if (errs.len + (size_t)r <= ERRMAX)
					sbuf_add(&errs, chunk, (size_t)r);
				else
					errcut = 1;
			} else if (r == 0 || (r < 0 && errno != EINTR &&
			    errno != EAGAIN)) {
				close(c.err);
				c.err = -1;
			}
		}
	}
	/* gnuplot closed its output before reading all of the script. */
	if (c.in >= 0)
		close(c.in);
	while (waitpid(c.pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid:");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = -1;
	/* Warnings about a script the user never saw: only with -v. */
	if (errs.len > 0 && (rc < 0 || verbosity > 1)) {
		fflush(stdout);
		pass_errors(&errs, rc < 0);
		if (errcut)
			fputs("...\n", stderr);
	}
	if (WIFSIGNALED(status))
		msg("gnuplot was killed by signal %d", WTERMSIG(status));
	else if (rc < 0)
		msg("gnuplot failed (exit status %d)", WEXITSTATUS(status));
	else if (werr != 0) {
		errno = werr;
		msg("%s: write error:", outname);
		rc = -1;
	}
	sbuf_release(&errs);
	return rc;
}
