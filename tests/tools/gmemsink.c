/* SPDX-License-Identifier: ISC */
/*
 * gmemsink: a GMEM collector for tests: it listens on the loopback
 * address, takes frames, and says what it took.
 *
 *	gmemsink [-6uq] [-p PORT]
 *
 * Listens on 127.0.0.1 (::1 with -6), TCP or with -u UDP, at PORT (0, the
 * default: any free port) and prints the port on the first line of
 * standard output as soon as it listens.  Then one line per frame, as it
 * comes (not with -q):
 *
 *	frame GPU SEQ COUNT FLAGS FIRST_TS
 *
 * (FIRST_TS: the timestamp of its first record, "-" when it has none), and
 * over TCP "accept" for each connection, "close" at its end.  TCP
 * connections are taken one at a time, frames found in the byte stream by
 * the codec of formats/wire/gmem.c.  SIGTERM or SIGINT ends it: a last line on
 * standard error counts frames, records and bytes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gmem.h"
#include "util.h"

static volatile sig_atomic_t stop;
static int quiet;
static unsigned long long nframes, nrecs, nbytes, nbad;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
frame(void *arg, const unsigned char *p, size_t n, const struct gmem_hdr *h)
{
	struct gmem_rec r;

	(void)arg;
	(void)n;
	nframes++;
	nrecs += h->count;
	if (quiet)
		return;
	if (h->count > 0) {
		gmem_rec_decode(p, 0, &r);
		printf("frame %u %u %u %u %llu\n", h->gpu, h->seq, h->count,
		    h->flags, (unsigned long long)r.ts);
	} else
		printf("frame %u %u 0 %u -\n", h->gpu, h->seq, h->flags);
}

static void
bad(void *arg, const unsigned char *hdr, const char *why)
{
	(void)arg;
	(void)hdr;
	nbad++;
	if (!quiet)
		printf("bad %s\n", why);
}

static void
udp(int fd)
{
	static unsigned char buf[65536];
	struct gmem_hdr h;
	char why[GMEM_WHYSZ];
	ssize_t n;

	while (!stop) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recv:");
		}
		nbytes += (unsigned long long)n;
		if (gmem_frame_check(buf, (size_t)n, &h, why) < 0)
			bad(NULL, buf, why);
		else
			frame(NULL, buf, (size_t)n, &h);
	}
}

static void
tcp(int fd)
{
	static unsigned char buf[65536];
	struct gmem_stream gs;
	ssize_t n;
	int c;

	while (!stop) {
		c = accept(fd, NULL, NULL);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept:");
		}
		if (!quiet)
			printf("accept\n");
		gmem_stream_init(&gs, 1, NULL);
		while (!stop) {
			n = recv(c, buf, sizeof(buf), 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			nbytes += (unsigned long long)n;
			gmem_stream_feed(&gs, buf, (size_t)n, frame, bad, NULL);
		}
		gmem_stream_end(&gs);
		gmem_stream_release(&gs);
		close(c);
		if (!quiet)
			printf("close\n");
	}
}

int
main(int argc, char *argv[])
{
	struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	struct sigaction sa;
	socklen_t len;
	int ch, fd, v6 = 0, isudp = 0, one = 1, rcvbuf = 16 << 20;
	unsigned port = 0;

	util_init(argv[0]);
	/*
	 * Hold nothing of the test's: a FIFO whose writer the test closes
	 * must see its end, even when the sink was started while it was
	 * open.
	 */
	for (fd = 3; fd < 256; fd++)
		close(fd);
	while ((ch = getopt(argc, argv, "6p:qu")) != -1)
		switch (ch) {
		case '6':
			v6 = 1;
			break;
		case 'p':
			port = (unsigned)num_opt_u64("-p", optarg, 0, 65535);
			break;
		case 'q':
			quiet = 1;
			break;
		case 'u':
			isudp = 1;
			break;
		default:
			fprintf(stderr, "usage: gmemsink [-6uq] [-p PORT]\n");
			return 2;
		}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: recv ends */
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&ss, 0, sizeof(ss));
	if (v6) {
		a6->sin6_family = AF_INET6;
		a6->sin6_addr = in6addr_loopback;
		a6->sin6_port = htons((uint16_t)port);
		len = sizeof(*a6);
	} else {
		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		a4->sin_port = htons((uint16_t)port);
		len = sizeof(*a4);
	}
	fd = socket(ss.ss_family, isudp ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0)
		die("socket:");
	/*
	 * A sink started again on the same port while the old one's
	 * connection is in TIME_WAIT; room for a burst of datagrams.
	 */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
	    sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		die("bind to port %u:", port);
	if (!isudp && listen(fd, 4) < 0)
		die("listen:");
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		die("getsockname:");
	printf("%u\n", ntohs(v6 ? a6->sin6_port : a4->sin_port));
	if (isudp)
		udp(fd);
	else
		tcp(fd);
	fprintf(stderr, "gmemsink: %llu frames, %llu records, %llu bytes, "
	    "%llu bad\n", nframes, nrecs, nbytes, nbad);
	return 0;
}
