/* SPDX-License-Identifier: ISC */
/*
 * transport.c: GMEM frames over UDP or TCP, for gpumem send
 * (transport.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* --- the destination --- */

/*
 * DEST: udp://HOST[:PORT] or tcp://HOST[:PORT], HOST a name, an IPv4
 * address or an IPv6 one in brackets.
 */
void
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
void
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
int
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
void
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

void
transmit(struct sender *s, int final)
{
	if (s->q.n == 0)
		return;
	if (s->tcp)
		tcp_send(s, final);
	else
		udp_send(s);
}
