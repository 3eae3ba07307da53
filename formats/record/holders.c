/* SPDX-License-Identifier: ISC */
/*
 * holders.c: who holds the GPU device files open (holders.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "csv.h"
#include "holders.h"
#include "util.h"

#define NAMESZ 64
#define CGSZ 256
#define MAXGPUS 64		/* GPUs told apart per process and scan */

struct holders {
	char *glob;		/* NULL: /dev/nvidia + digits */
	FILE *out;
	size_t unreadable, rows;
	pid_t *skip;
	size_t nskip;
};

struct holders *
holders_new(const char *glob, FILE *out, const pid_t *skip, size_t nskip)
{
	struct holders *h = ecalloc(1, sizeof(*h));

	h->skip = ecalloc(nskip + 1, sizeof(*h->skip));
	memcpy(h->skip, skip, nskip * sizeof(*skip));
	h->nskip = nskip;
	h->glob = glob == NULL ? NULL : estrdup(glob);
	h->out = out;
	fprintf(out, "time_ns,gpu,pid,name,cgroup,container\n");
	return h;
}

/* The digits that end s as a number; -1 without. */
static long
trailing_number(const char *s)
{
	const char *p = s + strlen(s);

	while (p > s && isdigit((unsigned char)p[-1]))
		p--;
	if (*p == '\0' || (p[0] == '0' && p[1] != '\0') || strlen(p) > 6)
		return -1;
	return strtol(p, NULL, 10);
}

long
holders_gpu_device(const char *path)
{
	if (strncmp(path, "/dev/nvidia", 11) != 0 || path[11] == '\0' ||
	    strspn(path + 11, "0123456789") != strlen(path + 11))
		return -1;
	return trailing_number(path + 11);
}

/* Whether target is a GPU file; then its GPU into *gpu. */
static int
is_gpu(const struct holders *h, const char *target, const char *fdpath,
    long *gpu)
{
	struct stat st;
	const char *base;

	if (h->glob != NULL) {
		if (fnmatch(h->glob, target, FNM_PATHNAME) != 0)
			return 0;
	} else if (holders_gpu_device(target) < 0) {
		return 0;
	}
	if (stat(fdpath, &st) == 0 && S_ISCHR(st.st_mode)) {
		*gpu = (long)minor(st.st_rdev);
		return 1;
	}
	base = strrchr(target, '/');
	*gpu = trailing_number(base != NULL ? base + 1 : target);
	if (*gpu < 0)
		*gpu = 0;
	return 1;
}

void
holders_cgroup(const char *line, char *cg, size_t n,
    char id[HOLDERS_IDSZ])
{
	const char *p = strchr(line, ':'), *s;
	size_t k = 0, run;

	p = p != NULL ? strchr(p + 1, ':') : NULL;
	p = p != NULL ? p + 1 : line;
	id[0] = '\0';
	for (s = p; *s != '\0' && *s != '\n' && k + 1 < n;) {
		for (run = 0; isxdigit((unsigned char)s[run]); run++)
			;
		if (run == 64) {
			if (id[0] == '\0')
				snprintf(id, HOLDERS_IDSZ, "%.12s", s);
			for (run = 0; run < 12 && k + 1 < n; run++)
				cg[k++] = *s++;
			s += 52;
			continue;
		}
		if (run == 0)
			run = 1;
		while (run-- > 0 && k + 1 < n)
			cg[k++] = *s++;
	}
	cg[k] = '\0';
}

/* The first line of path, without its line break ("" when unreadable). */
static void
first_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(buf, (int)n, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The GPUs pid holds open, into gpus; their count, or -1 unreadable. */
static int
held(const struct holders *h, const char *pid, long *gpus)
{
	char path[64], fdpath[320], target[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n = 0, i;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	if ((d = opendir(path)) == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d)) != NULL) {
		ssize_t len;
		long gpu;

		if (e->d_name[0] == '.')
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, e->d_name);
		if ((len = readlink(fdpath, target, sizeof(target) - 1)) < 0)
			continue;
		target[len] = '\0';
		if (!is_gpu(h, target, fdpath, &gpu))
			continue;
		for (i = 0; i < n && gpus[i] != gpu; i++)
			;
		if (i == n && n < MAXGPUS)
			gpus[n++] = gpu;
	}
	closedir(d);
	return n;
}

void
holders_scan(struct holders *h, uint64_t now)
{
	struct dirent *e;
	size_t unreadable = 0;
	DIR *d;

	if ((d = opendir("/proc")) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[320], name[NAMESZ], line[CGSZ], cg[CGSZ];
		char id[HOLDERS_IDSZ];
		char fname[2 * NAMESZ + 2], fcg[2 * CGSZ + 2];
		long gpus[MAXGPUS];
		size_t k;
		int n, i;

		if (!isdigit((unsigned char)e->d_name[0]) ||
		    strlen(e->d_name) > 20)
			continue;
		for (k = 0; k < h->nskip && h->skip[k] != atol(e->d_name); k++)
			;
		if (k < h->nskip)
			continue;
		if ((n = held(h, e->d_name, gpus)) < 0) {
			unreadable++;
			continue;
		}
		if (n == 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/comm", e->d_name);
		first_line(path, name, sizeof(name));
		snprintf(path, sizeof(path), "/proc/%.20s/cgroup", e->d_name);
		first_line(path, line, sizeof(line));
		holders_cgroup(line, cg, sizeof(cg), id);
		fname[csv_field(fname, name)] = '\0';
		fcg[csv_field(fcg, cg)] = '\0';
		for (i = 0; i < n; i++)
			fprintf(h->out, "%llu,%ld,%s,%s,%s,%s\n",
			    (unsigned long long)now, gpus[i], e->d_name,
			    fname, fcg, id);
		h->rows += (size_t)n;
	}
	closedir(d);
	fflush(h->out);
	if (unreadable > h->unreadable)
		h->unreadable = unreadable;
}

size_t
holders_unreadable(const struct holders *h)
{
	return h->unreadable;
}

size_t
holders_rows(const struct holders *h)
{
	return h->rows;
}

void
holders_free(struct holders *h)
{
	if (h == NULL)
		return;
	free(h->glob);
	free(h->skip);
	free(h);
}
