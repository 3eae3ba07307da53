/* SPDX-License-Identifier: ISC */
/*
 * transport.c: GMEM frames to a collector over UDP or TCP (transport.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "framer.h"
#include "gmem.h"
#include "gtime.h"
#include "transport.h"
#include "util.h"

#define BACKOFF_FIRST (NS_PER_SEC / 10)	/* after the immediate retry */
#define BACKOFF_MAX (5 * NS_PER_SEC)
#define CONNECT_TIMEOUT_MS 5000
#define MMSG_MAX 64			/* datagrams a sendmmsg(2) */
#define DRAIN_WAIT (5 * NS_PER_SEC)	/* the end: for the last acks */
#define DRAIN_POLL_MS 10

/* --- the destination --- */

/*
 * DEST: udp://HOST[:PORT] or tcp://HOST[:PORT], HOST a name, an IPv4
 * address or an IPv6 one in brackets.
 */
void
transport_init(struct transport *t, const char *dest,
    volatile sig_atomic_t *stop)
{
	const char *p, *end, *colon;
	uint64_t port = GMEM_PORT;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->stop = stop;
	t->dest = dest;
	if (strncmp(dest, "udp://", 6) == 0)
		t->tcp = 0;
	else if (strncmp(dest, "tcp://", 6) == 0)
		t->tcp = 1;
	else
		die("'%s': expected udp://HOST[:PORT] or tcp://HOST[:PORT]",
		    dest);
	p = dest + 6;
	if (*p == '[') {
		end = strchr(p, ']');
		if (end == NULL || end == p + 1)
			die("'%s': an IPv6 address in brackets is not closed",
			    dest);
		t->host = estrndup(p + 1, (size_t)(end - p - 1));
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
		t->host = estrndup(p, (size_t)(end - p));
	}
	if (colon != NULL && (num_parse_u64(colon + 1, strlen(colon + 1),
	    &port) < 0 || port < 1 || port > 65535))
		die("'%s': port '%s': expected 1-65535", dest, colon + 1);
	t->port = emalloc(8);
	snprintf(t->port, 8, "%u", (unsigned)port);
}

static struct addrinfo *
resolve(struct transport *t)
{
	struct addrinfo hints, *res = NULL;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = t->tcp ? SOCK_STREAM : SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(t->host, t->port, &hints, &res);
	if (rc != 0) {
		snprintf(t->why, sizeof(t->why), "cannot resolve '%s': %s",
		    t->host, rc == EAI_SYSTEM ? strerror(errno) :
		    gai_strerror(rc));
		return NULL;
	}
	return res;
}

/* UDP: a socket connected to the first address DEST names, or die. */
static void
udp_open(struct transport *t)
{
	struct addrinfo *res = resolve(t);

	if (res == NULL)
		die("%s: %s", t->dest, t->why);
	t->fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC,
	    res->ai_protocol);
	if (t->fd < 0 || connect(t->fd, res->ai_addr, res->ai_addrlen) < 0)
		die("%s:", t->dest);
	freeaddrinfo(res);
}

/*
 * One TCP connection attempt to address a, waiting at most
 * CONNECT_TIMEOUT_MS.  Return the socket, or -1 with t->why set.
 */
