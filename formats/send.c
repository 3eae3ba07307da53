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
 * Frames go out through transport.h (UDP datagrams, or a TCP connection
 * made again when it breaks): a live sender drops the frames made while
 * the connection is down, a sender reading files waits.  After
 * --retry-for without a connection it gives up: exit 2.  Frames a TCP
 * collector did not acknowledge are said and exit 2 too: they are lost.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
#define SEND_TIMEOUT_DEFAULT "10s"
#define BATCH_BYTES (256U * 1024)	/* files: frames sent at once */

enum {
	OPT_RETRY_FOR = OPT_READ_LAST,
	OPT_SEND_TIMEOUT
};

static const struct cmd_opt opts[] = {
	{OPT_LIVE, "live", NULL, "read every input live"},
	{OPT_NO_LIVE, "no-live", NULL, "read pipes as files (whole reorder "
	    "windows)"},
	{OPT_LAG, "lag", "DUR", "live: how long a record waits for earlier "
	    "ones (0; grows)"},
	{OPT_RETRY_FOR, "retry-for", "DUR", "TCP: give up after so long "
	    "without a connection (" RETRY_FOR_DEFAULT ")"},
	{OPT_SEND_TIMEOUT, "send-timeout", "DUR", "TCP: a collector that "
	    "takes nothing for so long\nis a broken connection ("
	    SEND_TIMEOUT_DEFAULT "; 0: never)"},
	{'v', "verbose", NULL, "say more (what was sent)"},
	{0, NULL, NULL, NULL}
};

/* The transport, the framing and what the records' hosts were. */
struct sender {
	struct transport t;
	struct framer fr;
	char *firsthost;	/* the first record's host */
	uint64_t otherhosts;	/* records of other hosts */
	char *otherhost;	/* the first of them */
};

static volatile sig_atomic_t stop;

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

/* --retry-for and --send-timeout, as given. */
static const char *retry_for = RETRY_FOR_DEFAULT;
static const char *send_timeout = SEND_TIMEOUT_DEFAULT;

static int
option(void *ctx, int val, const char *arg)
{
	(void)ctx;
	if (val == OPT_RETRY_FOR)
		retry_for = arg;
	else if (val == OPT_SEND_TIMEOUT)
		send_timeout = arg;
	else
		return 0;
	return 1;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [--live | --no-live] [--lag DUR] [--retry-for DUR]\n"
	    "[--send-timeout DUR] [read options] DEST [FILE ...]",
	.about = "Read GPU memory telemetry (anything gpumem read reads) and "
	    "send it as GMEM\nframes to DEST, udp://HOST[:PORT] or "
	    "tcp://HOST[:PORT] (port 9717; an IPv6\naddress in brackets).  "
	    "With no FILE, or when FILE is -, read standard input.\nInputs "
	    "that are not regular files are read live: records go out as "
	    "they come.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, bad DEST, no connection, "
	    "frames the\nTCP collector did not acknowledge, unreadable input)",
	.flags = CMD_READ | CMD_READHELP | CMD_LIVEAUTO,
	.option = option,
	.run = run,
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
	transport_send(&s->t, 0);
	return s->t.gave_up;
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

	if (framer_inexact(&s->fr, "sent", &sb))
		warnmsg("%s", sb.buf);
	sbuf_release(&sb);
	if (s->otherhosts > 0)
		warnmsg("%llu records of hosts other than the first ('%s', "
		    "then '%s'): GMEM frames carry no host, the collector "
		    "takes them all for this machine's, GPUs of the same "
		    "index mixed", (unsigned long long)s->otherhosts,
		    s->firsthost, s->otherhost);
	transport_report(&s->t);
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
	uint64_t retry_ns, timeout_ns;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (argc < 1) {
		msg("no DEST: where to send (udp://HOST:PORT or "
		    "tcp://HOST:PORT)");
		cmd_usage(&cmd, EXIT_TROUBLE);
	}
	if (gtime_duration(retry_for, &retry_ns) < 0)
		die("--retry-for: '%s': expected a duration (0, 10s, 5m)",
		    retry_for);
	if (gtime_duration(send_timeout, &timeout_ns) < 0)
		die("--send-timeout: '%s': expected a duration (0, 10s, 1m)",
		    send_timeout);
	transport_init(&s->t, argv[0], &stop);
	s->t.retry_for = retry_ns;
	s->t.send_timeout = timeout_ns;
	*paths = argv + 1;
	*np = (size_t)argc - 1;
	if (opt->live == LIVE_ON)
		s->t.live = 1;
	else if (opt->live == LIVE_AUTO) {
		s->t.live = *np == 0 && is_live_input("-");
		for (i = 0; i < *np; i++)
			s->t.live |= is_live_input((*paths)[i]);
	}

	/* A signal ends the input: what was read goes out, flagged last. */
	msg_trap_stops(on_signal);

	return transport_open(&s->t) < 0;
}

static void
sender_close(struct sender *s)
{
	transport_release(&s->t);
	framer_release(&s->fr, NULL);
	free(s->firsthost);
	free(s->otherhost);
}

/* The inputs out to DEST (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct sender s;
	struct stream *st;
	const struct rec *r;
	char **paths;
	size_t npaths;
	int status;

	if (sender_open(&s, c->argc, c->argv, &paths, &npaths) != 0)
		return EXIT_OK;
	framer_init(&s.fr, s.t.tcp ? GMEM_MAXCOUNT : FRAMER_UDP_MAXREC,
	    transport_frame, &s.t);
	input_set_wait_hook(on_wait, &s);
	st = stream_open(paths, npaths, &c->ro);
	while (!s.t.gave_up && (r = stream_next(st)) != NULL) {
		note_host(&s, r);
		framer_add(&s.fr, r, NULL, 0);
		if (s.t.q.n > 0 && (s.t.live || s.t.q.len >= BATCH_BYTES))
			transport_send(&s.t, 0);
	}
	if (!s.t.gave_up) {
		framer_end(&s.fr, 1);
		transport_send(&s.t, 1);
	}
	transport_finish(&s.t);
	input_set_wait_hook(NULL, NULL);
	status = stream_close(st);
	say_end(&s);
	if (s.t.gave_up || s.t.lost_frames > 0)
		status = EXIT_TROUBLE;
	sender_close(&s);
	return status;
}

int
main(int argc, char *argv[])
{
	return cmd_main(&cmd, argc, argv);
}
