/* SPDX-License-Identifier: ISC */
/*
 * inject.c: an LD_PRELOAD shim that makes one call fail, for the fault
 * injection tests (nothing here is part of gpumem; jq's
 * src/inject_errors.c does the same for its tests).
 *
 *	LD_PRELOAD=.../inject.so GPUMEM_INJECT=KIND:N gpumem-read ...
 *
 * The Nth call (from 1) of KIND fails:
 *	malloc	malloc(), calloc(), realloc() return NULL, errno ENOMEM
 *	read	read() and fread() fail with EIO
 *	open	open(), openat(), fopen() fail with EMFILE
 * Calls from every library count (libc's own allocations, libpcap, zlib,
 * libyaml, expat), as a real failure would hit them.
 *
 * GPUMEM_INJECT_COUNT=FILE writes, at exit, how many calls of each kind
 * the run made ("malloc 1234"), so a test knows how far to go.
 *
 * Built as a shared object with the normal build only: ASan has its own
 * malloc and must come first in the process.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* glibc's own allocator, under the names it exports for this. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

enum kind { K_MALLOC, K_READ, K_OPEN, K_N };
static const char *const kname[K_N] = {"malloc", "read", "open"};
static unsigned long count[K_N];
static unsigned long fail_at;	/* 0: nothing fails */
static int fail_kind = -1;
static int ready;

static void
setup(void)
{
	const char *e;
	int k;

	if (ready)
		return;
	ready = 1;
	e = getenv("GPUMEM_INJECT");
	if (e == NULL)
		return;
	for (k = 0; k < K_N; k++) {
		size_t n = strlen(kname[k]);

		if (strncmp(e, kname[k], n) == 0 && e[n] == ':') {
			fail_kind = k;
			fail_at = strtoul(e + n + 1, NULL, 10);
		}
	}
}

/* Count a call of kind k; whether it must fail. */
static int
fails(enum kind k)
{
	if (!ready)
		setup();
	count[k]++;
	return (int)k == fail_kind && count[k] == fail_at;
}

__attribute__((destructor)) static void
report(void)
{
	const char *path = getenv("GPUMEM_INJECT_COUNT");
	unsigned long c[K_N];
	char buf[128];
	int fd, k, n;

	if (path == NULL)
		return;
	memcpy(c, count, sizeof(c));	/* before our own open counts */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return;
	for (k = 0; k < K_N; k++) {
		n = snprintf(buf, sizeof(buf), "%s %lu\n", kname[k], c[k]);
		if (write(fd, buf, (size_t)n) != n)
			break;
	}
	close(fd);
}

void *
malloc(size_t n)
{
	if (fails(K_MALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	if (fails(K_MALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	if (fails(K_MALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}

ssize_t
read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);

	if (fails(K_READ)) {
		errno = EIO;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "read");
	return real(fd, buf, n);
}

size_t
fread(void *p, size_t size, size_t n, FILE *f)
{
	static size_t (*real)(void *, size_t, size_t, FILE *);

	if (fails(K_READ)) {
		errno = EIO;
		f->_flags |= 0x20;	/* glibc's _IO_ERR_SEEN: ferror() says so */
		return 0;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fread");
	return real(p, size, n, f);
}

int
open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (fails(K_OPEN)) {
		errno = EMFILE;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "open");
	return real(path, flags, mode);
}

int
openat(int dir, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (fails(K_OPEN)) {
		errno = EMFILE;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "openat");
	return real(dir, path, flags, mode);
}

FILE *
fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);

	if (fails(K_OPEN)) {
		errno = EMFILE;
		return NULL;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fopen");
	return real(path, mode);
}
