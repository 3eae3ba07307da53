/* SPDX-License-Identifier: ISC */
/*
 * send.c: gpumem-send, GPU memory telemetry in (anything gpumem read
 * reads), GMEM frames out to a collector over UDP or TCP
 * (docs/wire-protocol.md).
 *
 * Records become frames through framer.h, as gpumem pcap makes them: one
 * frame per GPU and timestamp, sequence numbers per GPU, and the
 * end-of-stream flag on each GPU's last frame at the end of the input.
 * Frames carry no host: the collector names the records by our address.
 *
 * An input that is not a regular file (standard input from nvidia-smi -lms,
 * a FIFO) is read live (source.h): records are final as soon as a later
 * one has come, and the frames of a timestamp go out as soon as reading
 * would wait for more, so a poll's frames leave when the next poll is
 * printed.  Files are read as gpumem read reads them, and their frames go
 * out in batches.
 *
 * UDP: a connected socket, one frame per datagram (sendmmsg(2) sends a
 * batch), nothing to lose but datagrams; a collector that is not there
 * (ICMP port unreachable) is counted, not an error.  TCP: one connection,
 * frames back to back.  When it breaks (the collector closed it, a write
 * failed), it is made again after 0 s, 0.1 s, then twice as long each time
 * up to 5 s; a live sender drops the frames made meanwhile and says how
 * many when it is back (the collector sees the gap in the sequence
 * numbers), a sender reading files waits.  After --retry-for without a
 * connection it gives up: exit 2.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "framer.h"
#include "gmem.h"
#include "gtime.h"
#include "input.h"
#include "readopt.h"
#include "rec.h"
#include "stream.h"
#include "transport.h"
#include "util.h"

#define RETRY_FOR_DEFAULT "30s"
#define BATCH_BYTES (256U * 1024)	/* files: frames sent at once */

enum {
	OPT_RETRY_FOR = OPT_READ_LAST
};

static const struct cmd_opt opts[] = {
	{OPT_LIVE, "live", NULL, "read every input live"},
	{OPT_NO_LIVE, "no-live", NULL, "read pipes as files (whole reorder "
	    "windows)"},
	{OPT_LAG, "lag", "DUR", "live: how long a record waits for earlier "
	    "ones (0)"},
	{OPT_RETRY_FOR, "retry-for", "DUR", "TCP: give up after so long "
	    "without a connection (" RETRY_FOR_DEFAULT ")"},
	{'v', "verbose", NULL, "say more (what was sent)"},
	{0, NULL, NULL, NULL}
};

volatile sig_atomic_t stop;

/*
 * SIGINT, SIGTERM, SIGHUP: the inputs end where they are, so what was
 * read goes out, each GPU's last frame flagged, and the exit is 0.
 */
static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
	input_end_all();
}

/* --retry-for, as given. */
static const char *retry_for = RETRY_FOR_DEFAULT;

static int
option(void *ctx, int val, const char *arg)
{
	(void)ctx;
	if (val != OPT_RETRY_FOR)
		return 0;
	retry_for = arg;
	return 1;
}

static struct cmd cmd = {
	.synopsis = "[-qv] [--live | --no-live] [--lag DUR] [--retry-for DUR]\n"
	    "[read options] DEST [FILE ...]",
	.about = "Read GPU memory telemetry (anything gpumem read reads) and "
	    "send it as GMEM\nframes to DEST, udp://HOST[:PORT] or "
	    "tcp://HOST[:PORT] (port 9717; an IPv6\naddress in brackets).  "
	    "With no FILE, or when FILE is -, read standard input.\nInputs "
	    "that are not regular files are read live: records go out as "
	    "they come.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, bad DEST, no connection, "
	    "unreadable\ninput)",
	.flags = CMD_READ | CMD_READHELP | CMD_LIVEAUTO,
	.option = option,
};


/*
 * The input hook: reading is about to wait, so every frame made so far
 * goes out now, the held timestamp's too.  A sender that gave up ends
 * its inputs.
 */
static int
on_wait(void *arg)
{
	struct sender *s = arg;

	framer_flush(&s->fr);
	transmit(s, 0);
	return s->gave_up;
}

/* --- records --- */

static void
note_host(struct sender *s, const struct rec *r)
{
	if (s->firsthost == NULL) {
		s->firsthost = estrdup(r->host);
		return;
	}
	if (strcmp(r->host, s->firsthost) == 0)
		return;
	if (s->otherhost == NULL)
		s->otherhost = estrdup(r->host);
	s->otherhosts++;
}

/* Whether an input is read live when --live and --no-live are not given. */
static int
is_live_input(const char *path)
{
	struct stat sb;

	if (strcmp(path, "-") == 0)
		return fstat(STDIN_FILENO, &sb) == 0 && !S_ISREG(sb.st_mode);
	return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) &&
	    !S_ISDIR(sb.st_mode);
}

