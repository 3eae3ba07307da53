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
#include "util.h"

#define BACKOFF_FIRST (NS_PER_SEC / 10)	/* after the immediate retry */
#define BACKOFF_MAX (5 * NS_PER_SEC)
#define CONNECT_TIMEOUT_MS 5000
#define RETRY_FOR_DEFAULT "30s"
#define BATCH_BYTES (256U * 1024)	/* files: frames sent at once */
#define MMSG_MAX 64			/* datagrams a sendmmsg(2) */

enum {
	OPT_RETRY_FOR = OPT_READ_LAST
};

static const struct cmd_opt opts[] = {
	{OPT_LIVE, "live", NULL, "read every input live"},
	{OPT_NO_LIVE, "no-live", NULL, "read pipes as files (whole reorder "
	    "windows)"},
	{OPT_LAG, "lag", "DUR", "live: how long a record waits for earlier "
	    "ones (0; grows)"},
	{OPT_RETRY_FOR, "retry-for", "DUR", "TCP: give up after so long "
	    "without a connection (" RETRY_FOR_DEFAULT ")"},
	{'v', "verbose", NULL, "say more (what was sent)"},
	{0, NULL, NULL, NULL}
};

/* Frames made and not yet sent: back to back, and where each ends. */
struct queue {
	unsigned char *buf;
	size_t len, cap;
	struct qframe {
		size_t end;		/* offset just past it in buf */
		size_t nrec;
	} *f;
	size_t n, fcap;
	size_t done;		/* frames sent (or dropped) */
	size_t off;		/* TCP: bytes of buf written */
};

struct sender {
	const char *dest;	/* as given, for messages */
	int tcp;
	char *host, *port;	/* for getaddrinfo */
	int fd;			/* -1: no connection */
	int live;		/* frames go out per timestamp; drop when down */
	uint64_t retry_for;	/* ns */

	/* TCP, while there is no connection. */
	int was_up;		/* connected before: "reconnected" */
	uint64_t down_since;	/* monotonic ns */
	uint64_t next_try;
	uint64_t backoff;
	char why[160];		/* the last failure */
	uint64_t down_frames, down_recs;	/* dropped this time */
	int gave_up;

	struct queue q;
	struct framer fr;

	uint64_t frames, recs, bytes;		/* sent */
	uint64_t drop_frames, drop_recs;	/* dropped, in all */
	uint64_t refused;	/* UDP: ICMP port unreachable seen */
	int udp_errno;		/* UDP: the last error said */

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

/* --- the destination --- */

/*
 * DEST: udp://HOST[:PORT] or tcp://HOST[:PORT], HOST a name, an IPv4
 * address or an IPv6 one in brackets.
 */
static void
parse_dest(struct sender *s, const char *dest)
{
	const char *p, *end, *colon;
	uint64_t port = GMEM_PORT;

	s->dest = dest;
	if (strncmp(dest, "udp://", 6) == 0)
		s->tcp = 0;
	else if (strncmp(dest, "tcp://", 6) == 0)
		s->tcp = 1;
	else
		die("'%s': expected udp://HOST[:PORT] or tcp://HOST[:PORT]",
		    dest);
	p = dest + 6;
	if (*p == '[') {
		end = strchr(p, ']');
		if (end == NULL || end == p + 1)
			die("'%s': an IPv6 address in brackets is not closed",
			    dest);
		s->host = estrndup(p + 1, (size_t)(end - p - 1));
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] != '\0' && colon == NULL)
			die("'%s': expected ':PORT' after ']'", dest);
	} else {
		colon = strchr(p, ':');
		if (colon != NULL && strchr(colon + 1, ':') != NULL)
			die("'%s': an IPv6 address goes in brackets "
			    "(udp://[::1]:9717)", dest);
		end = colon != NULL ? colon : p + strlen(p);
		if (end == p)
			die("'%s': no host", dest);
		s->host = estrndup(p, (size_t)(end - p));
	}
	if (colon != NULL && (parse_u64(colon + 1, strlen(colon + 1),
	    &port) < 0 || port < 1 || port > 65535))
		die("'%s': port '%s': expected 1-65535", dest, colon + 1);
	s->port = emalloc(8);
	snprintf(s->port, 8, "%u", (unsigned)port);
}

static struct addrinfo *
resolve(struct sender *s)
{
	struct addrinfo hints, *res = NULL;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = s->tcp ? SOCK_STREAM : SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(s->host, s->port, &hints, &res);
	if (rc != 0) {
		snprintf(s->why, sizeof(s->why), "cannot resolve '%s': %s",
		    s->host, rc == EAI_SYSTEM ? strerror(errno) :
		    gai_strerror(rc));
		return NULL;
	}
	return res;
}

/* UDP: a socket connected to the first address DEST names, or die. */
static void
udp_open(struct sender *s)
{
	struct addrinfo *res = resolve(s);

	if (res == NULL)
		die("%s: %s", s->dest, s->why);
	s->fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC,
	    res->ai_protocol);
	if (s->fd < 0 || connect(s->fd, res->ai_addr, res->ai_addrlen) < 0)
		die("%s:", s->dest);
	freeaddrinfo(res);
}