static int
tcp_try(struct transport *t, const struct addrinfo *a)
{
	struct pollfd pf;
	socklen_t len;
	int fd, err = 0, one = 1, rc;

	fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    a->ai_protocol);
	if (fd < 0) {
		snprintf(t->why, sizeof(t->why), "%s", strerror(errno));
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
		while (rc < 0 && errno == EINTR && !*t->stop);
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
	/*
	 * A collector that accepts but never reads would block a write
	 * for ever (and the nvidia-smi feeding us): after send_timeout
	 * the write fails with EAGAIN and the connection counts as broken.
	 */
	if (t->send_timeout > 0) {
		struct timeval tv;

		tv.tv_sec = (time_t)(t->send_timeout / NS_PER_SEC);
		tv.tv_usec = (suseconds_t)(t->send_timeout % NS_PER_SEC /
		    1000);
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	return fd;
fail:
	snprintf(t->why, sizeof(t->why), "%s", strerror(err));
	close(fd);
	return -1;
}

/* Connect to any address DEST names: 0, or -1 with t->why set. */
static int
tcp_connect(struct transport *t)
{
	struct addrinfo *res, *a;

	res = resolve(t);
	if (res == NULL)
		return -1;
	for (a = res; a != NULL && t->fd < 0 && !*t->stop; a = a->ai_next)
		t->fd = tcp_try(t, a);
	freeaddrinfo(res);
	return t->fd >= 0 ? 0 : -1;
}

/* --- what the collector acknowledged --- */

/*
 * Bytes written on the connection that its peer has not acknowledged
 * (SIOCOUTQ; still right after a reset), or 0 when that cannot be known.
 */
static uint64_t
unacked(const struct transport *t)
{
	int n;

	if (ioctl(t->fd, SIOCOUTQ, &n) < 0 || n < 0)
		return 0;
	return (uint64_t)n > t->conn_bytes ? t->conn_bytes : (uint64_t)n;
}

/*
 * Forget the frames written on this connection that the collector
 * acknowledged whole.  With over (the connection is over), count the
 * others as lost rather than sent, and start afresh.
 */
static void
settle(struct transport *t, int over)
{
	uint64_t acked = t->conn_bytes - unacked(t);
	size_t i, j;

	for (i = 0; i < t->nw && t->w[i].end <= acked; i++)
		;
	if (!over) {
		if (i > 0)
			memmove(t->w, t->w + i, (t->nw - i) * sizeof(*t->w));
		t->nw -= i;
		return;
	}
	for (j = i; j < t->nw; j++) {
		uint64_t len = t->w[j].end - t->w[j].start;

		t->lost_frames++;
		t->lost_recs += t->w[j].nrec;
		t->lost_bytes += len;
		t->frames--;
		t->recs -= t->w[j].nrec;
		t->bytes -= len;
	}
	if (i < t->nw)
		t->lost_conns++;
	t->nw = 0;
	t->conn_bytes = t->w_end = 0;
}

/* Frame i of the queue is written whole on this connection. */
static void
written(struct transport *t, size_t i)
{
	const struct tqueue *q = &t->q;
	uint64_t len = q->f[i].end - (i == 0 ? 0 : q->f[i - 1].end);

	/* Make room by forgetting what was acknowledged, else grow. */
	if (t->nw == t->wcap)
		settle(t, 0);
	if (t->nw == t->wcap) {
		t->wcap = t->wcap ? 2 * t->wcap : 1024;
		t->w = ereallocarray(t->w, t->wcap, sizeof(*t->w));
	}
	t->w[t->nw].start = t->w_end;
	t->w_end += len;
	t->w[t->nw].end = t->w_end;
	t->w[t->nw].nrec = q->f[i].nrec;
	t->nw++;
}

/* The connection broke: say why, and try again at once. */
static void
tcp_down(struct transport *t, const char *why)
{
	settle(t, 1);
	close(t->fd);
	t->fd = -1;
	snprintf(t->why, sizeof(t->why), "%s", why);
	warnmsg("%s: connection lost (%s); reconnecting", t->dest, why);
	t->down_since = gtime_clock(CLOCK_MONOTONIC);
	t->next_try = t->down_since;
	t->backoff = 0;
	t->down_frames = t->down_recs = 0;
}

/*
 * The frames dropped while the connection is down, said: return 1, or 0
 * when there were none.
 */
static int
say_dropped(const struct transport *t)
{
	char a[GTIME_BUFSZ];

	if (t->down_frames == 0)
		return 0;
	msg("dropped %llu frame%s (%llu records) while %s was down for %s s",
	    (unsigned long long)t->down_frames, t->down_frames == 1 ? "" : "s",
	    (unsigned long long)t->down_recs, t->dest,
	    gtime_fmt_secs(gtime_clock(CLOCK_MONOTONIC) - t->down_since, a));
	return 1;
}

/*
 * Try to get the connection back; with wait, until it is back, the time
 * is up (t->gave_up) or a signal came.  Return 0 when connected.
 */
static int
tcp_up(struct transport *t, int wait)
{
	char a[GTIME_BUFSZ];
	uint64_t now;

	while (t->fd < 0 && !t->gave_up) {
		now = gtime_clock(CLOCK_MONOTONIC);
		if (now < t->next_try) {
			struct timespec ts;
			uint64_t d = t->next_try - now;

			if (!wait || *t->stop)
				return -1;
			ts.tv_sec = (time_t)(d / NS_PER_SEC);
			ts.tv_nsec = (long)(d % NS_PER_SEC);
			nanosleep(&ts, NULL);
			continue;
		}
		if (tcp_connect(t) == 0)
			break;
		if (*t->stop)
			return -1;
		now = gtime_clock(CLOCK_MONOTONIC);
		if (now - t->down_since >= t->retry_for) {
			t->gave_up = 1;
			return -1;
		}
		t->backoff = t->backoff == 0 ? BACKOFF_FIRST :
		    t->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : t->backoff * 2;
		t->next_try = now + t->backoff;
	}
	if (t->fd < 0)
		return -1;
	if (t->was_up && !say_dropped(t))
		warnmsg("%s: reconnected after %s s", t->dest,
		    gtime_fmt_secs(gtime_clock(CLOCK_MONOTONIC) -
		    t->down_since, a));
	t->was_up = 1;
	t->down_since = 0;
	t->down_frames = t->down_recs = 0;
	return 0;
}

/*
 * Whether the collector closed the connection (or reset it): it never
 * writes, so anything to read is the end.  Seen before writing, a closed
 * connection loses no frame into a socket that will never deliver it.
 */
static int
peer_closed(struct transport *t, char *why, size_t n)
{
	struct pollfd pf;
	char buf[512];
	socklen_t len;
	ssize_t r;
	int err = 0;

	pf.fd = t->fd;
	pf.events = POLLIN | POLLRDHUP;
	pf.revents = 0;
	if (poll(&pf, 1, 0) <= 0)
		return 0;
	if (pf.revents & (POLLERR | POLLHUP)) {
		len = sizeof(err);
		getsockopt(t->fd, SOL_SOCKET, SO_ERROR, &err, &len);
		snprintf(why, n, "%s", err != 0 ? strerror(err) :
		    "closed by the collector");
		return 1;
	}
	/* Something to read: drain it; the end of it is the close. */
	while ((r = recv(t->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
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

void
transport_frame(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *frame, size_t len, size_t nrec)
{
	struct transport *t = arg;
	struct tqueue *q = &t->q;

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
qstart(const struct tqueue *q, size_t i)
{
	return i == 0 ? 0 : q->f[i - 1].end;
}

static void
queue_clear(struct tqueue *q)
{
	q->len = q->n = q->done = q->off = 0;
}

/* Count the frames before upto as sent. */
static void
sent(struct transport *t, size_t upto)
{
	struct tqueue *q = &t->q;

	for (; q->done < upto; q->done++) {
		t->frames++;
		t->recs += q->f[q->done].nrec;
		t->bytes += q->f[q->done].end - qstart(q, q->done);
	}
}

/* Drop the frames not sent yet. */
static void
drop_rest(struct transport *t)
{
	struct tqueue *q = &t->q;

	for (; q->done < q->n; q->done++) {
		t->drop_frames++;
		t->drop_recs += q->f[q->done].nrec;
		t->down_frames++;
		t->down_recs += q->f[q->done].nrec;
	}
}

/* UDP: every queued frame a datagram, in batches. */
static void
udp_send(struct transport *t)
{
	struct tqueue *q = &t->q;
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
		r = sendmmsg(t->fd, m, (unsigned)k, 0);
		if (r > 0) {
			sent(t, q->done + (size_t)r);
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
			t->refused++;
			refused_again = 1;
			continue;
		}
		/* This datagram cannot go: drop it, say why once. */
		if (r < 0 && errno != t->udp_errno) {
			t->udp_errno = errno;
			msg("%s: %s; frames are dropped while it lasts",
			    t->dest, strerror(errno));
		}
		t->drop_frames++;
		t->drop_recs += q->f[q->done].nrec;
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
tcp_send(struct transport *t, int final)
{
	struct tqueue *q = &t->q;
	char why[160];
	ssize_t w;
	int wait = !t->live || final;

	while (q->done < q->n) {
		if (t->fd < 0 && tcp_up(t, wait && !*t->stop) < 0) {
			drop_rest(t);
			break;
		}
		if (q->off == qstart(q, q->done) && peer_closed(t, why,
		    sizeof(why))) {
			tcp_down(t, why);
			continue;
		}
		w = send(t->fd, q->buf + q->off, q->len - q->off,
		    MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			char a[GTIME_BUFSZ];

			if (errno == EAGAIN || errno == EWOULDBLOCK)
				snprintf(why, sizeof(why), "the collector "
				    "took nothing for %s s: see --send-timeout",
				    gtime_fmt_secs(t->send_timeout, a));
			else
				snprintf(why, sizeof(why), "%s",
				    strerror(errno));
			tcp_down(t, why);
			/* The frame cut by the break goes again whole. */
			q->off = qstart(q, q->done);
			continue;
		}
		q->off += (size_t)w;
		t->conn_bytes += (uint64_t)w;
		while (q->done < q->n && q->f[q->done].end <= q->off) {
			written(t, q->done);
			sent(t, q->done + 1);
		}
	}
	queue_clear(q);
}

void
transport_send(struct transport *t, int final)
{
	if (t->q.n == 0)
		return;
	if (t->tcp)
		tcp_send(t, final);
	else
		udp_send(t);
}

int
transport_open(struct transport *t)
{
	char a[GTIME_BUFSZ];

	if (!t->tcp) {
		udp_open(t);
		return 0;
	}
	t->down_since = gtime_clock(CLOCK_MONOTONIC);
	t->next_try = t->down_since;
	if (tcp_up(t, 1) == 0)
		return 0;
	if (*t->stop)
		return -1;
	die("%s: cannot connect: %s (gave up after %s s; see --retry-for)",
	    t->dest, t->why, gtime_fmt_secs(t->retry_for, a));
}

void
transport_finish(struct transport *t)
{
	struct timespec ts = {0, DRAIN_POLL_MS * 1000000L};
	uint64_t end;
	char why[160];

	if (!t->tcp || t->fd < 0)
		return;
	end = gtime_clock(CLOCK_MONOTONIC) + DRAIN_WAIT;
	/*
	 * Before shutdown: its FIN would count in SIOCOUTQ too.  A collector
	 * that closed acknowledges nothing more.
	 */
	while (unacked(t) > 0 && gtime_clock(CLOCK_MONOTONIC) < end &&
	    !peer_closed(t, why, sizeof(why)))
		nanosleep(&ts, NULL);
	settle(t, 1);
	shutdown(t->fd, SHUT_WR);
}

void
transport_report(const struct transport *t)
{
	char a[GTIME_BUFSZ];

	if (t->refused > 0)
		warnmsg("%s: nobody listening (ICMP port unreachable came "
		    "back %llu time%s)", t->dest,
		    (unsigned long long)t->refused, t->refused == 1 ? "" : "s");
	if (t->tcp && t->fd < 0 && t->down_since != 0)
		say_dropped(t);
	if (t->lost_frames > 0)
		msg("%s: %llu records (%llu bytes) not acknowledged by the "
		    "collector, lost with %llu connection%s",
		    t->dest, (unsigned long long)t->lost_recs,
		    (unsigned long long)t->lost_bytes,
		    (unsigned long long)t->lost_conns,
		    t->lost_conns == 1 ? "" : "s");
	if (t->gave_up)
		msg("%s: gave up after %s s without a connection (%s)",
		    t->dest, gtime_fmt_secs(t->retry_for, a), t->why);
	note("sent %llu records in %llu frames (%llu bytes) to %s%s",
	    (unsigned long long)t->recs, (unsigned long long)t->frames,
	    (unsigned long long)t->bytes, t->dest, t->live ? ", live" : "");
	if (t->drop_frames > 0)
		note("dropped %llu frames (%llu records) in all",
		    (unsigned long long)t->drop_frames,
		    (unsigned long long)t->drop_recs);
}

void
transport_release(struct transport *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->q.buf);
	free(t->q.f);
	free(t->w);
	free(t->host);
	free(t->port);
}