static void
say_end(struct sender *s)
{
	struct sbuf sb = SBUF_INIT;
	char a[GTIME_BUFSZ];

	if (framer_inexact(&s->fr, "sent", &sb))
		warnmsg("%s", sb.buf);
	sbuf_release(&sb);
	if (s->otherhosts > 0)
		warnmsg("%llu records of hosts other than the first ('%s', "
		    "then '%s'): GMEM frames carry no host, the collector "
		    "takes them all for this machine's, GPUs of the same "
		    "index mixed", (unsigned long long)s->otherhosts,
		    s->firsthost, s->otherhost);
	if (s->refused > 0)
		warnmsg("%s: nobody listening (ICMP port unreachable came "
		    "back %llu time%s)", s->dest,
		    (unsigned long long)s->refused, s->refused == 1 ? "" : "s");
	if (s->tcp && s->fd < 0 && s->down_since != 0 && s->down_frames > 0)
		msg("dropped %llu frame%s (%llu records) while %s was down "
		    "for %s s", (unsigned long long)s->down_frames,
		    s->down_frames == 1 ? "" : "s",
		    (unsigned long long)s->down_recs, s->dest,
		    gtime_fmt_secs(gtime_clock(CLOCK_MONOTONIC) -
		    s->down_since, a));
	if (s->gave_up)
		msg("%s: gave up after %s s without a connection (%s)",
		    s->dest, gtime_fmt_secs(s->retry_for, a), s->why);
	note("sent %llu records in %llu frames (%llu bytes) to %s%s",
	    (unsigned long long)s->recs, (unsigned long long)s->frames,
	    (unsigned long long)s->bytes, s->dest,
	    s->live ? ", live" : "");
	if (s->drop_frames > 0)
		note("dropped %llu frames (%llu records) in all",
		    (unsigned long long)s->drop_frames,
		    (unsigned long long)s->drop_recs);
}

/*
 * Set s up from the operands (DEST, then the inputs, left in *paths and
 * *np): the destination, live or not, the signals, the socket.  Return
 * 0, or 1 when a signal came while the first connection was tried.
 */
static int
sender_open(struct sender *s, int argc, char **argv, char ***paths,
    size_t *np)
{
	const struct readopts *opt = &cmd.ro;
	struct sigaction sa;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (argc < 1) {
		msg("no DEST: where to send (udp://HOST:PORT or "
		    "tcp://HOST:PORT)");
		cmd_usage(&cmd, EXIT_TROUBLE);
	}
	if (gtime_duration(retry_for, &s->retry_for) < 0)
		die("--retry-for: '%s': expected a duration (0, 10s, 5m)",
		    retry_for);
	parse_dest(s, argv[0]);
	*paths = argv + 1;
	*np = (size_t)argc - 1;
	if (opt->live == LIVE_ON)
		s->live = 1;
	else if (opt->live == LIVE_AUTO) {
		s->live = *np == 0 && is_live_input("-");
		for (i = 0; i < *np; i++)
			s->live |= is_live_input((*paths)[i]);
	}

	/* A signal ends the input: what was read goes out, flagged last. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (s->tcp) {
		s->down_since = gtime_clock(CLOCK_MONOTONIC);
		s->next_try = s->down_since;
		if (tcp_up(s, 1) < 0) {
			char a[GTIME_BUFSZ];

			if (stop)
				return 1;
			die("%s: cannot connect: %s (gave up after %s s; see "
			    "--retry-for)", s->dest, s->why,
			    gtime_fmt_secs(s->retry_for, a));
		}
	} else
		udp_open(s);
	return 0;
}

static void
sender_close(struct sender *s)
{
	if (s->fd >= 0)
		close(s->fd);
	framer_release(&s->fr, NULL);
	free(s->q.buf);
	free(s->q.f);
	free(s->host);
	free(s->port);
	free(s->firsthost);
	free(s->otherhost);
}

int
main(int argc, char *argv[])
{
	struct sender s;
	struct stream *st;
	const struct rec *r;
	char **paths;
	size_t npaths;
	int status;

	cmd_start(&cmd, argc, argv);
	if (sender_open(&s, cmd.argc, cmd.argv, &paths, &npaths) != 0)
		return EXIT_OK;
	framer_init(&s.fr, s.tcp ? GMEM_MAXCOUNT : FRAMER_UDP_MAXREC,
	    queue_frame, &s);
	input_set_wait_hook(on_wait, &s);
	st = stream_open(paths, npaths, &cmd.ro);
	while (!s.gave_up && (r = stream_next(st)) != NULL) {
		note_host(&s, r);
		framer_add(&s.fr, r, NULL, 0);
		if (s.q.n > 0 && (s.live || s.q.len >= BATCH_BYTES))
			transmit(&s, 0);
	}
	if (!s.gave_up) {
		framer_end(&s.fr, 1);
		transmit(&s, 1);
	}
	input_set_wait_hook(NULL, NULL);
	status = stream_close(st);
	say_end(&s);
	if (s.gave_up)
		status = EXIT_TROUBLE;
	sender_close(&s);
	return cmd_end(&cmd, status, CMD_COMMIT);
}