/*
 * One TCP connection attempt to address a, waiting at most
 * CONNECT_TIMEOUT_MS.  Return the socket, or -1 with s->why set.
 */
static int
tcp_try(struct sender *s, const struct addrinfo *a)
{
	struct pollfd pf;
	socklen_t len;
	int fd, err = 0, one = 1, rc;

	fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    a->ai_protocol);
	if (fd < 0) {
		snprintf(s->why, sizeof(s->why), "%s", strerror(errno));
		return -1;
	}
	if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
		if (errno != EINPROGRESS) {
			err = errno;
			goto fail;
		}
		pf.fd = fd;
		pf.events = POLLOUT;
		do
			rc = poll(&pf, 1, CONNECT_TIMEOUT_MS);
		while (rc < 0 && errno == EINTR && !stop);
		if (rc == 0) {
			err = ETIMEDOUT;
			goto fail;
		}
		if (rc < 0) {
			err = errno;
			goto fail;
		}
		len = sizeof(err);
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			err = errno;
		if (err != 0)
			goto fail;
	}
	/* Blocking writes from now on; our frames are whole already. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		err = errno;
		goto fail;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
fail:
	snprintf(s->why, sizeof(s->why), "%s", strerror(err));
	close(fd);
	return -1;
}

/* Connect to any address DEST names: 0, or -1 with s->why set. */
static int
tcp_connect(struct sender *s)
{
	struct addrinfo *res, *a;

	res = resolve(s);
	if (res == NULL)
		return -1;
	for (a = res; a != NULL && s->fd < 0 && !stop; a = a->ai_next)
		s->fd = tcp_try(s, a);
	freeaddrinfo(res);
	return s->fd >= 0 ? 0 : -1;
}

/* The connection broke: say why, and try again at once. */
static void
tcp_down(struct sender *s, const char *why)
{
	close(s->fd);
	s->fd = -1;
	snprintf(s->why, sizeof(s->why), "%s", why);
	warnmsg("%s: connection lost (%s); reconnecting", s->dest, why);
	s->down_since = gtime_clock(CLOCK_MONOTONIC);
	s->next_try = s->down_since;
	s->backoff = 0;
	s->down_frames = s->down_recs = 0;
}

/*
 * Try to get the connection back; with wait, until it is back, the time
 * is up (s->gave_up) or a signal came.  Return 0 when connected.
 */
static int
tcp_up(struct sender *s, int wait)
{
	char a[GTIME_BUFSZ];
	uint64_t now;

	while (s->fd < 0 && !s->gave_up) {
		now = gtime_clock(CLOCK_MONOTONIC);
		if (now < s->next_try) {
			struct timespec ts;
			uint64_t d = s->next_try - now;

			if (!wait || stop)
				return -1;
			ts.tv_sec = (time_t)(d / NS_PER_SEC);
			ts.tv_nsec = (long)(d % NS_PER_SEC);
			nanosleep(&ts, NULL);
			continue;
		}
		if (tcp_connect(s) == 0)
			break;
		if (stop)
			return -1;
		now = gtime_clock(CLOCK_MONOTONIC);
		if (now - s->down_since >= s->retry_for) {
			s->gave_up = 1;
			return -1;
		}
		s->backoff = s->backoff == 0 ? BACKOFF_FIRST :
		    s->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : s->backoff * 2;
		s->next_try = now + s->backoff;
	}
	if (s->fd < 0)
		return -1;
	if (s->was_up) {
		gtime_fmt_secs(gtime_clock(CLOCK_MONOTONIC) - s->down_since,
		    a);
		if (s->down_frames > 0)
			msg("dropped %llu frame%s (%llu records) while %s was "
			    "down for %s s", (unsigned long long)s->down_frames,
			    s->down_frames == 1 ? "" : "s",
			    (unsigned long long)s->down_recs, s->dest, a);
		else
			warnmsg("%s: reconnected after %s s", s->dest, a);
	}
	s->was_up = 1;
	s->down_since = 0;
	s->down_frames = s->down_recs = 0;
	return 0;
}

/*
 * Whether the collector closed the connection (or reset it): it never
 * writes, so anything to read is the end.  Seen before writing, a closed
 * connection loses no frame into a socket that will never deliver it.
 */
static int
peer_closed(struct sender *s, char *why, size_t n)
{
	struct pollfd pf;
	char buf[512];
	socklen_t len;
	ssize_t r;
	int err = 0;

	pf.fd = s->fd;
	pf.events = POLLIN | POLLRDHUP;
	pf.revents = 0;
	if (poll(&pf, 1, 0) <= 0)
		return 0;
	if (pf.revents & (POLLERR | POLLHUP)) {
		len = sizeof(err);
		getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len);
		snprintf(why, n, "%s", err != 0 ? strerror(err) :
		    "closed by the collector");
		return 1;
	}
	/* Something to read: drain it; the end of it is the close. */
	while ((r = recv(s->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		;
	if (r == 0 || (pf.revents & POLLRDHUP)) {
		snprintf(why, n, "closed by the collector");
		return 1;
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
		snprintf(why, n, "%s", strerror(errno));
		return 1;
	}
	return 0;
}

/* --- the queue of frames --- */

/* The framer's callback: queue one frame. */
static void
queue_frame(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *frame, size_t len, size_t nrec)
{
	struct sender *s = arg;
	struct queue *q = &s->q;

	(void)g;
	(void)ts;
	if (q->len + len > q->cap) {
		q->cap = q->cap < 65536 ? 65536 : q->cap;
		while (q->cap < q->len + len)
			q->cap *= 2;
		q->buf = erealloc(q->buf, q->cap);
	}
	memcpy(q->buf + q->len, frame, len);
	q->len += len;
	if (q->n == q->fcap) {
		q->fcap = q->fcap ? 2 * q->fcap : 64;
		q->f = ereallocarray(q->f, q->fcap, sizeof(*q->f));
	}
	q->f[q->n].end = q->len;
	q->f[q->n].nrec = nrec;
	q->n++;
}

static size_t
qstart(const struct queue *q, size_t i)
{
	return i == 0 ? 0 : q->f[i - 1].end;
}

static void
queue_clear(struct queue *q)
{
	q->len = q->n = q->done = q->off = 0;
}

/* Count the frames before upto as sent. */
static void
sent(struct sender *s, size_t upto)
{
	struct queue *q = &s->q;

	for (; q->done < upto; q->done++) {
		s->frames++;
		s->recs += q->f[q->done].nrec;
		s->bytes += q->f[q->done].end - qstart(q, q->done);
	}
}

/* Drop the frames not sent yet. */
static void
drop_rest(struct sender *s)
{
	struct queue *q = &s->q;

	for (; q->done < q->n; q->done++) {
		s->drop_frames++;
		s->drop_recs += q->f[q->done].nrec;
		s->down_frames++;
		s->down_recs += q->f[q->done].nrec;
	}
}

/* UDP: every queued frame a datagram, in batches. */
static void
udp_send(struct sender *s)
{
	struct queue *q = &s->q;
	struct mmsghdr m[MMSG_MAX];
	struct iovec iov[MMSG_MAX];
	size_t k, i;
	int r, refused_again = 0;

	while (q->done < q->n) {
		k = q->n - q->done < MMSG_MAX ? q->n - q->done : MMSG_MAX;
		memset(m, 0, k * sizeof(*m));
		for (i = 0; i < k; i++) {
			size_t a = qstart(q, q->done + i);

			iov[i].iov_base = q->buf + a;
			iov[i].iov_len = q->f[q->done + i].end - a;
			m[i].msg_hdr.msg_iov = &iov[i];
			m[i].msg_hdr.msg_iovlen = 1;
		}
		r = sendmmsg(s->fd, m, (unsigned)k, 0);
		if (r > 0) {
			sent(s, q->done + (size_t)r);
			refused_again = 0;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ECONNREFUSED && !refused_again) {
			/*
			 * An earlier datagram found nobody listening (ICMP
			 * port unreachable); this one was not sent: again.
			 */
			s->refused++;
			refused_again = 1;
			continue;
		}
		/* This datagram cannot go: drop it, say why once. */
		if (r < 0 && errno != s->udp_errno) {
			s->udp_errno = errno;
			msg("%s: %s; frames are dropped while it lasts",
			    s->dest, strerror(errno));
		}
		s->drop_frames++;
		s->drop_recs += q->f[q->done].nrec;
		q->done++;
		refused_again = 0;
	}
	queue_clear(q);
}

/*
 * TCP: write the queue.  When the connection is down or breaks, a live
 * sender drops what it cannot write now; one reading files (or flushing
 * the end, final) waits for the connection to come back, and a frame cut
 * by the break goes again whole.
 */
static void
tcp_send(struct sender *s, int final)
{
	struct queue *q = &s->q;
	char why[160];
	ssize_t w;
	int wait = !s->live || final;

	while (q->done < q->n) {
		if (s->fd < 0 && tcp_up(s, wait && !stop) < 0) {
			drop_rest(s);
			break;
		}
		if (q->off == qstart(q, q->done) && peer_closed(s, why,
		    sizeof(why))) {
			tcp_down(s, why);
			continue;
		}
		w = send(s->fd, q->buf + q->off, q->len - q->off,
		    MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			tcp_down(s, strerror(errno));
			/* The frame cut by the break goes again whole. */
			q->off = qstart(q, q->done);
			continue;
		}
		q->off += (size_t)w;
		while (q->done < q->n && q->f[q->done].end <= q->off)
			sent(s, q->done + 1);
	}
	queue_clear(q);
}

static void
transmit(struct sender *s, int final)
{
	if (s->q.n == 0)
		return;
	if (s->tcp)
		tcp_send(s, final);
	else
		udp_send(s);
}

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
